/**
 * What an episode leaves behind: a record of every turn (its transcript line), the episode's
 * result, and a campaign's. The workflows return them and the activities write them to disk.
 */
import { z } from 'zod';
import { UpdateMetricsSchema } from '../memory/knowledge/schema';
import { AssistSchema, CampaignConfigSchema, PolicyNameSchema } from '../schemas/episode';
import { BeliefsSchema } from './beliefs';
import { LearnedStateSchema } from './learned';

export const TurnRecordSchema = z.object({
  turn: z.number().int(),
  command: z.string(),
  observation: z.string(),
  score: z.number().int(),
  moves: z.number().int(),
  location: z.string(),
  worldHash: z.string(),
  validActions: z.number().int(),
  /** Why the policy chose the command (full agent: recommended, blocker, planned, ...). */
  reason: z.string().optional(),
  /** Why the command was chosen, in a few words (the oracle's reasoning when its advice was taken). */
  why: z.string().optional(),
  /** The LLM was unreachable after retries and the oracle-free policy chose instead. */
  fallback: z.boolean().optional(),
  llmCalls: z.number().int().optional(),
  tokens: z.number().int().optional(),
  recommended: z.string().optional(),
  /** Memory modules whose maintenance failed this turn (the episode played on without it). */
  memoryFailures: z.array(z.string()).optional(),
  /** A thoughtbox session ran this turn (it may have ended without a conclusion). */
  usedThoughtbox: z.boolean().optional(),
  /** Thoughts the session accepted. */
  thinkingSteps: z.number().int().optional(),
  /** The knowledge update decided this turn: seed 000's metrics, or why it was skipped. */
  knowledgeUpdate: UpdateMetricsSchema.optional(),
  /**
   * Workflow time from the start of the turn to its record: the activities it ran (LLM, engine,
   * memory) plus scheduling. Absent in transcripts recorded before it was added.
   */
  elapsedMs: z.number().int().nonnegative().optional(),
});
export type TurnRecord = z.infer<typeof TurnRecordSchema>;

export const LlmUsageSchema = z.object({
  calls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  fallbackTurns: z.number().int(),
  /** The model that answered the oracle (provider:model), once one has. */
  model: z.string().optional(),
});
export type LlmUsage = z.infer<typeof LlmUsageSchema>;

export const EpisodeResultSchema = z.object({
  game: z.string(),
  storyMd5: z.string(),
  seed: z.number().int(),
  policy: PolicyNameSchema,
  /** What the engine told the agent (see AssistSchema): scores are only comparable at the same level. */
  assist: AssistSchema,
  score: z.number().int(),
  maxScore: z.number().int().nullable(),
  moves: z.number().int(),
  turns: z.number().int(),
  victory: z.boolean(),
  died: z.boolean(),
  stopped: z.boolean(),
  transcriptPath: z.string(),
  learned: LearnedStateSchema,
  llm: LlmUsageSchema.optional(),
  recommendationAccuracy: z.number().optional(),
  beliefs: BeliefsSchema.optional(),
});
export type EpisodeResult = z.infer<typeof EpisodeResultSchema>;

export const CampaignResultSchema = z.object({
  campaignId: z.string(),
  game: z.string(),
  episodes: z.array(
    z.object({
      workflowId: z.string(),
      seed: z.number().int(),
      score: z.number().int(),
      turns: z.number().int(),
      victory: z.boolean(),
      died: z.boolean(),
      llmCalls: z.number().int().optional(),
      tokens: z.number().int().optional(),
      fallbackTurns: z.number().int().optional(),
    }),
  ),
  meanScore: z.number(),
  maxScore: z.number().int(),
  recommendationAccuracy: z.number().optional(),
  learnedGoal: z.string().optional(),
  resultsPath: z.string(),
  learned: LearnedStateSchema,
  /**
   * The complete config every episode ran with (policy, assist, model, memory settings), so a
   * report says what was measured. Optional only because results written before it was recorded
   * lack it; the campaign workflow always sets it.
   */
  config: CampaignConfigSchema.optional(),
});
export type CampaignResult = z.infer<typeof CampaignResultSchema>;
