/**
 * The knowledge module's schemas (seeds 000 + 002). Items are layered and carry the seed-002
 * metadata; the state holds the current turn window (seed 000's unit of update), the engine's
 * map, snapshots where facts can be checked, the persistent wisdom, and per-update metrics.
 */
import { z } from 'zod';
import { OracleUsageSchema } from '../../schemas/oracle';
import { MapStateSchema } from '../map';

/** Seed 002's four layers, highest first: the order retrieval sorts by and compression protects. */
export const LAYERS = ['META', 'PRINCIPLE', 'INTERFACE', 'IMPL'] as const;
export const LayerSchema = z.enum(LAYERS);
export type Layer = z.infer<typeof LayerSchema>;

export const SourceSchema = z.enum(['observation', 'engine-verified', 'wisdom']);

export const LIMITS = {
  text: 240,
  keyword: 40,
  keywords: 8,
  dependencies: 4,
  verifyCommands: 3,
  command: 80,
  expect: 120,
  /** Items one update may add or change. */
  itemsPerUpdate: 8,
  /** Items the base holds before the size limit is even looked at. */
  items: 120,
  wisdom: 8,
  /** Actions in a turn window (seed 000's max_actions_per_prompt is 50; the window travels in the carry). */
  windowActions: 20,
  /** Characters of a response kept in the window: one more than the formatter's 300, so its rule applies unchanged. */
  windowResponse: 301,
  deathsPerWindow: 5,
  /** Score changes an episode remembers for its wisdom. */
  scoreChanges: 20,
  anchors: 6,
  updates: 10,
} as const;

export const VerificationSchema = z.object({
  /** Commands that show the fact, run from a snapshot where it applies. */
  commands: z.array(z.string().min(1).max(LIMITS.command)).min(1).max(LIMITS.verifyCommands),
  /** Words the game's response to the last command should contain when the fact holds. */
  expect: z.string().min(1).max(LIMITS.expect),
});
export type Verification = z.infer<typeof VerificationSchema>;

export const KnowledgeItemSchema = z.object({
  id: z.string().regex(/^[kw]\d+$/),
  layer: LayerSchema,
  text: z.string().min(1).max(LIMITS.text),
  confidence: z.number().min(0).max(1),
  source: SourceSchema,
  /** For IMPL facts: how the engine can show it (null: nothing to replay). */
  verification: VerificationSchema.nullable(),
  keywords: z.array(z.string().min(1).max(LIMITS.keyword)).max(LIMITS.keywords),
  /** Ids of items this one relies on. */
  dependencies: z.array(z.string()).max(LIMITS.dependencies),
  /** The room where an IMPL fact applies, as the engine names it (null: not tied to a room). */
  room: z.string().nullable(),
  /** The turn it was last observed or verified to hold (episode-local; reset to 0 when carried). */
  lastSeenTrue: z.number().int().nonnegative(),
  /** The turn the engine last checked it (null: never this episode). */
  lastVerifiedTurn: z.number().int().nullable(),
});
export type KnowledgeItem = z.infer<typeof KnowledgeItemSchema>;

// ── the turn window (seed 000's _extract_turn_window_data) ─────────────────────────────────

export const WindowActionSchema = z.object({ turn: z.number().int(), action: z.string(), response: z.string(), location: z.string() });
export const DeathEventSchema = z.object({
  turn: z.number().int(),
  reason: z.string(),
  action: z.string(),
  location: z.string(),
  messages: z.array(z.string()).max(4),
});
export const ScoreChangeSchema = z.object({ turn: z.number().int(), from: z.number().int(), to: z.number().int() });
export const LocationChangeSchema = z.object({ turn: z.number().int(), from: z.string(), to: z.string() });

export const TurnWindowSchema = z.object({
  startTurn: z.number().int(),
  endTurn: z.number().int(),
  actions: z.array(WindowActionSchema).max(LIMITS.windowActions),
  deaths: z.array(DeathEventSchema).max(LIMITS.deathsPerWindow),
  scoreChanges: z.array(ScoreChangeSchema).max(LIMITS.windowActions),
  locationChanges: z.array(LocationChangeSchema).max(LIMITS.windowActions),
});
export type TurnWindow = z.infer<typeof TurnWindowSchema>;
export type DeathEvent = z.infer<typeof DeathEventSchema>;
export type ScoreChange = z.infer<typeof ScoreChangeSchema>;

