/**
 * bench:walkthrough-pace reads how far Jericho's walkthrough of a game gets in a step budget: the
 * best score among its first commands, not the last one (a walkthrough can lose points on the way).
 */
import { paceOf } from '../../bench/walkthroughPace';

describe('walkthrough pace', () => {
  const trace = [0, 5, 15, 10, 40, 40, 60].map((score) => ({ score }));

  it('takes the best score within the budget, as a share of the max', () => {
    expect(paceOf('g', 100, trace, 4)).toEqual({ game: 'g', maxScore: 100, score: 15, normalised: 0.15, walkthroughSteps: 7 });
    expect(paceOf('g', 100, trace, 5).score).toBe(40);
  });

  it('reads the whole walkthrough when the budget is longer, and 0 for none', () => {
    expect(paceOf('g', 120, trace, 100)).toMatchObject({ score: 60, normalised: 0.5 });
    expect(paceOf('g', 10, [], 100)).toMatchObject({ score: 0, normalised: 0, walkthroughSteps: 0 });
  });
});
