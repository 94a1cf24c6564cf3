/**
 * A suite's results as files: `<data dir>/suites/<suite id>/results.json` and, per game,
 * `games/<game>/results.json`. Atomic and idempotent like every results file (files.ts): a retried
 * or replayed write puts the same bytes under the same name.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { log } from '../log';
import { SuiteGameResult, SuiteGameResultSchema, SuiteResult, SuiteResultSchema, SuiteSettingSchema } from '../schemas/suite';
import { classified, parseInput } from './failures';
import { atomicWrite, readResults, ResultsFileError, safeName } from './files';

export const suiteDir = (dataDir: string, suiteId: string) => join(dataDir, 'suites', safeName(suiteId));
export const suiteResultsPath = (dataDir: string, suiteId: string) => join(suiteDir(dataDir, suiteId), 'results.json');
export const suiteGameResultsPath = (dataDir: string, suiteId: string, game: string) =>
  join(suiteDir(dataDir, suiteId), 'games', safeName(game), 'results.json');

const GameResultsInputSchema = z.object({ result: SuiteGameResultSchema });
const SuiteResultsInputSchema = z.object({ results: SuiteResultSchema.omit({ resultsPath: true }) });

const EarlierGameResultsInputSchema = z.object({
  suiteId: z.string(),
  game: z.string(),
  seed: z.number().int(),
  setting: SuiteSettingSchema,
});

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** Writes a suite's results.json (atomic, idempotent) and returns the results with the path they were written to. */
export function writeSuiteResultsFile(dataDir: string, results: Omit<SuiteResult, 'resultsPath'>): SuiteResult {
  const path = suiteResultsPath(dataDir, results.suiteId);
  const written = { ...results, resultsPath: path };
  atomicWrite(path, json(written), true);
  return written;
}

/** A suite's results.json read back and checked; null when the suite has none (unknown id, or not finished). */
export const readSuiteResults = (dataDir: string, suiteId: string): SuiteResult | null =>
  readResults(suiteResultsPath(dataDir, suiteId), SuiteResultSchema);

/**
 * A game's results.json as an earlier run of the same suite id wrote it, when it can stand for this
 * run's: finished (a failed game plays again), same seed, same setting. The server's history is what
 * makes a suite durable; this is for when that history is gone (a dev server's database deleted, a
 * run moved to another server), so the games already played are not played again. A file that cannot
 * be read, or was written for another setting, is said on stderr and the game is played again (its
 * write keeps the old file as a backup).
 */
export function readEarlierGameResults(
  dataDir: string,
  { suiteId, game, seed, setting }: z.infer<typeof EarlierGameResultsInputSchema>,
): SuiteGameResult | null {
  const path = suiteGameResultsPath(dataDir, suiteId, game);
  let earlier: SuiteGameResult | null;
  try {
    earlier = readResults(path, SuiteGameResultSchema);
  } catch (err) {
    if (!(err instanceof ResultsFileError)) throw err;
    log(`${err.message}; ${game} is played again`);
    return null;
  }
  if (earlier === null || earlier.status !== 'done') return null;
  if (earlier.suiteId !== suiteId || earlier.game !== game || earlier.seed !== seed || json(earlier.setting) !== json(setting)) {
    log(`${path} was written for another run (seed ${earlier.seed}, setting ${JSON.stringify(earlier.setting)}); ${game} is played again`);
    return null;
  }
  return earlier;
}

export function createSuiteFileActivities(dataDir: string) {
  return {
    /** A finished game's results from an earlier run of this suite id (see readEarlierGameResults), or null. */
    async readEarlierSuiteGameResults(raw: z.input<typeof EarlierGameResultsInputSchema>): Promise<SuiteGameResult | null> {
      const asked = parseInput(EarlierGameResultsInputSchema, raw, 'readEarlierSuiteGameResults input');
      return classified(() => readEarlierGameResults(dataDir, asked));
    },

    /** One game's results.json, written as soon as its campaign ends (or fails). */
    async writeSuiteGameResults(raw: z.input<typeof GameResultsInputSchema>): Promise<string> {
      const { result } = parseInput(GameResultsInputSchema, raw, 'writeSuiteGameResults input');
      return classified(() => {
        const path = suiteGameResultsPath(dataDir, result.suiteId, result.game);
        atomicWrite(path, json(result), true);
        return path;
      });
    },

    /** The suite's results.json: its summary and every game's result. */
    async writeSuiteResults(raw: z.input<typeof SuiteResultsInputSchema>): Promise<string> {
      const { results } = parseInput(SuiteResultsInputSchema, raw, 'writeSuiteResults input');
      return classified(() => writeSuiteResultsFile(dataDir, results).resultsPath);
    },
  };
}
