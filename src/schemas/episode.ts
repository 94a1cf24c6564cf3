import { z } from 'zod';
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
 * An episode's complete configuration. The workflow receives every field: defaults are applied
 * once, by the client (`resolveEpisodeConfig`), never inside workflow code, so a replayed
 * history cannot pick up a default that changed since it was recorded.
 */
export const EpisodeConfigSchema = z
  .object({
    game: GameRefSchema,
    seed: z
      .number()
      .int()
      .min(0)
      .max(2 ** 31 - 1),
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
    /**
     * When memory modules do their LLM work (compaction, knowledge): `every-turn`, as soon as it is
     * due; `when-read`, only before a turn that asks the oracle — their products are read only in
     * its context — and at the episode's end. Absent (configs recorded before it existed):
     * every-turn.
     */
    memoryWork: z.enum(['every-turn', 'when-read']).optional(),
    /**
     * The most turns of an episode on which the full agent asks the oracle, and only where the
     * explorer has nothing left that opens something up or has gone several turns without progress
     * (see deliberate). Absent: no limit, asked on every turn where its answer may be taken.
     */
    oracleBudget: z.number().int().min(0).max(100_000).optional(),
    /** What the engine reveals about the valid actions (see AssistSchema). */
    assist: AssistSchema,
    /**
     * The model the LLM activities use: an embedded model id (gemma3-270m, qwen2.5-coder-1.5b, ...)
     * or, on a worker configured for an OpenAI-compatible endpoint, that endpoint's model name;
     * null = the worker's configured model. A name only: secrets stay in the worker's environment.
     */
    model: z.string().min(1).max(200).nullable(),
    /**
     * Commands played before the agent's first turn, as Jericho's reset plays a game's intro
     * actions (`grue suite` passes each game's `resetCommands`); their replies join the opening
     * text. Absent in configs recorded before it existed, and for a game that needs none.
     */
    openingCommands: z.array(z.string().max(200)).max(50).optional(),
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
  // A turn's start-to-close: only a turn that hangs waits this long, as a dead worker is noticed by
  // the 10 s heartbeat. A probing turn of a large story on a busy machine took more than the 60 s
  // this once was, and each retry began the search again until the attempts ran out.
  turnTimeoutSeconds: 600,
  stopOnDeath: true,
  compactEvery: 5,
  compactSmart: false,
  thoughtbox: 'auto',
  maxThinkingIterations: 20,
  knowledgeEvery: 10,
  knowledgeKb: 8,
  knowledgeVerifyAfter: 20,
  // The modules' products are read only in the oracle's context: work nobody reads is not paid for
  // (on the embedded model a compaction is 35-40 s of a first run's 2 cores).
  memoryWork: 'when-read',
  assist: 'probe',
  model: null,
};

/** What a caller may give: the game, and any option it wants to set. */
export type EpisodeOptions = Partial<EpisodeConfig> & { game: string };

const definedOnly = <T extends object>(o: T): Partial<T> =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as Partial<T>;

/** Fill in the defaults and validate; throws a ZodError naming every bad field. */
export function resolveEpisodeConfig(options: EpisodeOptions): EpisodeConfig {
  return EpisodeConfigSchema.parse({ ...EPISODE_DEFAULTS, ...definedOnly(options) });
}

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

export { GroundTruthSchema };
