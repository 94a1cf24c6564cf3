import { z } from 'zod';
import { BeliefsSchema } from '../agent/beliefs';
import { DynamicsSchema } from '../agent/dynamics';
import { ReliabilitySchema } from '../agent/reliability';
import { GameRefSchema, GroundTruthSchema } from './game';

/** random: uniform over valid actions; oracle-free: novelty and reward, no LLM; full: the Bayesian oracle agent (seed 004). */
export const PolicyNameSchema = z.enum(['full', 'oracle-free', 'random']);
export type PolicyName = z.infer<typeof PolicyNameSchema>;

/**
 * What the oracle-free policy learns across episodes: actions that paid off in a given world
 * state. Bounded, because it travels through every episode's input.
 */
export const LearnedStateSchema = z.object({
  episodes: z.number().int().nonnegative().default(0),
  bestScore: z.number().int().default(0),
  /** worldHash -> commands that raised the score there. */
  rewarding: z.record(z.string(), z.array(z.string())).default({}),
  /** The full agent's learning: dynamics model, oracle reliability, and the goal it inferred. */
  dynamics: DynamicsSchema.default({ entries: {} }),
  reliability: ReliabilitySchema.default(ReliabilitySchema.parse({})),
  overallGoal: z.string().default('unknown'),
});
export type LearnedState = z.infer<typeof LearnedStateSchema>;
export const MAX_LEARNED_STATES = 300;

export const EpisodeInputSchema = z.object({
  game: GameRefSchema,
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
  maxTurns: z.number().int().min(1).max(100_000).default(100),
  policy: PolicyNameSchema.default('oracle-free'),
  /** Continue-as-new after this many turns in one run (also whenever Temporal suggests it). */
  continueAsNewEvery: z.number().int().min(1).max(10_000).default(100),
  /** Turns buffered in workflow state before they are written to the transcript file. */
  transcriptFlushEvery: z.number().int().min(1).max(1_000).default(20),
  /**
   * Seconds a game turn may take before Temporal gives it to another worker (a crashed worker's
   * turn is retried after this long). Valid-action search dominates; slow games need more.
   */
  turnTimeoutSeconds: z.number().int().min(1).max(3600).default(60),
  /**
   * End the episode when the player dies (Jericho's convention). Some games go on after a death
   * (Zork resurrects you); set false to keep playing them until maxTurns or victory.
   */
  stopOnDeath: z.boolean().default(true),
  learned: LearnedStateSchema.optional(),
});
export type EpisodeInput = z.input<typeof EpisodeInputSchema>;
export type EpisodeConfig = z.infer<typeof EpisodeInputSchema>;

export const TurnRecordSchema = z.object({
  turn: z.number().int(),
  command: z.string(),
  observation: z.string(),
  score: z.number().int(),
  moves: z.number().int(),
  location: z.string(),
  worldHash: z.string(),
  validActions: z.number().int(),
  /** Why the policy chose the command (full agent: recommended, blocker, dynamics, ...). */
  reason: z.string().optional(),
  /** The LLM was unreachable after retries and the oracle-free policy chose instead. */
  fallback: z.boolean().optional(),
  llmCalls: z.number().int().optional(),
  tokens: z.number().int().optional(),
  recommended: z.string().optional(),
});
export type TurnRecord = z.infer<typeof TurnRecordSchema>;

export const EpisodeResultSchema = z.object({
  game: z.string(),
  storyMd5: z.string(),
  seed: z.number().int(),
  policy: PolicyNameSchema,
  score: z.number().int(),
  maxScore: z.number().int().nullable(),
  moves: z.number().int(),
  turns: z.number().int(),
  victory: z.boolean(),
  died: z.boolean(),
  stopped: z.boolean(),
  transcriptPath: z.string(),
  learned: LearnedStateSchema,
  llm: z.object({ calls: z.number().int(), promptTokens: z.number().int(), completionTokens: z.number().int(), fallbackTurns: z.number().int() }).optional(),
  recommendationAccuracy: z.number().optional(),
  beliefs: BeliefsSchema.optional(),
});
export type EpisodeResult = z.infer<typeof EpisodeResultSchema>;

export const EpisodeStatusSchema = z.object({
  game: z.string(),
  turn: z.number().int(),
  maxTurns: z.number().int(),
  score: z.number().int(),
  maxScore: z.number().int().nullable(),
  moves: z.number().int(),
  location: z.string(),
  paused: z.boolean(),
  stopping: z.boolean(),
  finished: z.boolean(),
  victory: z.boolean(),
  died: z.boolean(),
  lastCommand: z.string().nullable(),
  lastObservation: z.string(),
  runTurns: z.number().int(),
});
export type EpisodeStatus = z.infer<typeof EpisodeStatusSchema>;

export const CampaignInputSchema = z.object({
  game: GameRefSchema,
  episodes: z.number().int().min(1).max(10_000).default(3),
  seed: z.number().int().min(0).max(2 ** 31 - 1).default(0),
  maxTurns: z.number().int().min(1).max(100_000).default(100),
  policy: PolicyNameSchema.default('oracle-free'),
  continueAsNewEvery: z.number().int().min(1).max(10_000).default(100),
});
export type CampaignInput = z.input<typeof CampaignInputSchema>;

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
});
export type CampaignResult = z.infer<typeof CampaignResultSchema>;

export const CampaignProgressSchema = z.object({
  completed: z.number().int(),
  total: z.number().int(),
  currentEpisode: z.string().nullable(),
  scores: z.array(z.number().int()),
});
export type CampaignProgress = z.infer<typeof CampaignProgressSchema>;

export { GroundTruthSchema };
