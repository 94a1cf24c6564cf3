/**
 * Per-game ground-truth bindings, keyed by the story file's md5 (Jericho's approach), kept as data:
 * game_files/bindings/*.binding.json (one per game Jericho 3.3.1 supports, read from its C source,
 * plus grue's own), and game_files/*.binding.json (the project's test games, written by
 * `npm run games:build`). A user binds a game of their own with the same files or registerBinding().
 *
 * Version-3 games that show a score need none: the status line lives in globals 0-2 by the
 * standard. A binding adds what cannot be read generically: the player object, where a game keeps
 * its score and moves, the maximum score, the texts that mean death or victory, and the objects and
 * attributes that change on their own (daemons, parser scratch bits) and must not count as changes
 * to the world. Without one, ground truth is found as well as the game allows (see groundTruth.ts).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { GAME_FILES_DIR } from '../paths';

const addr = z.number().int().min(0);

/**
 * Where a number lives. Jericho reads a game's score and moves from RAM as 16-bit words or single
 * bytes (often the low byte of a global), signed or not; a few games keep no score in memory.
 */
export const NumberSourceSchema = z.discriminatedUnion('kind', [
  /** A global variable (a 16-bit word). */
  z.object({
    kind: z.literal('global'),
    index: z.number().int().min(0).max(239),
    offset: z.number().int().default(0),
    signed: z.boolean().default(true),
  }),
  /** A 16-bit word at a RAM address. */
  z.object({ kind: z.literal('ram'), addr, offset: z.number().int().default(0), signed: z.boolean().default(true) }),
  /** One byte at a RAM address. */
  z.object({ kind: z.literal('byte'), addr, offset: z.number().int().default(0), signed: z.boolean().default(false) }),
  /** A score that is 0 until the victory text appears, then `value` (9:05, and other games without a score). */
  z.object({ kind: z.literal('victory'), value: z.number().int() }),
  /** A number the game draws on its status line only: the first group of `pattern`, times `scale`. */
  z.object({
    kind: z.literal('status'),
    pattern: z.string().refine(isRegExpWithGroup, 'must be a regular expression with one capturing group'),
    scale: z.number().int().default(1),
  }),
]);
export type NumberSource = z.infer<typeof NumberSourceSchema>;

function isRegExpWithGroup(pattern: string): boolean {
  try {
    return new RegExp(`${pattern}|`).exec('')!.length > 1;
  } catch {
    return false;
  }
}

/** An attribute change Jericho's world diff leaves out: of one object, one attribute, one pair, or (both absent) any. */
const AttributeChangeSchema = z.object({
  object: z.number().int().positive().optional(),
  attribute: z.number().int().min(0).max(47).optional(),
});

export const GameBindingSchema = z.object({
  name: z.string().min(1),
  md5: z.string().regex(/^[0-9a-f]{32}$/),
  /** Where the facts come from: a source file and the functions read, or how they were measured. */
  source: z.string().min(1).optional(),
  /** The file name the story is distributed under (Jericho's rom name), for finding it and for messages. */
  storyFile: z.string().min(1).optional(),
  /** Commands Jericho's reset plays before the game proper ("" is a key press or an empty line). */
  resetCommands: z.array(z.string()).default([]),
  playerObject: z.number().int().positive().optional(),
  /**
   * The room: the game's location global (global 0, Infocom's HERE), or the object holding the
   * player, climbed out of vehicles and containers. Either way `within` is what directly holds the
   * player when that is not the room, so the player's parent (what Jericho reports) is within ?? location.
   */
  location: z.enum(['global0', 'playerParent']).default('global0'),
  score: NumberSourceSchema.default({ kind: 'global', index: 1, offset: 0, signed: true }),
  moves: NumberSourceSchema.default({ kind: 'global', index: 2, offset: 0, signed: true }),
  maxScore: z.number().int().nonnegative().optional(),
  deathTexts: z.array(z.string().min(1)).default([]),
  victoryTexts: z.array(z.string().min(1)).default([]),
  ignoreObjects: z.array(z.number().int().positive()).default([]),
  ignoreAttributes: z.array(z.number().int().min(0).max(47)).default([]),
  /** [object, attribute] pairs to ignore, e.g. a player flag the game flips on every turn. */
  ignoreObjectAttributes: z.array(z.tuple([z.number().int().positive(), z.number().int().min(0).max(47)])).default([]),
  /**
   * Left out of the world state's hash but not of a command's effects (what Jericho's
   * clean_world_objs strips before hashing, while its world diff still counts it): a wandering
   * janitor, a touch bit. A command whose only effect is on these is still a valid action.
   */
  hashOnlyObjects: z.array(z.number().int().positive()).default([]),
  hashOnlyAttributes: z.array(z.number().int().min(0).max(47)).default([]),
  /** RAM bytes whose change counts as a change to the world though no object moves (a spell said, a bear fed). */
  watchRam: z.array(z.number().int().min(64)).default([]),
  // What Jericho's world diff leaves out that the fields above cannot say: one-way rules, read by
  // the valid-action search (the record it groups by and each command's net change), not by the
  // world state's hash.
  /** Attribute changes ignored only when the attribute is set. */
  ignoreWhenSet: z.array(AttributeChangeSchema).default([]),
  /** Attribute changes ignored only when the attribute is cleared. */
  ignoreWhenCleared: z.array(AttributeChangeSchema).default([]),
  /** Moves into these objects are ignored (a limbo the game parks things in). */
  ignoreMovesInto: z.array(z.number().int().positive()).default([]),
  /** Only moves of this object, or into it, count (Lost Pig: the player and what it takes). */
  onlyMovesOfOrInto: z.number().int().positive().optional(),
});
export type GameBinding = z.infer<typeof GameBindingSchema>;
export type GameBindingInput = z.input<typeof GameBindingSchema>;

