/**
 * The workflows' contract with their callers: what an episode and a campaign take, what they
 * answer when queried, and (re-exported from the agent, which builds them) what they return.
 */
import { z } from 'zod';
import { LearnedStateSchema } from '../agent/learned';
import { EpisodeConfigSchema } from '../schemas/episode';

export { CampaignResultSchema, EpisodeResultSchema, TurnRecordSchema } from '../agent/records';
export type { CampaignResult, EpisodeResult, LlmUsage, TurnRecord } from '../agent/records';
export { freshLearned, LearnedStateSchema } from '../agent/learned';
export type { LearnedState } from '../agent/learned';

/** The episode workflow's argument: the complete config, and what earlier episodes learned. */
export const EpisodeInputSchema = z.object({
  config: EpisodeConfigSchema,
  learned: LearnedStateSchema.optional(),
});
export type EpisodeInput = z.infer<typeof EpisodeInputSchema>;

export const EpisodeStatusSchema = z.object({
  game: z.string(),
  turn: z.number().int(),
  maxTurns: z.number().int(),
  score: z.number().int(),
  maxScore: z.number().int().nullable(),
  moves: z.number().int(),
  location: z.string(),
  paused: z.boolean(),
  /** Paused and no turn under way: the turn that was running when the pause came has ended. */
  standing: z.boolean(),
  stopping: z.boolean(),
  finished: z.boolean(),
  victory: z.boolean(),
  died: z.boolean(),
  lastCommand: z.string().nullable(),
  lastObservation: z.string(),
  runTurns: z.number().int(),
});
export type EpisodeStatus = z.infer<typeof EpisodeStatusSchema>;

export const CampaignProgressSchema = z.object({
  completed: z.number().int(),
  total: z.number().int(),
  /** The running episode with the lowest index (null when none runs). */
  currentEpisode: z.string().nullable(),
  /** Every episode running now, lowest index first (more than one with `parallel` > 1). */
  running: z.array(z.string()),
  scores: z.array(z.number().int()),
});
export type CampaignProgress = z.infer<typeof CampaignProgressSchema>;
