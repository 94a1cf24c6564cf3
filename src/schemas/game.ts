/**
 * What crosses the game activity boundary. Workflow and activities share these schemas; types
 * come from them, so the two sides can never disagree about a field.
 */
import { z } from 'zod';

export const PlaceSchema = z.object({ id: z.number().int(), name: z.string() });

export const GroundTruthSchema = z.object({
  score: z.number().int(),
  moves: z.number().int(),
  location: PlaceSchema,
  inventory: z.array(PlaceSchema),
  done: z.boolean(),
  victory: z.boolean(),
  died: z.boolean(),
});
export type GroundTruthData = z.infer<typeof GroundTruthSchema>;

/** A valid action as the policy sees it: what it does, found by trying it (Jericho's method). */
export const ActionOptionSchema = z.object({
  command: z.string(),
  /** World hash after the command: novelty without another game step. */
  resultHash: z.string(),
  scoreDelta: z.number().int(),
  outcome: z.enum(['continue', 'died', 'won', 'ended']),
});
export type ActionOption = z.infer<typeof ActionOptionSchema>;

/** A game named by the user: a path or a bundled name; resolved on the worker. */
export const GameRefSchema = z.string().min(1, 'game must name a story file or a bundled game').max(1024);

export const StartGameInputSchema = z.object({
  game: GameRefSchema,
  seed: z.number().int(),
  validActions: z.boolean().default(true),
});
export type StartGameInput = z.input<typeof StartGameInputSchema>;

export const StepGameInputSchema = z.object({
  game: GameRefSchema,
  /** md5 of the story the snapshot belongs to: a worker with a different file refuses. */
  storyMd5: z.string().regex(/^[0-9a-f]{32}$/),
  /** Compressed engine snapshot, base64. */
  snapshot: z.string().min(1),
  command: z.string(),
  validActions: z.boolean().default(true),
});
export type StepGameInput = z.input<typeof StepGameInputSchema>;

export const GameStateSchema = z.object({
  observation: z.string(),
  truth: GroundTruthSchema,
  worldHash: z.string(),
  snapshot: z.string(),
  options: z.array(ActionOptionSchema),
});
export type GameState = z.infer<typeof GameStateSchema>;

/** A step's result names the command the engine actually ran: learning uses it, not a recomputed one. */
export const StepGameResultSchema = GameStateSchema.extend({ command: z.string() });
export type StepGameResult = z.infer<typeof StepGameResultSchema>;

export const StartGameResultSchema = GameStateSchema.extend({
  storyMd5: z.string(),
  storyName: z.string(),
  maxScore: z.number().int().nullable(),
});
export type StartGameResult = z.infer<typeof StartGameResultSchema>;
