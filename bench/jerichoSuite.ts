/**
 * The Jericho game suite as ../shared/jericho/suite.json describes it, and one game's walkthrough
 * played on grue's engine: does the story load, and does every command run without a VM fault?
 * Used by scripts/check-jericho-suite.ts (all games) and the engine tests (single games).
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { EngineError, GameSession } from '../src/engine';

export const JERICHO_SUITE_DIR = resolve(__dirname, '..', '..', 'shared', 'jericho');

const SuiteEntrySchema = z.object({
  game: z.string(),
  file: z.string(),
  zversion: z.number().int(),
  /** Null for lgop, which Jericho does not support: it is played (an empty walkthrough) with seed 0. */
  seed: z.number().int().nullable(),
  maxScore: z.number(),
  walkthroughScore: z.number().nullable().optional(),
  resetCommands: z.array(z.string()),
  walkthrough: z.array(z.string()),
});
export type SuiteEntry = z.infer<typeof SuiteEntrySchema>;

export function readSuite(dir = JERICHO_SUITE_DIR): SuiteEntry[] {
  return z.array(SuiteEntrySchema).parse(JSON.parse(readFileSync(join(dir, 'suite.json'), 'utf8')));
}

export function suiteEntry(game: string, dir = JERICHO_SUITE_DIR): SuiteEntry {
  const entry = readSuite(dir).find((e) => e.game === game);
  if (!entry) throw new Error(`${game} is not in ${join(dir, 'suite.json')}.`);
  return entry;
}

export interface SuiteFault {
  /** Index in the walkthrough, or -1 for the reset commands, or null when loading failed. */
  step: number | null;
  command: string | null;
  code: string;
  message: string;
}

export interface SuiteRun {
  game: string;
  loaded: boolean;
  /** Walkthrough commands that ran (the game may end before the walkthrough does). */
  steps: number;
  score: number | null;
  walkthroughScore: number | null;
  /** The walkthrough index after which the game ended (death, victory or @quit) with commands still to play, else null. */
  endedAfter: number | null;
  fault: SuiteFault | null;
  elapsedMs: number;
}

function describe(err: unknown): { code: string; message: string } {
  if (err instanceof EngineError) return { code: err.code, message: err.message };
  return { code: err instanceof Error ? err.name : 'THROWN', message: err instanceof Error ? err.message : String(err) };
}

/**
 * Load the game with its seed, play the reset commands and the walkthrough, and stop at the first
 * error. `onStep` sees every walkthrough step (its index and the session after it).
 */
export function playSuiteGame(
  entry: SuiteEntry,
  dir = JERICHO_SUITE_DIR,
  onStep?: (index: number, session: GameSession) => void,
): SuiteRun {
  const started = Date.now();
  const run: SuiteRun = {
    game: entry.game,
    loaded: false,
    steps: 0,
    score: null,
    walkthroughScore: entry.walkthroughScore ?? null,
    endedAfter: null,
    fault: null,
    elapsedMs: 0,
  };
  let session: GameSession;
  try {
    session = GameSession.fromFile(join(dir, entry.file), { seed: entry.seed ?? 0 });
  } catch (err) {
    run.fault = { step: null, command: null, ...describe(err) };
    run.elapsedMs = Date.now() - started;
    return run;
  }
  run.loaded = true;
  const commands = [
    ...entry.resetCommands.map((command) => ({ index: -1, command })),
    ...entry.walkthrough.map((command, index) => ({ index, command })),
  ];
  for (const { index, command } of commands) {
    if (session.isOver || session.isDone) {
      run.endedAfter = run.steps - 1;
      break;
    }
    try {
      session.step(command);
    } catch (err) {
      run.fault = { step: index, command, ...describe(err) };
      break;
    }
    if (index >= 0) {
      run.steps = index + 1;
      onStep?.(index, session);
    }
  }
  run.score = session.score;
  run.elapsedMs = Date.now() - started;
  return run;
}
