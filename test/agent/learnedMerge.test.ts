import { observe } from '../../src/agent/dynamics';
import { mergeLearned } from '../../src/agent/learnedMerge';
import { recordOutcome } from '../../src/agent/reliability';
import { freshLearned, LearnedState } from '../../src/agent/learned';

const STATE_A = 'aaaaaaaaaaaa0000';
const STATE_B = 'bbbbbbbbbbbb0000';

/** An episode's lessons: one more episode, a reward, a death, an observed move and an oracle outcome. */
function learnedBy(
  start: LearnedState,
  lesson: { score: number; reward: string; cell: string; helped: boolean; memory?: unknown },
): LearnedState {
  return {
    ...start,
    episodes: start.episodes + 1,
    bestScore: Math.max(start.bestScore, lesson.score),
    rewarding: { ...start.rewarding, [STATE_A.slice(0, 12)]: [...(start.rewarding[STATE_A.slice(0, 12)] ?? []), lesson.reward] },
    dynamics: observe(start.dynamics, STATE_A, 'north', STATE_B, lesson.score),
    reliability: recordOutcome(start.reliability, 'recommendation', lesson.helped),
    cells: [...start.cells, lesson.cell],
    ...(lesson.memory !== undefined ? { memory: { ...start.memory, knowledge: lesson.memory } } : {}),
  };
}

describe('mergeLearned', () => {
  const start = freshLearned();
  const first = learnedBy(start, { score: 5, reward: 'take lamp', cell: 'cellar|lamp|5', helped: true, memory: 'kb one' });
  const second = learnedBy(start, { score: 3, reward: 'open mailbox', cell: 'house|-|3', helped: false });

  it('adds both siblings’ counts, unites their sets and keeps the best score, whichever finished first', () => {
    for (const [earlier, later] of [
      [first, second],
      [second, first],
    ]) {
      const merged = mergeLearned(mergeLearned(start, start, earlier), start, later);
      expect(merged.episodes).toBe(2);
      expect(merged.bestScore).toBe(5);
      expect(merged.reliability.recommendation).toEqual({ tried: 2, helped: 1 });
      const entry = merged.dynamics.entries[`${STATE_A.slice(0, 12)}|north`];
      expect(entry).toEqual({ count: 2, rewardSum: 8, next: { [STATE_B.slice(0, 12)]: 2 } });
      expect(new Set(merged.rewarding[STATE_A.slice(0, 12)])).toEqual(new Set(['take lamp', 'open mailbox']));
      expect(new Set(merged.cells)).toEqual(new Set(['cellar|lamp|5', 'house|-|3']));
      // Only the first changed the knowledge module: its state survives the second's merge.
      expect(merged.memory.knowledge).toBe('kb one');
    }
  });

  it('adds only what the episode learned beyond the state it started from', () => {
    const campaignSoFar = learnedBy(start, { score: 1, reward: 'wait', cell: 'x', helped: true });
    const episode = learnedBy(campaignSoFar, { score: 2, reward: 'jump', cell: 'y', helped: true });
    const merged = mergeLearned(campaignSoFar, campaignSoFar, episode);
    expect(merged.episodes).toBe(2);
    expect(merged.reliability.recommendation).toEqual({ tried: 2, helped: 2 });
    expect(merged.dynamics.entries[`${STATE_A.slice(0, 12)}|north`].count).toBe(2);
  });

  it('takes a changed memory module from the episode that finished last', () => {
    const other = learnedBy(start, { score: 0, reward: 'look', cell: 'z', helped: false, memory: 'kb two' });
    const merged = mergeLearned(mergeLearned(start, start, first), start, other);
    expect(merged.memory.knowledge).toBe('kb two');
  });
});
