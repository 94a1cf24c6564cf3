/**
 * Every game of the Jericho suite that has a walkthrough, played in grue as Jericho's own trace was
 * made (the game's seed, its reset commands, the walkthrough) and compared with the trace step by
 * step: the final score Jericho reaches, the text of each step, and the ground truth wherever
 * Jericho's own reading is valid (bench/suiteReplay.ts says when). `npm run bench:suite` prints the
 * same figures as JSON.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SuiteFileSchema } from '../../src/schemas/jerichoSuite';
import { type GameReplay, type GroundTruthField, replayGame } from '../../bench/suiteReplay';
import { describeWithSuite } from '../helpers';

describeWithSuite('the Jericho suite replayed against Jericho 3.3.1', (suiteDir) => {
  const suite = SuiteFileSchema.parse(JSON.parse(readFileSync(join(suiteDir, 'suite.json'), 'utf8')));
  const withWalkthrough = suite.filter((g) => g.walkthrough?.length);
  const replays = new Map<string, GameReplay>();

  beforeAll(() => {
    for (const entry of withWalkthrough) replays.set(entry.game, replayGame(entry, suiteDir));
  }, 900_000);

  it('loads every story of the suite, lgop (no walkthrough) included', () => {
    const failed = suite
      .filter((g) => !g.walkthrough?.length)
      .map((g) => replayGame(g, suiteDir))
      .filter((r) => !r.loaded);
    expect(failed.map((r) => `${r.game}: ${r.fault}`)).toEqual([]);
  });

  it.each(withWalkthrough.map((g) => [g.game]))("%s: plays the whole walkthrough and ends on Jericho's score", (game) => {
    const replay = replays.get(game)!;
    expect(replay.fault).toBeUndefined();
    expect(replay.played).toBe(replay.steps);
    expect(replay.finalScore).toBe(replay.walkthroughScore);
  });

  it("prints Jericho's text at 95% of all steps", () => {
    const all = [...replays.values()];
    const steps = all.reduce((n, r) => n + r.steps, 0);
    const identical = all.reduce((n, r) => n + r.identicalSteps, 0);
    const worst = all
      .map((r) => ({ game: r.game, share: r.identicalSteps / r.steps, firstDifference: r.mismatches.find((m) => m.what === 'text') }))
      .sort((a, b) => a.share - b.share)
      .slice(0, 5);
    expect({ share: identical / steps >= 0.95 ? 'at least 0.95' : identical / steps, worst }).toMatchObject({ share: 'at least 0.95' });
  });

  it.each<[GroundTruthField]>([['location'], ['inventory'], ['score']])(
    'reads the %s Jericho reads at 98% of the steps where its reading is valid',
    (field) => {
      const all = [...replays.values()];
      const agree = all.reduce((n, r) => n + r.groundTruth[field].agree, 0);
      const counted = all.reduce((n, r) => n + r.groundTruth[field].counted, 0);
      const worst = all
        .filter((r) => r.groundTruth[field].counted)
        .map((r) => ({
          game: r.game,
          share: r.groundTruth[field].agree / r.groundTruth[field].counted,
          first: r.mismatches.find((m) => m.what === field),
        }))
        .sort((a, b) => a.share - b.share)
        .slice(0, 5);
      expect(counted).toBeGreaterThan(0);
      expect({ share: agree / counted >= 0.98 ? 'at least 0.98' : agree / counted, worst }).toMatchObject({ share: 'at least 0.98' });
    },
  );
});
