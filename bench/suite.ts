/**
 * npm run bench:suite [-- --suite ../shared/jericho] [--games zork1,905] [--details]
 *
 * Every game of the Jericho suite, played in grue as Jericho's trace was made (the game's seed,
 * its reset commands, then its walkthrough), compared step by step with Jericho 3.3.1's own run
 * (bench/suiteReplay.ts). Prints one JSON object on stdout; progress goes to stderr:
 * - games / loaded: stories in suite.json, and how many grue loads;
 * - walkthroughScoreReached: games whose final score equals Jericho's walkthroughScore (of those
 *   with a walkthrough: `withWalkthrough`);
 * - identicalStepShare: steps whose text is Jericho's (whitespace, case, punctuation and Jericho's
 *   artifacts aside: bench/jerichoText.ts), over all walkthrough steps;
 * - groundTruthAgreement: per field, agreeing steps / steps where Jericho's reading is valid;
 * - faults: games that failed to load or stopped with an engine error, with the error;
 * - with --details, per game figures and the first mismatches of each kind.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { SuiteFileSchema } from '../src/schemas/jerichoSuite';
import { arg } from './cli';
import { type GameReplay, type GroundTruthField, replayGame } from './suiteReplay';

const round = (x: number) => Number(x.toFixed(4));

function main(): void {
  const suiteDir = resolve(arg('suite', join(__dirname, '..', '..', 'shared', 'jericho')));
  const suitePath = join(suiteDir, 'suite.json');
  if (!existsSync(suitePath)) {
    console.error(`bench:suite: no suite.json in ${suiteDir} (pass --suite <folder with suite.json>).`);
    process.exit(2);
  }
  const only = arg('games', '').split(',').filter(Boolean);
  const suite = SuiteFileSchema.parse(JSON.parse(readFileSync(suitePath, 'utf8'))).filter((g) => !only.length || only.includes(g.game));
  const unknown = only.filter((name) => !suite.some((g) => g.game === name));
  if (unknown.length) {
    console.error(`bench:suite: no game named ${unknown.join(', ')} in ${suitePath}.`);
    process.exit(2);
  }
  const replays: GameReplay[] = [];
  for (const entry of suite) {
    const replay = replayGame(entry, suiteDir);
    replays.push(replay);
    const score = replay.finalScore === null ? '-' : `${replay.finalScore}/${entry.walkthroughScore}`;
    process.stderr.write(
      `bench:suite ${entry.game.padEnd(14)} ${replay.identicalSteps}/${replay.steps} steps identical, score ${score}` +
        `${replay.fault ? `, FAULT ${replay.fault}` : ''} (${replay.seconds.toFixed(1)} s)\n`,
    );
  }
  const withWalkthrough = replays.filter((r) => r.steps > 0);
  const steps = withWalkthrough.reduce((n, r) => n + r.steps, 0);
  const identical = withWalkthrough.reduce((n, r) => n + r.identicalSteps, 0);
  const agreement = (field: GroundTruthField) => {
    const agree = replays.reduce((n, r) => n + r.groundTruth[field].agree, 0);
    const counted = replays.reduce((n, r) => n + r.groundTruth[field].counted, 0);
    return { share: counted ? round(agree / counted) : 0, agree, counted };
  };
  const report = {
    games: replays.length,
    loaded: replays.filter((r) => r.loaded).length,
    withWalkthrough: withWalkthrough.length,
    walkthroughScoreReached: withWalkthrough.filter((r) => r.reachedWalkthroughScore).length,
    notReached: withWalkthrough
      .filter((r) => !r.reachedWalkthroughScore)
      .map((r) => ({ game: r.game, finalScore: r.finalScore, walkthroughScore: r.walkthroughScore })),
    steps,
    identicalStepShare: steps ? round(identical / steps) : 0,
    groundTruthAgreement: {
      location: agreement('location'),
      inventory: agreement('inventory'),
      score: agreement('score'),
      moves: agreement('moves'),
      done: agreement('done'),
    },
    faults: replays.filter((r) => r.fault).map((r) => ({ game: r.game, error: r.fault })),
    seconds: Number(replays.reduce((n, r) => n + r.seconds, 0).toFixed(1)),
    ...(process.argv.includes('--details') ? { details: replays } : {}),
  };
  process.stdout.write(`${JSON.stringify(report, null, process.argv.includes('--details') ? 1 : undefined)}\n`);
}

main();
