import { z } from 'zod';
import { CampaignConfigSchema } from './episode';

/**
 * What an experiment can vary: the thoughtbox mode, compaction on or off, knowledge on or off,
 * the model, and the assist level. Each names one field of the episode config (see
 * src/experiment/arms.ts for the levels).
 */
export const FactorSchema = z.enum(['thoughtbox', 'compaction', 'knowledge', 'model', 'assist']);
export type Factor = z.infer<typeof FactorSchema>;

/** More arms than this is a design mistake rather than an experiment one machine can run. */
export const MAX_ARMS = 48;

/** The fields an arm changes from the baseline (empty for the baseline itself). */
export const ConfigDiffSchema = CampaignConfigSchema.partial().strict();
export type ConfigDiff = z.infer<typeof ConfigDiffSchema>;

export const ArmSchema = z.object({
  /** Readable: `baseline`, `thoughtbox=off`, or with --factorial `thoughtbox=off,assist=valid`. */
  name: z.string().min(1).max(200),
  diff: ConfigDiffSchema,
  /** Complete, as resolveCampaignConfig gave it: the workflow applies no defaults. */
  config: CampaignConfigSchema,
});
export type Arm = z.infer<typeof ArmSchema>;

/**
 * The experiment workflow's argument. Every arm plays the same game with the same seeds and
 * episode count, so the arms differ only in what the design varies.
 */
export const ExperimentInputSchema = z
  .object({
    factors: z.array(FactorSchema).min(1),
    factorial: z.boolean(),
    arms: z.array(ArmSchema).min(1).max(MAX_ARMS),
  })
  .superRefine((input, ctx) => {
    const names = new Set<string>();
    const [first] = input.arms;
    input.arms.forEach((arm, i) => {
      if (names.has(arm.name)) ctx.addIssue({ code: 'custom', path: ['arms', i, 'name'], message: `two arms are named "${arm.name}"` });
      names.add(arm.name);
      for (const field of ['game', 'seed', 'episodes'] as const) {
        if (arm.config[field] !== first.config[field])
          ctx.addIssue({
            code: 'custom',
            path: ['arms', i, 'config', field],
            message: `every arm plays the same ${field} (the first arm's is ${first.config[field]})`,
          });
      }
    });
  });
export type ExperimentInput = z.infer<typeof ExperimentInputSchema>;
