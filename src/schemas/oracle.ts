/**
 * What the oracle answers (seed 004): each answer is an observation the agent conditions on,
 * weighted by learned reliability. Shapes are kept small and bounded so a 270M-parameter model
 * under a JSON grammar can fill them quickly; every answer is validated before use.
 */
import { z } from 'zod';

const short = (max: number) => z.string().max(max);

export const ConfidenceSchema = z.enum(['low', 'medium', 'high']);
export const CONFIDENCE_VALUE: Record<z.infer<typeof ConfidenceSchema>, number> = { low: 0.3, medium: 0.6, high: 0.85 };

/**
 * The merged per-turn query: situation analysis, plus progress and failure judgement of the
 * previous action, in one call (the seed's lesson: fewer calls per turn).
 */
export const TurnAnalysisSchema = z.object({
  last_action_made_progress: z.boolean(),
  accomplishment: short(80),
  failure_reason: short(100),
  prerequisite: short(80),
  overall_goal: short(100),
  immediate_goal: short(100),
  blocking_condition: short(100),
  recommended_action: short(60),
  action_reasoning: short(120),
  alternative_actions: z.array(short(60)).max(3),
  confidence: ConfidenceSchema,
});
export type TurnAnalysis = z.infer<typeof TurnAnalysisSchema>;

/**
 * Why the last action failed (seed 004's failure analysis). Asked only when the engine saw the
 * last action change nothing: the tiny model names the prerequisite in a focused question far
 * more often than inside the merged turn query (seed test 2: 4/5 against 0/5).
 */
export const FailureAnalysisSchema = z.object({
  prerequisite: short(100),
  failure_reason: short(120),
  suggested_action: short(60),
  lesson: short(120),
});
export type FailureAnalysis = z.infer<typeof FailureAnalysisSchema>;

export const OracleUsageSchema = z.object({ calls: z.number().int(), promptTokens: z.number().int(), completionTokens: z.number().int() });
export type OracleUsage = z.infer<typeof OracleUsageSchema>;

export const NO_USAGE: OracleUsage = { calls: 0, promptTokens: 0, completionTokens: 0 };
export const addUsage = (a: OracleUsage, b: OracleUsage): OracleUsage => ({
  calls: a.calls + b.calls,
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
});

/** A titled part of the oracle's context: the beliefs, and each memory module's rendering. */
export const ContextSectionSchema = z.object({ title: z.string().min(1).max(60), text: z.string().max(4000) });
export type ContextSection = z.infer<typeof ContextSectionSchema>;

/**
 * The per-turn query's input, built by the pipeline's recall stage. The observation appears once:
 * it is the game's response to `lastAction`.
 */
export const TurnRequestSchema = z.object({
  observation: z.string(),
  lastAction: z.string().nullable(),
  validActions: z.array(z.string()).max(200),
  /** In priority order: when the prompt is over budget, the last sections are dropped first. */
  context: z.array(ContextSectionSchema).max(12),
  seed: z.number().int(),
});
export type TurnRequest = z.infer<typeof TurnRequestSchema>;

/** `model` names the model that answered (provider:model), for the episode's result. */
export const TurnAnswerSchema = z.object({ answer: TurnAnalysisSchema, usage: OracleUsageSchema, model: z.string().optional() });
export type TurnAnswer = z.infer<typeof TurnAnswerSchema>;

export const FailureRequestSchema = z.object({
  /** What the agent knew before the action (its beliefs, as the context renders them). */
  situation: z.string().max(4000),
  failedAction: z.string(),
  /** The game's response to it. */
  response: z.string(),
  seed: z.number().int(),
});
export type FailureRequest = z.infer<typeof FailureRequestSchema>;

export const FailureAnswerSchema = z.object({ answer: FailureAnalysisSchema, usage: OracleUsageSchema });
export type FailureAnswer = z.infer<typeof FailureAnswerSchema>;
