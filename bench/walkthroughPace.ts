/**
 * npm run bench:walkthrough-pace -- [--steps 100] [--suite DIR]
 *
 * How far Jericho's own walkthrough of each suite game gets in its first `--steps` commands (its
 * recorded run, traces/<game>.json): the best score it reaches by then, normalised by the game's
 * max. A 100-step episode cannot be scored against the max alone: Zork I's walkthrough has 102 of
 * 350 points after 100 commands, so what a perfect player reaches in the budget is the ceiling the
 * suite's settings are measured under. Prints JSON; no game is played.
 */
import { join, resolve } from 'node:path';
import { arg } from './cli';
import { readSuite } from './explore';
import { readTrace, type TraceStep } from './jerichoTrace';

export interface Pace {
  game: string;
  maxScore: number;
  /** The best score of the walkthrough's first `steps` commands. */
  score: number;
  normalised: number;
  /** Commands the whole walkthrough has. */
  walkthroughSteps: number;
}

/** The walkthrough's best score within its first `steps` commands, as a share of `maxScore`. */
export function paceOf(game: string, maxScore: number, trace: ReadonlyArray<Pick<TraceStep, 'score'>>, steps: number): Pace {
  const score = Math.max(0, ...trace.slice(0, steps).map((step) => step.score));
  return { game, maxScore, score, normalised: Number((score / maxScore).toFixed(4)), walkthroughSteps: trace.length };
}

function main(): void {
  const suiteDir = resolve(arg('suite', join(__dirname, '../../shared/jericho')));
  const steps = Number(arg('steps', '100'));
  if (!Number.isInteger(steps) || steps < 1)
    throw new Error(`bench:walkthrough-pace reads --steps 1 or more (got "${arg('steps', '100')}")`);
  // lgop has no Jericho walkthrough nor known max; every other game has both.
  const games = readSuite(suiteDir).filter((entry) => entry.maxScore > 0 && entry.jerichoSupported);
  const paces = games.map((entry) => paceOf(entry.game, entry.maxScore, readTrace(suiteDir, entry.game).steps, steps));
  const mean = paces.reduce((sum, pace) => sum + pace.normalised, 0) / paces.length;
  console.log(JSON.stringify({ steps, suite: suiteDir, games: paces.length, meanNormalised: Number(mean.toFixed(4)), paces }, null, 1));
}

if (require.main === module) main();