// ── what the model answers ─────────────────────────────────────────────────────────────────

/**
 * One item as the model writes it: flat, every field required ('' or [] for "nothing"), because
 * the embedded model fills a JSON grammar that cannot leave a field out.
 */
export const ItemAnswerSchema = z.object({
  layer: LayerSchema.describe(
    'META: how to learn this game; PRINCIPLE: a stable rule; INTERFACE: a command form the parser accepts; IMPL: a concrete fact',
  ),
  text: z.string().min(3).max(LIMITS.text).describe('the fact or rule, with exact names of rooms and objects'),
  /** Not bounded here: a grammar cannot bound a number, so the merge clamps it to 0..1. */
  confidence: z.number().describe('0 to 1'),
  keywords: z.array(z.string().min(1).max(LIMITS.keyword)).max(LIMITS.keywords).describe('room and object names it is about'),
  room: z.string().max(60).describe("IMPL: the room where it holds, else ''"),
  verify_commands: z
    .array(z.string().min(1).max(LIMITS.command))
    .max(LIMITS.verifyCommands)
    .describe('IMPL: commands that show it, else []'),
  verify_expect: z.string().max(LIMITS.expect).describe("IMPL: words the game then prints, else ''"),
  replaces: z.string().max(8).describe("id of the existing item this updates (e.g. k3), else ''"),
});
export type ItemAnswer = z.infer<typeof ItemAnswerSchema>;

export const KnowledgeAnswerSchema = z.object({ items: z.array(ItemAnswerSchema).max(LIMITS.itemsPerUpdate) });
export type KnowledgeAnswer = z.infer<typeof KnowledgeAnswerSchema>;

export const WisdomAnswerSchema = z.object({
  insights: z
    .array(
      z.object({
        layer: z.enum(['META', 'PRINCIPLE']),
        text: z.string().min(3).max(LIMITS.text),
        keywords: z.array(z.string().min(1).max(LIMITS.keyword)).max(LIMITS.keywords),
      }),
    )
    .max(LIMITS.wisdom),
});
export type WisdomAnswer = z.infer<typeof WisdomAnswerSchema>;

// ── activity inputs and results ────────────────────────────────────────────────────────────

export const UpdateRequestSchema = z.object({
  game: z.string(),
  episode: z.number().int().nonnegative(),
  window: TurnWindowSchema,
  existing: z.array(KnowledgeItemSchema),
  wisdom: z.array(KnowledgeItemSchema),
  final: z.boolean(),
  seed: z.number().int(),
});
export type UpdateRequest = z.infer<typeof UpdateRequestSchema>;

export const UpdateResultSchema = z.object({ answer: KnowledgeAnswerSchema, usage: OracleUsageSchema, seconds: z.number().nonnegative() });
export type UpdateResult = z.infer<typeof UpdateResultSchema>;

export const VerifyRequestSchema = z.object({
  game: z.string(),
  storyMd5: z.string().regex(/^[0-9a-f]{32}$/),
  checks: z
    .array(z.object({ id: z.string(), snapshot: z.string().min(1), verification: VerificationSchema }))
    .min(1)
    .max(4),
});
export type VerifyRequest = z.infer<typeof VerifyRequestSchema>;

export const VerifyResultSchema = z.object({
  results: z.array(z.object({ id: z.string(), passed: z.boolean(), response: z.string() })),
});
export type VerifyResult = z.infer<typeof VerifyResultSchema>;

export const EpisodeSummarySchema = z.object({
  turns: z.number().int(),
  score: z.number().int(),
  maxScore: z.number().int().nullable(),
  died: z.boolean(),
  victory: z.boolean(),
  deaths: z.array(DeathEventSchema).max(LIMITS.deathsPerWindow),
  rooms: z.number().int(),
  scoreChanges: z.array(ScoreChangeSchema).max(LIMITS.scoreChanges),
});
export type EpisodeSummary = z.infer<typeof EpisodeSummarySchema>;

