/**
 * bench:explore's command line, read with commander: `--help` prints what each flag does, and a
 * flag it does not know (`--game zork1` for `--games zork1`) stops the run with an error instead of
 * playing the whole suite on the defaults.
 */
import { Command, InvalidArgumentError, Option } from 'commander';
import { join, resolve } from 'node:path';
import { AssistSchema } from '../src/schemas/game';
import { wholeNumber } from './cli';
import type { Assist } from '../src/schemas/game';

export interface ExploreOptions {
  assist: Assist;
  steps: number;
  episodes: number;
  seeds: number[];
  jobs: number;
  /** Game names, or 'all'. */
  games: string;
  suite: string;
  save: string;
  prior: string;
  log: boolean;
  searchesDeeper: boolean;
  /** Set by the parent on the processes `--jobs` starts (see explorePool.ts). */
  child: boolean;
}

/** `--seeds 0,1,2` or `--seeds 0-3` (else `--seed N`, default 0): the explorer's seeds to play each game with. */
export function parseSeeds(seeds: string, seed: string): number[] {
  const text = seeds || seed;
  const range = /^(\d+)-(\d+)$/.exec(text);
  const list = range
    ? Array.from({ length: Number(range[2]) - Number(range[1]) + 1 }, (_, index) => Number(range[1]) + index)
    : text.split(',').map(Number);
  if (!list.length || list.some((value) => !Number.isInteger(value) || value < 0))
    throw new Error(`bench:explore plays --seeds like 0,1,2 or 0-3, or --seed N (got "${text}")`);
  return list;
}

const assistLevel = (raw: string): Assist => {
  const asked = AssistSchema.safeParse(raw);
  if (!asked.success) throw new InvalidArgumentError(`--assist is none, valid or probe (got "${raw}").`);
  return asked.data;
};

/** The options of `argv` (process.argv's shape). On --help or a bad flag commander writes why and throws a CommanderError. */
export function exploreOptions(argv: readonly string[]): ExploreOptions {
  const read = new Command()
    .name('npm run bench:explore --')
    .description('The oracle-free explorer played in-process on the Jericho suite (no Temporal, no LLM); prints one JSON report.')
    .option('--assist <level>', 'none, valid or probe', assistLevel, 'none' as Assist)
    .option('--steps <n>', 'turns per episode', wholeNumber('--steps', 1), 100)
    .option(
      '--episodes <n>',
      'episodes per game, as the campaign setting plays them (each starts from what the ones before learned)',
      wholeNumber('--episodes', 1),
      1,
    )
    .option('--games <names>', 'all, or game names separated by commas', 'all')
    .option('--seed <n>', 'the seed to play each game with', '0')
    .option('--seeds <list>', 'several seeds, like 0,1,2 or 0-3 (adds each seed and the standard error)', '')
    .option('--jobs <n>', 'child processes to spread the (seed, game) runs over', wholeNumber('--jobs', 1), 1)
    .option('--save <file>', 'add each run to this file as it finishes; run again, play only the runs it lacks', '')
    .option('--prior <file>', 'a verb prior for `none` (see scripts/none-prior.ts) in place of the embedded one', '')
    .option('--suite <dir>', 'the Jericho suite folder', join(__dirname, '../../shared/jericho'))
    .option('--log', "write each game's commands and replies to stderr", false)
    .option('--searches-deeper', 'under probe, the search past two moves the agent does not play with (see searchAhead.ts)', false)
    .addOption(new Option('--child', 'serve runs to a parent process').hideHelp().default(false))
    .showHelpAfterError()
    // Thrown, not exited: main exits with commander's code once its message is out (0 after --help).
    .exitOverride()
    .parse([...argv])
    .opts<Omit<ExploreOptions, 'seeds'> & { seed: string; seeds: string }>();
  if (read.searchesDeeper && read.assist !== 'probe')
    throw new Error('bench:explore searches deeper only under --assist probe (it needs the probe)');
  const { seed, seeds, ...rest } = read;
  return { ...rest, suite: resolve(read.suite), seeds: parseSeeds(seeds, seed) };
}
