/**
 * `grue suite`: a benchmark suite (the Jericho games of a suite.json) played as one durable run, a
 * campaign per game. What the suite workflow takes, answers while it runs, and writes: a
 * results.json per game and one for the suite.
 */
import { z } from 'zod';
import { AssistSchema, CampaignConfigSchema, PolicyNameSchema } from './episode';
import { StoryFaultSchema } from './storyFault';

/**
 * Settings people quote: `jericho` is one 100-step episode per game (the step budget of TALES and
 * of Jericho's evaluation episodes), `campaign` ten of them with learning carried across. Any
 * other episodes × steps is `custom`.
 */
export const SUITE_SETTINGS = {
  jericho: { episodes: 1, steps: 100 },
  campaign: { episodes: 10, steps: 100 },
} as const;
export const NamedSettingSchema = z.enum(['jericho', 'campaign']);
export const SettingNameSchema = z.enum(['jericho', 'campaign', 'custom']);
export type SettingName = z.infer<typeof SettingNameSchema>;

/** The named setting of these episodes × steps, else `custom`. */
export function settingNameOf(budget: { episodes: number; steps: number }): SettingName {
  const named = NamedSettingSchema.options.find(
    (name) => SUITE_SETTINGS[name].episodes === budget.episodes && SUITE_SETTINGS[name].steps === budget.steps,
  );
  return named ?? 'custom';
}

/** What the run was measured at: the fields a published result must share to be compared with it. */
export const SuiteSettingSchema = z.object({
  name: SettingNameSchema,
  episodes: z.number().int().min(1),
  steps: z.number().int().min(1),
  assist: AssistSchema,
  policy: PolicyNameSchema,
  /** The model asked (null: the worker's configured one, or none for policies without an LLM). */
  model: z.string().nullable(),
  /** The full agent's --oracle-budget (absent: no limit, and in results written before it existed). */
  oracleBudget: z.number().int().min(0).optional(),
});
export type SuiteSetting = z.infer<typeof SuiteSettingSchema>;

/** A game as the suite workflow plays it: the campaign's complete config (story path, seed) and the game's max score. */
export const SuiteGameInputSchema = z.object({
  /** The suite's name for the game (`zork1`); the child campaign's workflow id ends with it. */
  name: z.string().regex(/^[A-Za-z0-9_-]{1,60}$/, 'a game name is 1-60 letters, digits, _ or -'),
  /** The most points the game gives; null when the suite does not know it (lgop). */
  maxScore: z.number().int().positive().nullable(),
  campaign: CampaignConfigSchema,
});
export type SuiteGameInput = z.infer<typeof SuiteGameInputSchema>;

export const MAX_PARALLEL_GAMES = 64;

export const SuiteInputSchema = z.object({
  /** The suite folder the games came from (its suite.json), for the record. */
  suiteDir: z.string().min(1),
  setting: SuiteSettingSchema,
  /** Games' campaigns in flight at once (child workflows, spread over every worker on the task queue). */
  parallel: z.number().int().min(1).max(MAX_PARALLEL_GAMES),
  games: z.array(SuiteGameInputSchema).min(1),
});
export type SuiteInput = z.infer<typeof SuiteInputSchema>;

export const SuiteGameStateSchema = z.enum(['waiting', 'running', 'done', 'failed']);

/** One game's line of the suite's progress. */
export const SuiteGameProgressSchema = z.object({
  game: z.string(),
  state: SuiteGameStateSchema,
  /** The game's campaign (its workflow id), once started. */
  campaignId: z.string().nullable(),
  /** Best final score, once done. */
  best: z.number().int().nullable(),
  maxScore: z.number().int().nullable(),
  /** Why the game failed, when it did. */
  error: z.string().nullable(),
  /** Episodes of a done game that the story ended early by faulting on a command. */
  storyFaults: z.number().int().default(0),
  /** Done by an earlier run of this suite id whose history the server no longer has (its results.json was read back). */
  reused: z.boolean().default(false),
});
export type SuiteGameProgress = z.infer<typeof SuiteGameProgressSchema>;

export const SuiteProgressSchema = z.object({
  games: z.array(SuiteGameProgressSchema),
  finished: z.number().int(),
  total: z.number().int(),
});
export type SuiteProgress = z.infer<typeof SuiteProgressSchema>;

/** A game's results.json: what its campaign measured, normalised by its max score. */
export const SuiteGameResultSchema = z.object({
  suiteId: z.string(),
  game: z.string(),
  campaignId: z.string(),
  status: z.enum(['done', 'failed']),
  /** The error that ended a failed game's campaign. */
  error: z.string().nullable(),
  maxScore: z.number().int().nullable(),
  seed: z.number().int(),
  /** Each episode's final score, episode order. */
  finals: z.array(z.number().int()),
  /** The best final score. */
  best: z.number().int(),
  /** The highest score seen at any step of any episode (an episode can lose points before its end). */
  peak: z.number().int(),
  /** best / maxScore; null when the max score is unknown or the game failed. */
  normalisedBest: z.number().nullable(),
  /** peak / maxScore (what TALES reports); null when the max score is unknown or the game failed. */
  normalisedPeak: z.number().nullable(),
  /** Mean over episodes of final / maxScore. */
  normalisedMeanFinal: z.number().nullable(),
  won: z.boolean(),
  /** Episodes that ended in the player's death. */
  deaths: z.number().int(),
  /** Episodes the story ended early by faulting on a command (each kept the turns before it); absent in results written before. */
  storyFaults: z.array(StoryFaultSchema).default([]),
  /** Turns played, all episodes. */
  steps: z.number().int(),
  /** Wall time of the game's campaign (workflow time: survives a replay unchanged). */
  seconds: z.number(),
  llmCalls: z.number().int(),
  tokens: z.number().int(),
  setting: SuiteSettingSchema,
  /** The model that answered, as the episodes recorded it (null without LLM calls). */
  model: z.string().nullable(),
});
export type SuiteGameResult = z.infer<typeof SuiteGameResultSchema>;

export const SuiteSummarySchema = z.object({
  games: z.number().int(),
  /** Games that finished (the rest failed). */
  played: z.number().int(),
  failed: z.array(z.object({ game: z.string(), error: z.string() })),
  /** Games with a known max score that finished: the ones the mean and median are over. */
  averaged: z.number().int(),
  /** Games reported but not averaged, their max score unknown. */
  unknownMax: z.array(z.string()),
  meanNormalised: z.number().nullable(),
  medianNormalised: z.number().nullable(),
  /** The same, of normalised peak scores (TALES's measure). */
  meanNormalisedPeak: z.number().nullable(),
  /** Games won in some episode. */
  solved: z.number().int(),
  /** Finished games whose best score is 0. */
  atZero: z.number().int(),
  steps: z.number().int(),
  /** From the suite's start to its end, in this run. */
  wallSeconds: z.number(),
  /** Steps played in this run / wallSeconds (games read back from an earlier run's files are left out). */
  turnsPerSecond: z.number().nullable(),
  /** Games an earlier run of the suite id had finished, whose results.json were read back instead of playing them again. */
  reusedGames: z.array(z.string()).default([]),
});
export type SuiteSummary = z.infer<typeof SuiteSummarySchema>;

/** The suite's results.json. */
export const SuiteResultSchema = z.object({
  suiteId: z.string(),
  suiteDir: z.string(),
  setting: SuiteSettingSchema,
  parallel: z.number().int(),
  summary: SuiteSummarySchema,
  games: z.array(SuiteGameResultSchema),
  resultsPath: z.string(),
});
export type SuiteResult = z.infer<typeof SuiteResultSchema>;
