/**
 * `grue suite`'s input, checked before anything starts: the suite folder's suite.json, the games
 * chosen, each story loaded once (cheaply: its header), the setting, and every game's complete
 * campaign config. The workflow id is a hash of that input, so the same command finds the same run.
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { EngineError } from '../engine/errors';
import { describeZodError } from '../schemas/describe';
import { resolveCampaignConfig } from '../schemas/episode';
import { SuiteFileSchema, SuiteGame } from '../schemas/jerichoSuite';
import { NamedSettingSchema, SettingName, settingNameOf, SUITE_SETTINGS, SuiteInput, SuiteInputSchema } from '../schemas/suite';
import { resolved, UsageError } from './args';
import { episodeOptions, RunOptions } from './play';

export interface SuiteOptions extends RunOptions {
  setting?: string;
  episodes?: number;
  steps?: number;
  parallel?: number;
  games?: string;
}

/** The default suite folder: the Jericho suite beside the clone, as the project's machines keep it. */
export const DEFAULT_SUITE_DIR = join('..', 'shared', 'jericho');

/** The games of a suite folder's suite.json; a missing or unreadable file is a usage error. */
export function readSuiteFolder(dir: string): SuiteGame[] {
  const path = join(dir, 'suite.json');
  if (!existsSync(path)) throw new UsageError(`no suite.json in ${dir}: name a suite folder (one with a suite.json listing its games).`);
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new UsageError(`${path} is not JSON: ${(err as Error).message}`);
  }
  const parsed = SuiteFileSchema.safeParse(json);
  if (!parsed.success) throw new UsageError(`${path} is not a suite file: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/** The games named by --games (comma-separated), in the suite's order; all of them without it. */
export function selectGames(games: SuiteGame[], list: string | undefined, dir: string): SuiteGame[] {
  if (list === undefined) return games;
  const names = list
    .split(',')
    .map((n) => n.trim())
    .filter(Boolean);
  if (!names.length) throw new UsageError('--games must name at least one game.');
  const unknown = names.filter((name) => !games.some((g) => g.game === name));
  if (unknown.length)
    throw new UsageError(
      `no game named ${unknown.map((n) => JSON.stringify(n)).join(', ')} in ${join(dir, 'suite.json')} ` +
        `(it has ${games.map((g) => g.game).join(', ')}).`,
    );
  return games.filter((g) => names.includes(g.game));
}

/** Episodes × steps from --setting, or from --episodes/--steps (named when they are a named setting's). */
export function suiteSetting(opts: SuiteOptions): { name: SettingName; episodes: number; steps: number } {
  if (opts.steps !== undefined && opts.maxTurns !== undefined && opts.steps !== opts.maxTurns)
    throw new UsageError(`--steps ${opts.steps} and --max-turns ${opts.maxTurns} disagree: give one (they are the same setting).`);
  const steps = opts.steps ?? opts.maxTurns;
  if (opts.setting !== undefined) {
    const named = NamedSettingSchema.safeParse(opts.setting);
    if (!named.success) throw new UsageError(`--setting must be one of ${NamedSettingSchema.options.join(', ')}, got "${opts.setting}".`);
    const fixed = SUITE_SETTINGS[named.data];
    if ((opts.episodes !== undefined && opts.episodes !== fixed.episodes) || (steps !== undefined && steps !== fixed.steps))
      throw new UsageError(
        `--setting ${named.data} is ${fixed.episodes} episode(s) × ${fixed.steps} steps: drop --episodes/--steps, or drop --setting.`,
      );
    return { name: named.data, ...fixed };
  }
  const episodes = opts.episodes ?? SUITE_SETTINGS.jericho.episodes;
  const chosen = { episodes, steps: steps ?? SUITE_SETTINGS.jericho.steps };
  return { name: settingNameOf(chosen), ...chosen };
}

/** A story that does not load is refused here, naming the game, before any workflow starts. */
function gameOptions(game: SuiteGame, dir: string, opts: SuiteOptions) {
  const path = resolve(dir, game.file);
  try {
    return episodeOptions(path, opts);
  } catch (err) {
    if (err instanceof EngineError) throw new UsageError(`game ${game.game} (${path}) does not load: ${err.message}`);
    throw err;
  }
}

export function suiteInput(dirArgument: string, opts: SuiteOptions): SuiteInput {
  const dir = resolve(dirArgument);
  const games = selectGames(readSuiteFolder(dir), opts.games, dir);
  const setting = suiteSetting(opts);
  const entries = games.map((game) => {
    const options = gameOptions(game, dir, opts);
    // Each game plays from the seed Jericho plays it with; --seed shifts every game's seed by that much.
    const seed = (game.seed ?? 0) + (opts.seed ?? 0);
    const campaign = resolved(
      () =>
        resolveCampaignConfig({
          ...options,
          seed,
          maxTurns: setting.steps,
          episodes: setting.episodes,
          parallel: 1,
          // Jericho's reset plays these before the first step; published results start after them.
          ...(game.resetCommands.length ? { openingCommands: game.resetCommands } : {}),
        }),
      `options for ${game.game}`,
    );
    return { name: game.game, maxScore: game.maxScore > 0 ? game.maxScore : null, campaign };
  });
  const first = entries[0].campaign;
  return resolved(
    () =>
      SuiteInputSchema.parse({
        suiteDir: dir,
        setting: {
          ...setting,
          assist: first.assist,
          policy: first.policy,
          model: first.model,
          ...(first.oracleBudget !== undefined ? { oracleBudget: first.oracleBudget } : {}),
        },
        parallel: opts.parallel ?? 1,
        games: entries,
      }),
    'suite options',
  );
}

/**
 * `grue-suite-jericho-valid-oracle-free-<hash>`: readable, and the same for the same input, so a
 * rerun of the same command attaches to the run it started instead of starting another.
 */
export function suiteWorkflowId(input: SuiteInput): string {
  const hash = createHash('sha256').update(JSON.stringify(input)).digest('hex').slice(0, 12);
  return `grue-suite-${input.setting.name}-${input.setting.assist}-${input.setting.policy}-${hash}`;
}

const names = (games: readonly { name: string }[]) => games.map((g) => g.name);

/** At most a few names, then how many more: an error line stays a line. */
function listed(items: string[]): string {
  return items.length <= 6 ? items.join(', ') : `${items.slice(0, 5).join(', ')} and ${items.length - 5} more`;
}

/**
 * How the run an id names differs from what this command asks for (its games, its setting, a
 * game's campaign: story, seed, options), or null when it plays the same. `--parallel` may differ:
 * the run keeps the one it was started with. With `--id` one can name a run started by another
 * command; following it silently would print and report games this command never asked for.
 */
export function startedInputDifference(started: SuiteInput, asked: SuiteInput): string | null {
  const before = names(started.games);
  const now = names(asked.games);
  const added = now.filter((name) => !before.includes(name));
  const dropped = before.filter((name) => !now.includes(name));
  if (added.length || dropped.length) {
    const parts = [
      `it plays ${before.length} games, this command ${now.length}`,
      ...(added.length ? [`not in it: ${listed(added)}`] : []),
      ...(dropped.length ? [`only in it: ${listed(dropped)}`] : []),
    ];
    return parts.join('; ');
  }
  if (JSON.stringify(started.setting) !== JSON.stringify(asked.setting))
    return `its setting is ${JSON.stringify(started.setting)}, this command's ${JSON.stringify(asked.setting)}`;
  const changed = asked.games.filter((game) => {
    const same = started.games.find((g) => g.name === game.name)!;
    return JSON.stringify(same.campaign) !== JSON.stringify(game.campaign) || same.maxScore !== game.maxScore;
  });
  if (changed.length) return `the games ${listed(names(changed))} are played with other options (story path, seed or agent options)`;
  return null;
}
