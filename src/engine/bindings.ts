/**
 * Per-game ground-truth bindings, keyed by the story file's md5 (Jericho's approach).
 *
 * Version-3 games need none: the status line lives in globals 0-2 by the standard. Inform games
 * of any version follow the library's convention of keeping location, score and turns in the
 * same three globals, which is what the degraded mode uses for an unknown v5/v8 game. A binding
 * adds what cannot be read generically: the player object, where a non-standard game keeps its
 * score and moves, the maximum score, the texts that mean death or victory, and the objects and
 * attributes that change on their own (daemons, parser scratch bits) and must not count as
 * changes to the world.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { GAME_FILES_DIR } from '../paths';

/** Where a number lives: a global variable, or a 16-bit word at a RAM address. */
export const NumberSourceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('global'), index: z.number().int().min(0).max(239), offset: z.number().int().default(0) }),
  z.object({ kind: z.literal('ram'), addr: z.number().int().min(0), offset: z.number().int().default(0) }),
  /** Score that is only ever 0 until the victory text appears (9:05). */
  z.object({ kind: z.literal('victory'), value: z.number().int() }),
]);
export type NumberSource = z.infer<typeof NumberSourceSchema>;

export const GameBindingSchema = z.object({
  name: z.string().min(1),
  md5: z.string().regex(/^[0-9a-f]{32}$/),
  playerObject: z.number().int().positive().optional(),
  location: z.enum(['global0', 'playerParent']).default('global0'),
  score: NumberSourceSchema.default({ kind: 'global', index: 1, offset: 0 }),
  moves: NumberSourceSchema.default({ kind: 'global', index: 2, offset: 0 }),
  maxScore: z.number().int().nonnegative().optional(),
  deathTexts: z.array(z.string().min(1)).default([]),
  victoryTexts: z.array(z.string().min(1)).default([]),
  ignoreObjects: z.array(z.number().int().positive()).default([]),
  ignoreAttributes: z.array(z.number().int().min(0).max(47)).default([]),
  /** [object, attribute] pairs to ignore, e.g. a player flag the game flips on every turn. */
  ignoreObjectAttributes: z.array(z.tuple([z.number().int().positive(), z.number().int().min(0).max(47)])).default([]),
  /** RAM bytes whose change counts as a change to the world though no object moves (a spell said, a bear fed). */
  watchRam: z.array(z.number().int().min(64)).default([]),
});
export type GameBinding = z.infer<typeof GameBindingSchema>;
export type GameBindingInput = z.input<typeof GameBindingSchema>;

/** How grue reads ground truth for a game, and how sure it is. */
export type GroundTruthMode =
  /** A binding for this exact story file. */
  | 'binding'
  /** A version-3 game: location, score and moves from the status-line globals, as the standard defines. */
  | 'status-line'
  /**
   * Degraded mode, for a v4+ game without a binding: score and moves are read from the status
   * line the game draws ("Score: 5  Moves: 12"; 0 when it shows neither), the player is guessed
   * by name ("yourself"), the location is the room that holds the player, or else the status
   * line's left part. Victory and death are recognised by the standard end-of-game banners.
   */
  | 'degraded';

/** Texts the Inform library and Infocom games print when the story ends. */
export const GENERIC_DEATH_TEXTS = ['*** You have died ***', '****  You have died  ****'];
export const GENERIC_VICTORY_TEXTS = ['*** You have won ***', '****  You have won  ****'];

/** Inform library attribute 25 ("workflag") is scratch space the parser flips while it reads a command. */
export const INFORM_WORKFLAG_ATTRIBUTE = 25;

const KNOWN: GameBindingInput[] = [
  {
    name: 'Zork I (r119/s880429)',
    md5: '1d4606016ea58ee038da53d994392323',
    playerObject: 44,
    maxScore: 350,
    deathTexts: ['****  You have died  ****'],
    victoryTexts: ['Inside the Barrow'],
    // The thief (object 164 in r119) wanders on his own; attribute 3 (TOUCHBIT) is set by merely looking.
    ignoreObjects: [164],
    ignoreAttributes: [3],
    // The player's attribute 12 flips with ordinary actions (Jericho ignores it too).
    ignoreObjectAttributes: [[44, 12]],
  },
  {
    name: '9:05 (r1/s120724)',
    md5: '4c5067169b834d247a30bb08d1039896',
    playerObject: 28,
    location: 'playerParent',
    // 9:05 tracks clock time, not a score: the_time lives at 4295 and starts at 9:05 (545 minutes).
    score: { kind: 'victory', value: 1 },
    moves: { kind: 'ram', addr: 4295, offset: -545 },
    maxScore: 1,
    deathTexts: ['*** You have died ***'],
    victoryTexts: ['*** You have left Las Mesas ***'],
    ignoreAttributes: [INFORM_WORKFLAG_ATTRIBUTE],
  },
  {
    name: 'Adventure (Inform, r9/s060321)',
    md5: 'ee2242e155fd8910921b0f8e04019a3a',
    playerObject: 20,
    location: 'playerParent',
    score: { kind: 'ram', addr: 15371, offset: 0 },
    moves: { kind: 'ram', addr: 15361, offset: 0 },
    maxScore: 350,
    deathTexts: ['Do you want me to try to reincarnate you?', '*** You have died ***'],
    victoryTexts: ['*** You have won ***'],
    ignoreAttributes: [INFORM_WORKFLAG_ATTRIBUTE],
    // The game's own progress flags (Jericho's special RAM for this release): dragon killed,
    // plant watered, bear fed, bear following, and the FEE FIE FOE FOO count.
    watchRam: [15198, 15191, 15287, 15282, 15642],
  },
];

const registry = new Map<string, GameBinding>();
for (const b of KNOWN) registerBinding(b);
loadBindingFiles(GAME_FILES_DIR);

/** Register every `*.binding.json` in a folder (the project's own games, or a user's). Bad files fail loudly. */
export function loadBindingFiles(dir: string): GameBinding[] {
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.binding.json'));
  } catch {
    return [];
  }
  return files.sort().map((f) => {
    const path = join(dir, f);
    const parsed = GameBindingSchema.safeParse(JSON.parse(readFileSync(path, 'utf8')));
    if (!parsed.success) throw new Error(`Invalid game binding ${path}: ${parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ')}`);
    registry.set(parsed.data.md5, parsed.data);
    return parsed.data;
  });
}

/** Add or replace a binding (validated). Users can bind their own games the same way. */
export function registerBinding(input: GameBindingInput): GameBinding {
  const binding = GameBindingSchema.parse(input);
  registry.set(binding.md5, binding);
  return binding;
}

export function bindingFor(md5: string): GameBinding | undefined {
  return registry.get(md5);
}

export function knownBindings(): GameBinding[] {
  return [...registry.values()];
}
