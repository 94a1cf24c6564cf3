/**
 * npx tsx scripts/check-jericho-suite.ts [--games seastalker,ludicorp] [--dir ../shared/jericho] [--json]
 *
 * Every game runs: loads each story of the Jericho suite, plays its reset commands and walkthrough
 * with the game's seed, and reports per game whether it loaded, how far it got, its final score
 * (beside Jericho's) and the first VM fault, if any. One line per game on stderr as it finishes;
 * the summary (or, with --json, every run as JSON) on stdout. Exit 1 when a game fails to load
 * or faults. Scores may differ from Jericho's where a game draws random numbers: grue's generator
 * is not frotz's, so that is not a failure here.
 */
import { Command } from 'commander';
import { JERICHO_SUITE_DIR, playSuiteGame, readSuite, SuiteRun } from '../bench/jerichoSuite';

function line(run: SuiteRun): string {
  const score = `score ${run.score ?? '-'}/${run.walkthroughScore ?? '-'}`;
  const ended = run.endedAfter !== null ? ` (ended after step ${run.endedAfter})` : '';
  const { fault } = run;
  const faultText = fault ? `  FAULT at step ${fault.step} (${JSON.stringify(fault.command)}): ${fault.message}` : '';
  const seconds = `${(run.elapsedMs / 1000).toFixed(1)}s`;
  const steps = `${String(run.steps).padStart(4)} steps`;
  return `${run.game.padEnd(14)} ${run.loaded ? 'loaded' : 'NOT LOADED'}  ${steps}  ${score}${ended}  ${seconds}${faultText}`;
}

function main(): void {
  const options = new Command()
    .option('--games <names>', 'comma-separated game names (default: all)')
    .option('--dir <path>', 'the suite folder (suite.json and the story files)', JERICHO_SUITE_DIR)
    .option('--json', 'print every run as JSON instead of the summary')
    .parse()
    .opts<{ games?: string; dir: string; json?: boolean }>();
  const wanted = options.games?.split(',').map((g) => g.trim());
  const suite = readSuite(options.dir).filter((e) => !wanted || wanted.includes(e.game));
  if (wanted && suite.length !== wanted.length) {
    const missing = wanted.filter((g) => !suite.some((e) => e.game === g));
    throw new Error(`Not in the suite: ${missing.join(', ')}.`);
  }
  const runs: SuiteRun[] = [];
  for (const entry of suite) {
    const run = playSuiteGame(entry, options.dir);
    runs.push(run);
    process.stderr.write(`${line(run)}\n`);
  }
  const loaded = runs.filter((r) => r.loaded).length;
  const faulted = runs.filter((r) => r.fault);
  const matching = runs.filter((r) => r.walkthroughScore !== null && r.score === r.walkthroughScore).length;
  if (options.json) process.stdout.write(`${JSON.stringify(runs, null, 2)}\n`);
  else {
    const summary = `${runs.length} games: ${loaded} loaded, ${faulted.length} faulted, ${matching} reached Jericho's walkthrough score`;
    process.stdout.write(`${summary}\n`);
    for (const run of faulted) process.stdout.write(`${line(run)}\n`);
  }
  process.exitCode = loaded === runs.length && faulted.length === 0 ? 0 : 1;
}

main();
