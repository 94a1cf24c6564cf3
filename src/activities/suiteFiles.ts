/**
 * A suite's results as files: `<data dir>/suites/<suite id>/results.json` and, per game,
 * `games/<game>/results.json`. Atomic and idempotent like every results file (files.ts): a retried
 * or replayed write puts the same bytes under the same name.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { describeZodError } from '../schemas/describe';
import { SuiteGameResultSchema, SuiteResult, SuiteResultSchema } from '../schemas/suite';
import { classified, parseInput } from './failures';
import { atomicWrite, ResultsFileError, safeName } from './files';

export const suiteDir = (dataDir: string, suiteId: string) => join(dataDir, 'suites', safeName(suiteId));
export const suiteResultsPath = (dataDir: string, suiteId: string) => join(suiteDir(dataDir, suiteId), 'results.json');
export const suiteGameResultsPath = (dataDir: string, suiteId: string, game: string) =>
  join(suiteDir(dataDir, suiteId), 'games', safeName(game), 'results.json');

const GameResultsInputSchema = z.object({ result: SuiteGameResultSchema });
const SuiteResultsInputSchema = z.object({ results: SuiteResultSchema.omit({ resultsPath: true }) });

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

/** A suite's results.json read back and checked; null when the suite has none (unknown id, or not finished). */
export function readSuiteResults(dataDir: string, suiteId: string): SuiteResult | null {
  const path = suiteResultsPath(dataDir, suiteId);
  if (!existsSync(path)) return null;
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ResultsFileError(path, err instanceof Error ? err.message : String(err));
  }
  const checked = SuiteResultSchema.safeParse(parsed);
  if (!checked.success) throw new ResultsFileError(path, describeZodError(checked.error));
  return checked.data;
}

export function createSuiteFileActivities(dataDir: string) {
  return {
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
      return classified(() => {
        const path = suiteResultsPath(dataDir, results.suiteId);
        atomicWrite(path, json({ ...results, resultsPath: path }), true);
        return path;
      });
    },
  };
}
