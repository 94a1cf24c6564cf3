import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { CampaignConfig, CampaignOptions, EpisodeOptions, resolveCampaignConfig, resolveEpisodeConfig } from '../src/schemas/episode';
import { EpisodeInput } from '../src/workflows/contract';
import { TurnRecord } from '../src/agent/records';
import { LearnedState } from '../src/agent/learned';

export const ROOT = resolve(__dirname, '..');

/**
 * A fresh folder for a test's files. Under jest it sits in the run's scratch folder
 * (test/scratchSetup.js), which is removed when the run ends, so a test run leaves nothing behind.
 */
export function scratchDir(prefix: string): string {
  return mkdtempSync(join(process.env.GRUE_TEST_SCRATCH ?? tmpdir(), `grue-${prefix}-`));
}

/** The CLI's entry point, as tests run it in a child process. */
export const GRUE = join(ROOT, 'bin', 'grue.js');
export const SHARED_GAMES = resolve(ROOT, '..', 'shared', 'games');
export const GAME_FILES = join(ROOT, 'game_files');

/**
 * Path to a story in ../shared/games, or null (with a note in the test log) when it is not there.
 * In CI a missing game is an error: a suite that skipped its Zork tests must not pass as green.
 */
export function sharedGame(file: string): string | null {
  const path = join(SHARED_GAMES, file);
  if (existsSync(path)) return path;
  if (process.env.CI)
    throw new Error(`${file} is missing at ${path}: CI runs with ../shared beside the clone (see ../shared/games/README.md).`);

  console.warn(`skipping tests that need ${file}: not found at ${path} (see ../shared/games/README.md)`);
  return null;
}

/** describe() when the shared story exists, describe.skip() with a logged reason otherwise. */
export function describeWithGame(file: string, name: string, fn: (path: string) => void): void {
  const path = sharedGame(file);
  if (path) describe(name, () => fn(path));
  else describe.skip(`${name} (needs ../shared/games/${file})`, () => it('skipped', () => undefined));
}

/** The Jericho suite (47 stories, suite.json, Jericho's traces) in ../shared/jericho. */
export const JERICHO_SUITE = resolve(ROOT, '..', 'shared', 'jericho');

/** describe() when ../shared/jericho holds suite.json; in CI its absence is an error, elsewhere a skip. */
export function describeWithSuite(name: string, fn: (suiteDir: string) => void): void {
  if (existsSync(join(JERICHO_SUITE, 'suite.json'))) {
    describe(name, () => fn(JERICHO_SUITE));
    return;
  }
  if (process.env.CI) throw new Error(`The Jericho suite is missing at ${JERICHO_SUITE}: CI runs with ../shared beside the clone.`);

  console.warn(`skipping tests that need the Jericho suite: not found at ${JERICHO_SUITE}`);
  describe.skip(`${name} (needs ../shared/jericho)`, () => it('skipped', () => undefined));
}

/**
 * Path to a story of the Jericho suite, or null (with a note in the test log) when it is not there.
 * In CI a missing story is an error: a suite that skipped its tests must not pass as green.
 */
export function jerichoStory(file: string): string | null {
  const path = join(JERICHO_SUITE, file);
  if (existsSync(path)) return path;
  if (process.env.CI) {
    throw new Error(`${file} is missing at ${path}: CI runs with ../shared beside the clone (see ../shared/jericho/README.md).`);
  }

  console.warn(`skipping tests that need ${file}: not found at ${path} (see ../shared/jericho/README.md)`);
  return null;
}

/** describe() when the suite's story exists, describe.skip() with a logged reason otherwise. */
export function describeWithJerichoStory(file: string, name: string, fn: (path: string) => void): void {
  const path = jerichoStory(file);
  if (path) describe(name, () => fn(path));
  else describe.skip(`${name} (needs ../shared/jericho/${file})`, () => it('skipped', () => undefined));
}

export { ZORK_ROUTE } from '../bench/routes';

/**
 * An episode workflow's argument with every default resolved, as the CLI resolves it. Tests play
 * the oracle-free policy unless they say otherwise: they test the platform, not the LLM.
 */
export function episodeInput(options: EpisodeOptions, learned?: LearnedState): EpisodeInput {
  return { config: resolveEpisodeConfig({ policy: 'oracle-free', ...options }), ...(learned ? { learned } : {}) };
}

export function campaignInput(options: CampaignOptions): CampaignConfig {
  return resolveCampaignConfig({ policy: 'oracle-free', ...options });
}

/**
 * Turn records without their timing (elapsedMs): what two runs of the same input must agree on.
 * Wall-clock time differs between runs (a crashed worker's turn waits for its timeout), decisions do not.
 */
export function withoutTimings(turns: TurnRecord[]): Array<Omit<TurnRecord, 'elapsedMs'>> {
  return turns.map(({ elapsedMs: _elapsedMs, ...decided }) => decided);
}
