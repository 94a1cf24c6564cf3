import { z } from 'zod';
import { BeliefsSchema } from '../agent/beliefs';
import { DynamicsSchema } from '../agent/dynamics';
import { ReliabilitySchema } from '../agent/reliability';
import { UpdateMetricsSchema } from '../memory/knowledge/schema';
import { AssistSchema, GameRefSchema, GroundTruthSchema, type Assist } from './game';

/** random: uniform over valid actions; oracle-free: novelty and reward, no LLM; full: the Bayesian oracle agent (seed 004). */
export const PolicyNameSchema = z.enum(['full', 'oracle-free', 'random']);

/**
 * How much the engine tells the agent before it acts, as research tools state it: `probe` — every
 * valid action with what it would do (score change, death, victory, the state it leads to);
 * `valid` — Jericho's handicap, the valid-action list without outcomes; `none` — the player's
 * view, as in TALES and ZorkGPT: no list, the agent writes commands and reads the parser's reply.
 */
export { AssistSchema, type Assist };
export type PolicyName = z.infer<typeof PolicyNameSchema>;

/**
 * What an agent learns across episodes: the dynamics model, the oracle's reliability, the goal
 * it inferred, and actions that paid off in a given world state. Bounded, because it travels
 * through every episode's input and result. No defaults: a workflow never fills in what its
 * caller left out (see `freshLearned`).
 */
export const LearnedStateSchema = z.object({
  episodes: z.number().int().nonnegative(),
  bestScore: z.number().int(),
  /** Short world hash -> commands that raised the score there. */
  rewarding: z.record(z.string(), z.array(z.string())),
  dynamics: DynamicsSchema,
  reliability: ReliabilitySchema,
  overallGoal: z.string(),
  /** Each memory module's state at the end of the last episode, by module name (see src/memory). */
  memory: z.record(z.string(), z.unknown()),
  /** Short world hashes of states from which a move killed the player, newest last. */
  deaths: z.array(z.string()).max(100),
  /** Go-Explore cells (see cellOf) earlier episodes reached, newest last. */
  cells: z.array(z.string()).max(400),
  /** Places (location and inventory, see placeOf) the player died in, newest last: later episodes keep out. */
  deadlyPlaces: z.array(z.string()).max(100),
  /**
   * Short world hashes of states from which an episode first reached a place or an item no
   * episode had reached, and which no later episode stood in again, oldest first: later episodes
   * walk back to the oldest they can (Go-Explore's return, across episodes) and try from there
   * what was not tried (the other branch of a choice) before what was.
   */
  frontier: z.array(z.string()).max(30).default([]),
  /**
   * `location id|command` for each move that killed the player, newest last. Without the probe
   * (the `valid` and `none` assists) this is how a later episode knows not to jump where jumping
   * killed, or to walk on in a dark attic.
   */
  deadlyMoves: z.array(z.string()).max(100).default([]),
});
export type LearnedState = z.infer<typeof LearnedStateSchema>;
export const MAX_LEARNED_STATES = 300;

export function freshLearned(): LearnedState {
  return { episodes: 0, bestScore: 0, rewarding: {}, dynamics: { entries: {} }, reliability: ReliabilitySchema.parse({}), overallGoal: 'unknown', memory: {}, deaths: [], cells: [], deadlyPlaces: [], frontier: [], deadlyMoves: [] };
}

/**
 * An episode's complete configuration. The workflow receives every field: defaults are applied
 * once, by the client (`resolveEpisodeConfig`), never inside workflow code, so a replayed
 * history cannot pick up a default that changed since it was recorded.
 */