/** A binding file that cannot be used: says which file and what is wrong with it. */
export class GameBindingError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'GameBindingError';
  }
}

/** How grue reads ground truth for a game, and how sure it is. */
export type GroundTruthMode =
  /** A binding for this exact story file. */
  | 'binding'
  /**
   * A version-3 game: location, score and moves from the status-line globals, as the standard
   * defines. A game whose status line shows the time (Flags 1 bit 1) keeps hours and minutes
   * there instead: its score and moves are the ones the probe finds (see groundTruthProbe.ts), or 0.
   */
  | 'status-line'
  /**
   * Degraded mode, for a v4+ game without a binding: score and moves are the globals the probe
   * finds the game's SCORE command printing, else read from the status line the game draws
   * ("Score: 5  Moves: 12"; 0 when it shows neither); the player is found by experiment or guessed
   * by name; the location is the room that holds the player, or else the status line's left part.
   * Victory and death are recognised by the standard end-of-game banners.
   */
  | 'degraded';

/** Texts the Inform library and Infocom games print when the story ends. */
export const GENERIC_DEATH_TEXTS = ['*** You have died ***', '****  You have died  ****'];
export const GENERIC_VICTORY_TEXTS = ['*** You have won ***', '****  You have won  ****'];

/** Inform library attribute 0 ("animate"), declared first by the library: what a `creature` token looks for. */
export const INFORM_ANIMATE_ATTRIBUTE = 0;

/** Inform library attribute 25 ("workflag") is scratch space the parser flips while it reads a command. */
export const INFORM_WORKFLAG_ATTRIBUTE = 25;

/** Folders whose *.binding.json files are loaded at start-up: the project's test games, then every other game's. */
export const BINDING_DIRS = [GAME_FILES_DIR, join(GAME_FILES_DIR, 'bindings')];

const registry = new Map<string, GameBinding>();
const origins = new Map<string, string>();
for (const dir of BINDING_DIRS) loadBindingFiles(dir);

/** Read and validate one binding file. */
export function readBindingFile(path: string): GameBinding {
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new GameBindingError(`Cannot read game binding ${path}: ${err instanceof Error ? err.message : String(err)}`);
  }
  const parsed = GameBindingSchema.safeParse(json);
  if (!parsed.success) {
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new GameBindingError(`Invalid game binding ${path}: ${issues}`);
  }
  return parsed.data;
}

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
    const binding = readBindingFile(path);
    const earlier = origins.get(binding.md5);
    if (earlier && earlier !== path) {
      throw new GameBindingError(`Game bindings ${earlier} and ${path} are both for the story with md5 ${binding.md5}; keep one.`);
    }
    registry.set(binding.md5, binding);
    origins.set(binding.md5, path);
    return binding;
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
