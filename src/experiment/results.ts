/** What an experiment workflow returns and reports while it runs, arm by arm. */
import { z } from 'zod';
import { CampaignResultSchema } from '../agent/records';
import { ArmSchema, FactorSchema } from '../schemas/experiment';

/**
 * One arm's campaign as the experiment keeps it: without the learned state (dynamics, memory),
 * which can be tens of KB per arm and is in the campaign's own results.json.
 */
export const ArmCampaignSchema = CampaignResultSchema.omit({ learned: true });

export const ArmResultSchema = ArmSchema.extend({
  campaignId: z.string().min(1),
  campaign: ArmCampaignSchema,
});
export type ArmResult = z.infer<typeof ArmResultSchema>;

export const ExperimentResultSchema = z.object({
  experimentId: z.string().min(1),
  game: z.string(),
  factors: z.array(FactorSchema),
  factorial: z.boolean(),
  episodes: z.number().int(),
  arms: z.array(ArmResultSchema),
  resultsPath: z.string(),
});
export type ExperimentResult = z.infer<typeof ExperimentResultSchema>;

export const ExperimentProgressSchema = z.object({
  completedArms: z.number().int(),
  totalArms: z.number().int(),
  /** The arm playing now and its campaign's workflow id (ask that for its episode's progress). */
  currentArm: z.string().nullable(),
  currentCampaign: z.string().nullable(),
  /** Final scores of each finished arm's episodes. */
  finished: z.array(z.object({ name: z.string(), scores: z.array(z.number().int()) })),
});
export type ExperimentProgress = z.infer<typeof ExperimentProgressSchema>;