export const WisdomRequestSchema = z.object({
  game: z.string(),
  episode: z.number().int().nonnegative(),
  summary: EpisodeSummarySchema,
  items: z.array(KnowledgeItemSchema),
  wisdom: z.array(KnowledgeItemSchema),
  seed: z.number().int(),
});
export type WisdomRequest = z.infer<typeof WisdomRequestSchema>;

export const WisdomResultSchema = z.object({ answer: WisdomAnswerSchema, usage: OracleUsageSchema, seconds: z.number().nonnegative() });
export type WisdomResult = z.infer<typeof WisdomResultSchema>;

/** The module's work: one kind per activity, so `apply` knows what it is merging. */
export type KnowledgeWork =
  | { activity: 'updateKnowledge'; request: UpdateRequest }
  | { activity: 'verifyKnowledge'; request: VerifyRequest }
  | { activity: 'synthesizeWisdom'; request: WisdomRequest };

// ── metrics and state ──────────────────────────────────────────────────────────────────────

/** Seed 000's knowledge_update_metrics, one per update decision. */
export const UpdateMetricsSchema = z.object({
  turn: z.number().int(),
  seconds: z.number().nonnegative(),
  turnsProcessed: z.number().int(),
  /** Bytes of the knowledge base after the update. */
  size: z.number().int(),
  calls: z.number().int(),
  skipped: z.boolean(),
  reason: z.string(),
  added: z.number().int(),
  merged: z.number().int(),
  /** Answered items dropped: placeholders, or naming nothing the turns showed. */
  ignored: z.number().int(),
  compressed: z.number().int(),
});
export type UpdateMetrics = z.infer<typeof UpdateMetricsSchema>;

export const KnowledgeStatsSchema = z.object({
  updates: z.number().int(),
  skipped: z.number().int(),
  failures: z.number().int(),
  verified: z.number().int(),
  refuted: z.number().int(),
  wisdomSyntheses: z.number().int(),
  /** Answered items (facts, insights) rejected because their text did not read as words; absent in states from before the screen. */
  rejectedText: z.number().int().optional(),
  calls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
});
export type KnowledgeStats = z.infer<typeof KnowledgeStatsSchema>;

export const KnowledgeStateSchema = z.object({
  settings: z.object({
    /** Turns between update decisions; 0: the module is idle (no LLM under this policy, or turned off). */
    every: z.number().int().nonnegative(),
    limitBytes: z.number().int().positive(),
    /** An IMPL fact not seen true for this many turns is due for verification. */
    verifyAfter: z.number().int().positive(),
    game: z.string(),
  }),
  items: z.array(KnowledgeItemSchema).max(LIMITS.items),
  wisdom: z.array(KnowledgeItemSchema).max(LIMITS.wisdom),
  nextId: z.number().int().positive(),
  nextWisdomId: z.number().int().positive(),
  window: TurnWindowSchema,
  /** The gate passed for the current window: the update is due (it stays due while it is retried). */
  pending: z.object({ reason: z.string(), final: z.boolean() }).nullable(),
  /** Rooms and exits the engine saw: the CURRENT WORLD MAP section, never written by the model. */
  map: MapStateSchema,
  /** room -> the snapshot of the first arrival there: where a fact about the room is replayed. */
  anchors: z.record(z.string(), z.object({ turn: z.number().int(), snapshot: z.string() })),
  /** Episodes this base has learned from (the wisdom is synthesized once per episode). */
  episode: z.number().int().nonnegative(),
  wisdomDone: z.boolean(),
  /** Deaths this episode, for the wisdom synthesis. */
  deaths: z.array(DeathEventSchema).max(LIMITS.deathsPerWindow),
  scoreChanges: z.array(ScoreChangeSchema).max(LIMITS.scoreChanges),
  updates: z.array(UpdateMetricsSchema).max(LIMITS.updates),
  stats: KnowledgeStatsSchema,
});
export type KnowledgeState = z.infer<typeof KnowledgeStateSchema>;
