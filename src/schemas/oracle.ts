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

export const SituationSchema = TurnAnalysisSchema.omit({ last_action_made_progress: true, accomplishment: true, failure_reason: true, prerequisite: true }).extend({
  accomplished: z.array(short(60)).max(5),
  important_state_variables: z.array(short(40)).max(5),
});
export type Situation = z.infer<typeof SituationSchema>;

export const FailureAnalysisSchema = z.object({
  prerequisite: short(100),
  failure_reason: short(120),
  suggested_action: short(60),
  lesson: short(120),
});
export type FailureAnalysis = z.infer<typeof FailureAnalysisSchema>;

export const ProgressSchema = z.object({
  made_progress: z.boolean(),
  progress_type: z.enum(['location', 'item', 'story', 'none']),
  explanation: short(120),
  accomplishment: short(80),
});
export type Progress = z.infer<typeof ProgressSchema>;

export const StateVariablesSchema = z.object({
  suggested_variables: z.array(short(40)).max(5),
  reasoning: short(120),
});
export type StateVariables = z.infer<typeof StateVariablesSchema>;

export const ExtractedStateSchema = z.object({
  values: z.array(z.object({ name: short(40), value: short(60) })).max(8),
});
export type ExtractedState = z.infer<typeof ExtractedStateSchema>;

export const OracleUsageSchema = z.object({ calls: z.number().int(), promptTokens: z.number().int(), completionTokens: z.number().int() });
export type OracleUsage = z.infer<typeof OracleUsageSchema>;
