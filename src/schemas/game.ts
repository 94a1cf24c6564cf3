/**
 * What crosses the game activity boundary. Workflow and activities share these schemas; types
 * come from them, so the two sides can never disagree about a field.
 */
import { z } from 'zod';

/** What the engine tells the agent about the valid actions (see the episode config's `assist`). */
export const AssistSchema = z.enum(['probe', 'valid', 'none']);
export type Assist = z.infer<typeof AssistSchema>;

export const PlaceSchema = z.object({ id: z.number().int(), name: z.string() });

export const GroundTruthSchema = z.object({
  score: z.number().int(),
  moves: z.number().int(),
  location: PlaceSchema,
  /** What the player is inside of or on within the location (a bed, a car); absent when standing in the room. */
  within: PlaceSchema.optional(),
  inventory: z.array(PlaceSchema),
  done: z.boolean(),
  victory: z.boolean(),
  died: z.boolean(),
  /** The game asked its final question (RESTART, RESTORE or QUIT): nothing typed now is a move. Absent until then. */
  ended: z.literal(true).optional(),
});
export type GroundTruthData = z.infer<typeof GroundTruthSchema>;

/** What a cell is made of: object ids (a ground truth has them with names, which a cell does not read). */
type CellPlace = { id: number; name?: string };
export interface CellIds {
  location: CellPlace;
  within?: CellPlace;
  inventory: CellPlace[];
  score: number;
}

/**
 * A Go-Explore cell: where the player is (the room, and what holds them in it: `25@31` is in the
 * bed in room 25), what they carry and the score. Coarser than the world hash on purpose: opening
 * and closing a door makes new world states but never a new cell, so novelty counted in cells does
 * not chase toggles. The holder is part of it because from inside a bed or a car the room's exits
 * are not valid: a cell that hid it made getting out look like going nowhere.
 */
export function cellOf(truth: CellIds): string {
  const place = truth.within ? `${truth.location.id}@${truth.within.id}` : `${truth.location.id}`;
  return `${place}/${truth.inventory
    .map((i) => i.id)
    .sort((a, b) => a - b)
    .join(',')}/${truth.score}`;
}

/** A valid action as the policy sees it: what it does, found by trying it (Jericho's method). */
export const ActionOptionSchema = z.object({
  command: z.string(),
  /** World hash after the command: novelty without another game step. */
  resultHash: z.string(),
  scoreDelta: z.number().int(),
  outcome: z.enum(['continue', 'died', 'won', 'ended']),
  /** The cell (see cellOf) the command leads to. */
  resultCell: z.string(),
  /**
   * A move in a scene that changes only global variables (9:05's answers in the car): the object
   * tree, and so the step's own world hash, stays put, and resultHash also covers the globals.
   */
  scene: z.literal(true).optional(),
  /**
   * A short key of what the command does (its object operations and net change, see
   * ValidAction.effect): equal for commands that do the same thing, in whatever room. Absent in
   * states recorded before it was kept.
   */
  effect: z.string().optional(),
  /**
   * The best single move after this one and the points both make together, when that is more than
   * either alone (see lookAhead.ts); where the longer search ran (bench:explore's
   * `--searches-deeper`) and no two moves score, the move after this one on the shortest way to
   * points, the points and the way's length in `moves` (see searchAhead.ts). Absent when no such
   * move was found, and in states recorded before it was looked for.
   */
  ahead: z.object({ command: z.string(), scoreDelta: z.number().int(), moves: z.number().int().min(3).optional() }).optional(),
  /**
   * The game ends without a win this many idle turns after the command (see doom.ts): a death the
   * probe's single step does not show. Absent when idling goes on, and in states recorded before
   * it was looked for.
   */
  diesWithin: z.number().int().nonnegative().optional(),
});
export type ActionOption = z.infer<typeof ActionOptionSchema>;

/** A game named by the user: a path or a bundled name; resolved on the worker. */
export const GameRefSchema = z.string().min(1, 'game must name a story file or a bundled game').max(1024);

export const StartGameInputSchema = z.object({
  game: GameRefSchema,
  seed: z.number().int(),
  assist: AssistSchema.default('probe'),
  /** Played before the first turn (see EpisodeConfig.openingCommands). */
  openingCommands: z.array(z.string().max(200)).max(50).default([]),
});
export type StartGameInput = z.input<typeof StartGameInputSchema>;

export const StepGameInputSchema = z.object({
  game: GameRefSchema,
  /** md5 of the story the snapshot belongs to: a worker with a different file refuses. */
  storyMd5: z.string().regex(/^[0-9a-f]{32}$/),
  /** Compressed engine snapshot, base64. */
  snapshot: z.string().min(1),
  command: z.string(),
  assist: AssistSchema.default('probe'),
});
export type StepGameInput = z.input<typeof StepGameInputSchema>;

/**
 * What the story file tells a player without the valid-action list (`none`): its movement words
 * and its grammar's command shapes, `$` standing for an object ("open $", "put $ in $").
 */
export const LexiconSchema = z.object({
  directions: z.array(z.string()),
  templates: z.array(z.string()),
});
export type Lexicon = z.infer<typeof LexiconSchema>;

export const GameStateSchema = z.object({
  observation: z.string(),
  truth: GroundTruthSchema,
  worldHash: z.string(),
  snapshot: z.string(),
  /** The valid actions with what each would do: only under the `probe` assist. */
  options: z.array(ActionOptionSchema),
  /** The valid-action list without outcomes: only under the `valid` assist (Jericho's handicap). */
  commands: z.array(z.string()),
  /** The reply's words the story's dictionary knows as nouns: only under the `none` assist. */
  nouns: z.array(z.string()).optional(),
  /** The game waits for a single key (a menu, "press any key"), not a command: absent when it does not. */
  waitsForKey: z.literal(true).optional(),
});
export type GameState = z.infer<typeof GameStateSchema>;

/** A step's result names the command the engine actually ran: learning uses it, not a recomputed one. */
export const StepGameResultSchema = GameStateSchema.extend({ command: z.string() });
export type StepGameResult = z.infer<typeof StepGameResultSchema>;

/** What the `none` explorer's shape prior makes of a story's shapes (see agent/verbPrior.ts). */
export const ShapeWorthSchema = z.object({
  worth: z.record(z.string(), z.number()),
  /** The worth of a shape the prior never saw. */
  unknownWorth: z.number(),
});
export type ShapeWorth = z.infer<typeof ShapeWorthSchema>;

export const StartGameResultSchema = GameStateSchema.extend({
  storyMd5: z.string(),
  storyName: z.string(),
  maxScore: z.number().int().nullable(),
  /** The story's movement words and command shapes: only under the `none` assist. */
  lexicon: LexiconSchema.optional(),
  /** The prior's worth of the lexicon's shapes: only under `none`. In the history, so a replay plays the prior the run played. */
  shapeWorth: ShapeWorthSchema.optional(),
});
export type StartGameResult = z.infer<typeof StartGameResultSchema>;
