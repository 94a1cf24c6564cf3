/**
 * `npm run bench:saved-suite -- --save FILE --id ID`: a row bench:explore played in-process (its
 * `--save` file) written as a suite's results.json under the data dir, so `grue report ID` draws it
 * per game beside the published results of its setting, as it does a `grue suite` run. A campaign
 * row of the 47 games takes some ten hours in-process; played through the workflows it would take
 * longer still, for the same turns (the agent's turn pipeline is the same code).
 *
 * What a suite run has and a saved row does not is said in the results: the campaign id names the
 * save file, the wall time is the games' own times added up (they were played two or more at a
 * time, across sessions), and no model was asked (bench:explore plays the oracle-free explorer).
 */
import { Command, CommanderError } from 'commander';
import { join, resolve } from 'node:path';
import { writeSuiteResultsFile } from '../src/activities/suiteFiles';
import { loadConfig } from '../src/config';
import { failedGameResult, gameResult, suiteSummary } from '../src/experiment/suiteResults';
import { AssistSchema } from '../src/schemas/episode';
import { settingNameOf, SuiteGameResult, SuiteResult, SuiteSetting } from '../src/schemas/suite';
import type { SuiteGame } from '../src/schemas/jerichoSuite';
import { wholeNumber } from './cli';
import { readSuite } from './explore';
import { type GameRun, readSavedFile } from './exploreSaved';

const log = (msg: string) => process.stderr.write(`bench:saved-suite ${msg}\n`);

/** The setting of a saved row: named by its episodes × steps, the oracle-free explorer, no model. */
export function settingOf(about: { assist: string; steps: number; episodes: number }): SuiteSetting {
  return {
    name: settingNameOf(about),
    episodes: about.episodes,
    steps: about.steps,
    assist: AssistSchema.parse(about.assist),
    policy: 'oracle-free',
    model: null,
  };
}

/** The episodes a saved run played, as a campaign's result lists them; an error for a run saved before they were kept. */
function episodesOf(run: GameRun, seed: number) {
  const episodes =
    run.episodes ??
    (run.died === undefined ? null : [{ final: run.best, peak: run.peak, steps: run.steps, died: run.died, won: run.won ?? false }]);
  if (!episodes)
    throw new Error(`${run.game} was saved before bench:explore kept how episodes ended (dd11df4); play it again into a new --save file`);
  return episodes.map((episode, index) => ({
    workflowId: `${run.game}-episode-${index + 1}`,
    seed: seed + index,
    score: episode.final,
    peakScore: episode.peak,
    turns: episode.steps,
    victory: episode.won,
    died: episode.died,
  }));
}

/** A story fault as bench:explore words it: "step 12 (push button): message"; "load: …" is a game that did not start. */
const STEP_FAULT = /^step (\d+) \((.*?)\): ([\s\S]*)$/;

export function savedGameResult(
  suiteId: string,
  saveFile: string,
  entry: SuiteGame,
  seed: number,
  run: GameRun,
  setting: SuiteSetting,
): SuiteGameResult {
  const storySeed = (entry.seed ?? 0) + seed;
  const base = {
    suiteId,
    game: { name: entry.game, maxScore: entry.maxScore > 0 ? entry.maxScore : null, campaign: { seed: storySeed } },
    campaignId: `bench:explore --save ${saveFile}`,
    setting,
    seconds: run.seconds,
  };
  if (run.fault?.startsWith('load:')) return failedGameResult(base, run.fault);
  const result = gameResult(base, { episodes: episodesOf(run, storySeed) });
  const fault = run.fault ? STEP_FAULT.exec(run.fault) : null;
  return fault ? { ...result, storyFaults: [{ turn: Number(fault[1]) + 1, command: fault[2], message: fault[3] }] } : result;
}

/** Writes the runs of `saveFile` at `seed` as suite `id`'s results.json under `dataDir`; returns them. */
export function writeSavedSuite(saveFile: string, id: string, suiteDir: string, seed: number, dataDir: string): SuiteResult {
  const suite = readSuite(suiteDir);
  const { settings, runs } = readSavedFile(saveFile, seed, log);
  const setting = settingOf(settings);
  const games = runs.map((run) => {
    const entry = suite.find((g) => g.game === run.game);
    if (!entry) throw new Error(`${run.game} (in ${saveFile}) is not in ${suiteDir}/suite.json`);
    return savedGameResult(id, saveFile, entry, seed, run, setting);
  });
  const seconds = games.reduce((sum, g) => sum + g.seconds, 0);
  return writeSuiteResultsFile(dataDir, { suiteId: id, suiteDir, setting, parallel: 1, summary: suiteSummary(games, seconds), games });
}

/** The command line (process.argv's shape): --help prints it, and an unknown flag or a missing --save or --id stops with why. */
export function savedSuiteOptions(argv: readonly string[]): { save: string; id: string; suite: string; seed: number } {
  const read = new Command()
    .name('npm run bench:saved-suite --')
    .description("A bench:explore --save row written as a suite's results, for `grue report ID`.")
    .requiredOption('--save <file>', 'the bench:explore --save file')
    .requiredOption('--id <id>', 'the suite id to write')
    .option('--suite <dir>', 'the Jericho suite folder', join(__dirname, '../../shared/jericho'))
    .option('--seed <n>', "the seed of the row's runs", wholeNumber('--seed', 0), 0)
    .showHelpAfterError()
    .exitOverride()
    .parse([...argv])
    .opts<{ save: string; id: string; suite: string; seed: number }>();
  return { ...read, save: resolve(read.save), suite: resolve(read.suite) };
}

function main(): void {
  const { save: saveFile, id, suite: suiteDir, seed } = savedSuiteOptions(process.argv);
  const result = writeSavedSuite(saveFile, id, suiteDir, seed, loadConfig().GRUE_DATA_DIR);
  log(`${result.games.length} games of ${saveFile} (seed ${seed}) written as suite ${id}: ${result.resultsPath}`);
  log(
    `mean normalised ${result.summary.meanNormalised?.toFixed(4) ?? '-'} over ${result.summary.averaged} games; now: npx grue report ${id}`,
  );
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    // Commander has written the usage or the bad flag's error already.
    if (error instanceof CommanderError) process.exit(error.exitCode);
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  }
}
