/**
 * What a report is built from: one arm per campaign (a campaign report has one), each with its
 * config and its episodes' results and transcripts. Built by load.ts from the files grue wrote;
 * tests build it directly.
 */
import { z } from 'zod';
import { CampaignConfigSchema } from '../schemas/episode';
import { TurnRecordSchema } from '../agent/records';
import { ConfigDiffSchema, FactorSchema } from '../schemas/experiment';

export const ReportEpisodeSchema = z.object({
  /** 1-based position in its campaign (the same seed in every arm). */
  index: z.number().int().min(1),
  workflowId: z.string(),
  seed: z.number().int(),
  score: z.number().int(),
  turns: z.number().int(),
  victory: z.boolean(),
  died: z.boolean(),
  /** Absent for policies that ask no LLM. */
  llmCalls: z.number().int().optional(),
  /** Empty when the transcript is not on this machine (the episode ran on another worker's disk). */
  transcript: z.array(TurnRecordSchema),
});
export type ReportEpisode = z.infer<typeof ReportEpisodeSchema>;

export const ReportArmSchema = z.object({
  name: z.string().min(1),
  campaignId: z.string(),
  diff: ConfigDiffSchema,
  /** Null for a campaign whose results.json predates the recorded config. */
  config: CampaignConfigSchema.nullable(),
  episodes: z.array(ReportEpisodeSchema),
});
export type ReportArm = z.infer<typeof ReportArmSchema>;

export const ReportDataSchema = z.object({
  kind: z.enum(['campaign', 'experiment']),
  id: z.string().min(1),
  game: z.string(),
  factors: z.array(FactorSchema),
  factorial: z.boolean(),
  arms: z.array(ReportArmSchema).min(1),
});
export type ReportData = z.infer<typeof ReportDataSchema>;
