/**
 * A campaign of bench:explore stopped mid-episode goes on from the kept turn as if it had not
 * stopped: the kept episode is written as JSON and read back through the checkpoint's schema, the
 * game restored from its snapshot, and the rest of the campaign gives the same finals, peaks,
 * steps and places as one uninterrupted run. At `valid` (the search every turn) and at `none`.
 */
import { CampaignCheckpointSchema, type EpisodeInPlay } from '../../bench/exploreCheckpoint';
import { type ExploreAssist, type GameRun, playCampaign, readSuite } from '../../bench/explore';
import type { LearnedState } from '../../src/agent/learned';
import { describeWithSuite } from '../helpers';

const summary = (run: GameRun) => ({
  finals: run.finals,
  episodes: run.episodes,
  peak: run.peak,
  steps: run.steps,
  places: run.places,
  doomedTurns: run.doomedTurns,
});

describeWithSuite('bench:explore resumes a campaign mid-episode', (suiteDir) => {
  const zork = readSuite(suiteDir).find((game) => game.game === 'zork1')!;

  it.each<[ExploreAssist, number]>([
    ['valid', 10],
    ['none', 30],
  ])('at %s, stopped at turn 4 of episode 2 of 2 x %i steps', (assist, steps) => {
    const options = { steps, seed: 0, assist };
    let firstEpisode: { runs: GameRun[]; learned: LearnedState } | undefined;
    let stoppedAt: EpisodeInPlay | undefined;
    const whole = playCampaign(suiteDir, zork, 2, {
      ...options,
      onEpisode: (index, _run, so) => {
        if (index === 0) firstEpisode = { runs: so.runs, learned: so.learned! };
      },
      onTurnKept: (inPlay) => {
        if (firstEpisode && !stoppedAt) {
          const kept = inPlay();
          if (kept.state.turn === 4) stoppedAt = kept;
        }
      },
    });
    expect(stoppedAt).toBeDefined();
    const checkpoint = CampaignCheckpointSchema.parse(
      JSON.parse(
        JSON.stringify({
          settings: { assist, steps, episodes: 2, prior: 'default' },
          seed: 0,
          game: 'zork1',
          ...firstEpisode,
          inPlay: stoppedAt,
        }),
      ),
    );
    let turnsPlayed = 0;
    const resumed = playCampaign(suiteDir, zork, 2, { ...options, resume: checkpoint, onProgress: () => turnsPlayed++ });
    expect(summary(resumed)).toEqual(summary(whole));
    // Played from the kept turn on, not again from the episode's start.
    expect(turnsPlayed).toBe(steps - 4);
    expect(whole.steps).toBe(2 * steps);
  });
});
