/**
 * bench:explore's runs kept as each finishes (`--save FILE`): one JSON line per (seed, game). A
 * campaign row takes hours (ten episodes a game at `valid`), longer than a work session; run again
 * with the same file, bench:explore reads what was played and plays only what is missing, so a
 * row stopped by a crash or the end of a session loses at most the games then in play.
 */
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';

export const GameRunSchema = z.object({
  game: z.string(),
  maxScore: z.number(),
  /** The score the episode ended with (the episode's score, as a campaign counts it). */
  best: z.number(),
  /** The highest score reached during the episode. */
  peak: z.number(),
  normalised: z.number(),
  steps: z.number().int(),
  seconds: z.number(),
  /** Rooms the episode reached. */
  places: z.number().int(),
  /** Turns whose options held a move the probe shows leads to death a few idle turns later, beside others (see doom.ts). */
  doomedTurns: z.number().int(),
  fault: z.string().optional(),
  /** Each episode's final score, when the game was played as a campaign (`--episodes`). */
  finals: z.array(z.number()).optional(),
  /** How the episode ended (the last one's, in a campaign); absent in runs saved before it was kept. */
  died: z.boolean().optional(),
  won: z.boolean().optional(),
  /** A campaign's episodes, in order; absent in runs saved before they were kept. */
  episodes: z
    .array(z.object({ final: z.number(), peak: z.number(), steps: z.number().int(), died: z.boolean(), won: z.boolean() }))
    .optional(),
});
export type GameRun = z.infer<typeof GameRunSchema>;

/** What makes runs comparable: a saved run of other settings is not the same row. */
export const RunSettingsSchema = z.object({
  assist: z.string(),
  steps: z.number().int(),
  episodes: z.number().int(),
  prior: z.string(),
  /** `--searches-deeper`; absent when off. */
  searchesDeeper: z.literal(true).optional(),
});
export type RunSettings = z.infer<typeof RunSettingsSchema>;

const SavedRunSchema = z.object({ settings: RunSettingsSchema, seed: z.number().int(), game: z.string(), run: GameRunSchema });

export const savedKey = (seed: number, game: string) => `${seed}|${game}`;

/** Whether two runs were played with the same settings (the same row). */
export const sameSettings = (a: RunSettings, b: RunSettings) =>
  a.assist === b.assist &&
  a.steps === b.steps &&
  a.episodes === b.episodes &&
  a.prior === b.prior &&
  Boolean(a.searchesDeeper) === Boolean(b.searchesDeeper);

type SavedRun = z.infer<typeof SavedRunSchema>;

/** The saved runs of `file`, in its order; a last line cut short is left out with a warning, any other bad line is an error naming it. */
function savedLines(file: string, warn: (message: string) => void): { line: number; saved: SavedRun }[] {
  const lines = readFileSync(file, 'utf8').split('\n');
  return lines.flatMap((line, index) => {
    if (!line.trim()) return [];
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      const last = lines.slice(index + 1).every((rest) => !rest.trim());
      if (last) {
        warn(`${file}: line ${index + 1} was cut short and is left out (its game is played again)`);
        return [];
      }
      throw new Error(`${file}: line ${index + 1} is not JSON; remove the line or use another --save file`);
    }
    const saved = SavedRunSchema.safeParse(json);
    if (!saved.success) throw new Error(`${file}: line ${index + 1} is not a saved run: ${saved.error.issues[0]?.message}`);
    return [{ line: index + 1, saved: saved.data }];
  });
}

const otherSettings = (file: string, line: number, found: RunSettings, wanted: RunSettings) =>
  new Error(
    `${file}: line ${line} was played with ${JSON.stringify(found)}, not ${JSON.stringify(wanted)}; use another --save file for these settings`,
  );

/**
 * The runs `file` holds, by savedKey; none when it does not exist yet. A last line cut short (the
 * process stopped while writing it) is left out, with a warning; any other line that does not
 * read, or a run of other settings, is an error naming the line, since mixing rows would be wrong.
 */
export function readSaved(file: string, settings: RunSettings, warn: (message: string) => void): Map<string, GameRun> {
  const runs = new Map<string, GameRun>();
  if (!existsSync(file)) return runs;
  for (const { line, saved } of savedLines(file, warn)) {
    if (!sameSettings(saved.settings, settings)) throw otherSettings(file, line, saved.settings, settings);
    runs.set(savedKey(saved.seed, saved.game), saved.run);
  }
  return runs;
}

/** A save file read on its own (bench:saved-suite): its settings, which every line must share, and its runs at `seed`, in file order. */
export function readSavedFile(file: string, seed: number, warn: (message: string) => void): { settings: RunSettings; runs: GameRun[] } {
  if (!existsSync(file)) throw new Error(`${file} does not exist; it is what bench:explore --save FILE writes`);
  const lines = savedLines(file, warn);
  if (!lines.length) throw new Error(`${file} holds no finished run yet`);
  const settings = lines[0].saved.settings;
  for (const { line, saved } of lines)
    if (!sameSettings(saved.settings, settings)) throw otherSettings(file, line, saved.settings, settings);
  // A game saved twice (two commands on one file) counts once, its last line, as readSaved reads it.
  const byGame = new Map(lines.filter(({ saved }) => saved.seed === seed).map(({ saved }) => [saved.game, saved.run]));
  const runs = [...byGame.values()];
  if (!runs.length) throw new Error(`${file} holds no run at seed ${seed} (--seed)`);
  return { settings, runs };
}

/** Adds one finished run to `file` as a line of its own, creating the file if need be. */
export function appendSaved(file: string, settings: RunSettings, seed: number, run: GameRun): void {
  appendFileSync(file, `${JSON.stringify({ settings, seed, game: run.game, run })}\n`);
}
