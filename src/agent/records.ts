/**
 * What an episode leaves behind: a record of every turn (its transcript line), the episode's
 * result, and a campaign's. The workflows return them and the activities write them to disk.
 */
import { z } from 'zod';
import { UpdateMetricsSchema } from '../memory/knowledge/schema';
import { memoryRecord } from '../memory/runner';
import { LlmFailureKindSchema } from '../schemas/llmFailure';
import { StoryFault, StoryFaultSchema } from '../schemas/storyFault';
import { AssistSchema, CampaignConfigSchema, EpisodeConfig, PolicyNameSchema } from '../schemas/episode';
import { BeliefsSchema } from './beliefs';
import { LearnedState, LearnedStateSchema } from './learned';
import { accuracy } from './reliability';
import { AgentState, LIMITS } from './state';
import { frontierRoomsNotActedIn } from './cellMemory';
import { pushOnce } from './newest';
import { rememberCells, visitedSet } from './remember';
import type { ThoughtboxSession } from './thoughtbox/schema';
import type { Decision } from './turn';

import { LlmUsageSchema } from './state';

export { LlmUsageSchema, type LlmUsage } from './state';

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
  /** LLM calls that failed for good this turn, with what they were for and why (the episode played on without them). */
  llmFailures: z.array(z.object({ call: z.string(), kind: LlmFailureKindSchema })).optional(),
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

export const EpisodeResultSchema = z.object({
  game: z.string(),
  storyMd5: z.string(),
  seed: z.number().int(),
  policy: PolicyNameSchema,
  /** What the engine told the agent (see AssistSchema): scores are only comparable at the same level. */
  assist: AssistSchema,
  score: z.number().int(),
  /** The highest score seen at any step (absent in results recorded before it was kept). */
  peakScore: z.number().int().optional(),
  maxScore: z.number().int().nullable(),
  moves: z.number().int(),
  turns: z.number().int(),
  victory: z.boolean(),
  died: z.boolean(),
  stopped: z.boolean(),
  /** The story faulted on this turn's command: the episode ended there, with the turns before it. */
  storyFault: StoryFaultSchema.optional(),
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
      /** The highest score seen at any step (absent in results recorded before it was kept). */
      peakScore: z.number().int().optional(),
      turns: z.number().int(),
      victory: z.boolean(),
      died: z.boolean(),
      /** The episode ended early: the story faulted on its command at this turn. */
      storyFault: StoryFaultSchema.optional(),
      llmCalls: z.number().int().optional(),
      tokens: z.number().int().optional(),
      fallbackTurns: z.number().int().optional(),
      /** The model that answered the episode's LLM calls (provider:model). */
      model: z.string().optional(),
      /** LLM calls answered and failed for good (all kinds of call). */
      llmAnswered: z.number().int().optional(),
      llmFailed: z.number().int().optional(),
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

/**
 * A campaign's state between two episodes, written after each one: what a campaign needs to go
 * on when the server's history of it is gone (a dev server's database lost, a run moved).
 */
export const CampaignCheckpointSchema = z.object({
  campaignId: z.string(),
  config: CampaignConfigSchema,
  done: CampaignResultSchema.shape.episodes,
  learned: LearnedStateSchema,
});
export type CampaignCheckpoint = z.infer<typeof CampaignCheckpointSchema>;

// ── building them ───────────────────────────────────────────────────────────────────────────

export function turnRecord(state: AgentState, decision: Decision, config: EpisodeConfig, memoryFailures: string[]): TurnRecord {
  return {
    turn: state.turn,
    command: state.lastCommand ?? '',
    observation: state.observation,
    score: state.truth.score,
    moves: state.truth.moves,
    location: state.truth.location.name,
    worldHash: state.worldHash,
    validActions: state.options.length + state.commands.length,
    reason: decision.reason,
    why: decision.why,
    ...(config.policy === 'full'
      ? {
          fallback: decision.fallback,
          llmCalls: decision.usage.calls,
          tokens: decision.usage.promptTokens + decision.usage.completionTokens,
          ...(decision.analysis ? { recommended: decision.analysis.recommended_action } : {}),
          usedThoughtbox: usedThoughtbox(decision.thinking),
          thinkingSteps: decision.thinking?.thoughts.length ?? 0,
        }
      : {}),
    ...(memoryFailures.length ? { memoryFailures } : {}),
    ...memoryRecord(state.memory, state.turn),
  };
}

/** The last turn's record with what the end-of-episode maintenance added (the same record when it added nothing new). */
export function withEndingMaintenance(record: TurnRecord, state: AgentState, llmFailures: TurnRecord['llmFailures'] = []): TurnRecord {
  if (record.turn !== state.turn) return record;
  const failures = [...(record.llmFailures ?? []), ...(llmFailures ?? [])];
  const added = { ...memoryRecord(state.memory, state.turn), ...(failures.length ? { llmFailures: failures } : {}) };
  const changed = Object.entries(added).filter(
    ([key, value]) => JSON.stringify(value) !== JSON.stringify((record as Record<string, unknown>)[key]),
  );
  return changed.length ? { ...record, ...Object.fromEntries(changed) } : record;
}

/** A session that was offered and declined did no thinking. */
const usedThoughtbox = (session: ThoughtboxSession | null) => session !== null && session.outcome !== 'declined';

/**
 * What this episode passes on to the next one of a campaign. The frontier keeps the earlier
 * episodes' firsts this one never stood in again, then adds its own: each first is returned to
 * once, oldest first, so the tree of discoveries is explored breadth-first (see knownMove).
 */
export function learnedAfter(state: AgentState): LearnedState {
  const visited = visitedSet(state);
  let frontier = state.learned.frontier.filter((goal) => !visited.has(goal));
  for (const goal of state.discovered) frontier = pushOnce(frontier, goal, LIMITS.frontier);
  return {
    ...rememberCells(state.learned, state.cells),
    frontier,
    ...(state.returnsToFrontierRooms ? frontierRoomsAfter(state) : {}),
    episodes: state.learned.episodes + 1,
    bestScore: Math.max(state.learned.bestScore, state.truth.score),
    overallGoal: state.beliefs.overallGoal,
    memory: state.memory,
  };
}

/** The frontier by room (see learned.frontierRooms): the earlier rooms this episode made no command in, then its own finds. */
function frontierRoomsAfter(state: AgentState): Pick<LearnedState, 'frontierRooms'> {
  let rooms = frontierRoomsNotActedIn(state);
  for (const room of state.discoveredRooms) rooms = pushOnce(rooms, room, LIMITS.frontier);
  return rooms.length || state.learned.frontierRooms ? { frontierRooms: rooms } : {};
}

export function episodeResult(
  state: AgentState,
  config: EpisodeConfig,
  stopped: boolean,
  transcriptPath: string,
  storyFault: StoryFault | null = null,
): EpisodeResult {
  return {
    game: config.game,
    storyMd5: state.story.md5,
    seed: config.seed,
    policy: config.policy,
    assist: config.assist,
    score: state.truth.score,
    peakScore: Math.max(state.peakScore ?? state.truth.score, state.truth.score),
    maxScore: state.story.maxScore,
    moves: state.truth.moves,
    turns: state.turn,
    victory: state.truth.victory,
    died: state.truth.died,
    stopped,
    ...(storyFault ? { storyFault } : {}),
    transcriptPath,
    learned: learnedAfter(state),
    ...(config.policy === 'full'
      ? { llm: state.llm, recommendationAccuracy: accuracy(state.learned.reliability, 'recommendation'), beliefs: state.beliefs }
      : {}),
  };
}