export const EpisodeConfigSchema = z
  .object({
    game: GameRefSchema,
    seed: z.number().int().min(0).max(2 ** 31 - 1),
    maxTurns: z.number().int().min(1).max(100_000),
    policy: PolicyNameSchema,
    /** Continue-as-new after this many turns in one run (also whenever Temporal suggests it). */
    continueAsNewEvery: z.number().int().min(1).max(10_000),
    /** Turns buffered in workflow state before they are written to the transcript file. */
    transcriptFlushEvery: z.number().int().min(1).max(1_000),
    /**
     * Seconds a game turn may take before Temporal gives it to another worker (a crashed worker's
     * turn is retried after this long). Valid-action search dominates; slow games need more.
     */
    turnTimeoutSeconds: z.number().int().min(1).max(3600),
    /**
     * End the episode when the player dies (Jericho's convention). Some games go on after a death
     * (Zork resurrects you); false keeps playing them until maxTurns or victory.
     */
    stopOnDeath: z.boolean(),
    /**
     * Compact the raw turns into the structured world model every this many turns (seed 001);
     * 0 turns it off. Only policies that ask an LLM compact.
     */
    compactEvery: z.number().int().min(0).max(1_000),
    /** Seed 001's "smart" trigger: a new room or a score change makes compaction due early. */
    compactSmart: z.boolean(),
    /**
     * The thoughtbox (seed 003): off; auto, offered on hard turns and the model may decline;
     * always, every turn the oracle is asked. Only the full policy thinks.
     */
    thoughtbox: z.enum(['off', 'auto', 'always']),
    /** Model calls one thoughtbox session may make before it ends unconcluded (the seed's max_thinking_iterations). */
    maxThinkingIterations: z.number().int().min(1).max(100),
    /**
     * Turns in one knowledge window (seeds 000 + 002): every this many turns the heuristic gate
     * decides whether the window is worth one `updateKnowledge` call; 0 turns knowledge off.
     * Only the full policy keeps knowledge. At most 20: the window travels in the carried state.
     */
    knowledgeEvery: z.number().int().min(0).max(20),
    /**
     * Size limit of the knowledge base in KB, enforced by seed 002's priority compression. The
     * base travels in the carried state (64 KB in all), hence at most 8 (the seed's default).
     */
    knowledgeKb: z.number().int().min(1).max(8),
    /** An IMPL fact not seen true for this many turns is replayed in the engine again. */
    knowledgeVerifyAfter: z.number().int().min(1).max(10_000),
    /** What the engine reveals about the valid actions (see AssistSchema). */
    assist: AssistSchema,
    /**
     * The model the LLM activities use: an embedded model id (gemma3-270m, qwen2.5-coder-1.5b, ...)
     * or, on a worker configured for an OpenAI-compatible endpoint, that endpoint's model name;
     * null = the worker's configured model. A name only: secrets stay in the worker's environment.
     */
    model: z.string().min(1).max(200).nullable(),
  })
  .strict();
export type EpisodeConfig = z.infer<typeof EpisodeConfigSchema>;

/** The one place episode defaults live: the CLI, campaigns, benchmarks and tests resolve through it. */
export const EPISODE_DEFAULTS: Omit<EpisodeConfig, 'game'> = {
  seed: 0,
  maxTurns: 50,
  policy: 'full',
  continueAsNewEvery: 100,
  transcriptFlushEvery: 20,
  turnTimeoutSeconds: 60,
  stopOnDeath: true,
  compactEvery: 5,
  compactSmart: false,
  thoughtbox: 'auto',
  maxThinkingIterations: 20,
  knowledgeEvery: 10,
  knowledgeKb: 8,
  knowledgeVerifyAfter: 20,
  assist: 'probe',
  model: null,
};

/** What a caller may give: the game, and any option it wants to set. */
export type EpisodeOptions = Partial<EpisodeConfig> & { game: string };

const definedOnly = <T extends object>(o: T): Partial<T> => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Fill in the defaults and validate; throws a ZodError naming every bad field. */
export function resolveEpisodeConfig(options: EpisodeOptions): EpisodeConfig {
  return EpisodeConfigSchema.parse({ ...EPISODE_DEFAULTS, ...definedOnly(options) });
}

/** The episode workflow's argument: the complete config, and what earlier episodes learned. */
export const EpisodeInputSchema = z.object({
  config: EpisodeConfigSchema,
  learned: LearnedStateSchema.optional(),
});
export type EpisodeInput = z.infer<typeof EpisodeInputSchema>;

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

/** Child workflows a campaign keeps in flight at most: each holds a slot of the worker's workflow cache. */
export const MAX_PARALLEL_EPISODES = 200;

/** A campaign is N episodes with one episode config (each episode's seed is the campaign seed + its index). */
export const CampaignConfigSchema = EpisodeConfigSchema.extend({
  episodes: z.number().int().min(1).max(10_000),
  /**
   * Episodes in flight at once (child workflows). Each starts from what the campaign had learned
   * when it started, and what it learned is merged back when it ends (see mergeLearned). Absent in
   * campaigns recorded before it existed, which ran one episode at a time; the client always sets it.
   */
  parallel: z.number().int().min(1).max(MAX_PARALLEL_EPISODES).optional(),
}).strict();
export type CampaignConfig = z.infer<typeof CampaignConfigSchema>;
export const CAMPAIGN_DEFAULTS = { episodes: 3, parallel: 1 };
export type CampaignOptions = EpisodeOptions & { episodes?: number; parallel?: number };

export function resolveCampaignConfig(options: CampaignOptions): CampaignConfig {
  return CampaignConfigSchema.parse({ ...EPISODE_DEFAULTS, ...CAMPAIGN_DEFAULTS, ...definedOnly(options) });
}

/** The campaign's episode config for episode `index`. */
export function episodeConfigOf(campaign: CampaignConfig, index: number): EpisodeConfig {
  const { episodes: _episodes, parallel: _parallel, ...episode } = campaign;
  return { ...episode, seed: campaign.seed + index };
}

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

export { GroundTruthSchema };
