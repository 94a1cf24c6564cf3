/**
 * The Jericho suite as a folder describes it (`suite.json`, one entry per game): the benchmark the
 * field measures game agents on (Hausknecht et al., AAAI 2020). Read by `grue suite`, the suite
 * benchmark and the tests that replay Jericho's walkthroughs.
 */
import { z } from 'zod';

export const SuiteGameSchema = z.object({
  /** Jericho's name for the game. */
  game: z.string().min(1),
  /** The story file, relative to the suite folder. */
  file: z.string().min(1),
  zversion: z.number().int(),
  jerichoSupported: z.boolean().default(true),
  /** The seed Jericho plays the walkthrough with; null where Jericho has none. */
  seed: z.number().int().nullable(),
  maxScore: z.number().int().nonnegative(),
  /** The score Jericho reaches by playing the walkthrough with its seed; null without a walkthrough. */
  walkthroughScore: z.number().int().nullable(),
  /** Commands Jericho's reset plays before the walkthrough (after any "press a key" screen). */
  resetCommands: z.array(z.string()).default([]),
  walkthrough: z.array(z.string()).nullable().default(null),
});
export type SuiteGame = z.infer<typeof SuiteGameSchema>;

export const SuiteFileSchema = z.array(SuiteGameSchema).min(1);
