/**
 * grue's own metrics and span attributes, recorded from inside activities: counters go to the
 * activity's metric meter (the Runtime's, so they come out of the worker's Prometheus endpoint
 * beside the SDK's, tagged with namespace, taskQueue and activityType), attributes to the
 * activity's span when tracing is on. Outside an activity (evaluation and benchmark scripts call
 * the same code) every helper does nothing; with tracing off the span is absent and the
 * attribute calls are no-ops.
 *
 * Counters count at least once: an attempt whose result was lost with its worker counts again
 * when it is retried.
 */
import { trace } from '@opentelemetry/api';
import type { Attributes } from '@opentelemetry/api';
import type { Context } from '@temporalio/activity';
import { currentActivity } from './activityContext';
import type { MetricTags } from '@temporalio/common';
import type { Usage } from '../llm/types';
import type { LlmFailureKind } from '../schemas/llmFailure';
import { GAME_KEY } from '../schemas/searchAttributes';

interface CounterSpec {
  name: string;
  unit?: string;
  description: string;
}

/** Every counter grue exports. Names carry their own `_total`: the exporter adds no suffix (see runtime.ts). */
export const COUNTERS = {
  turns: { name: 'grue_turns_total', description: 'Game turns played (stepGame activities completed), by game' },
  llmCalls: {
    name: 'grue_llm_calls_total',
    description:
      'LLM calls by game, model and outcome: ok; error (will be retried); fallback (failed for good, the episode plays on without it); ' +
      'failed calls also by failure: unreachable, refused, invalid answer, timed out',
  },
  promptTokens: {
    name: 'grue_llm_prompt_tokens_total',
    unit: 'tokens',
    description: 'Prompt tokens of answered LLM calls, by game and model',
  },
  completionTokens: {
    name: 'grue_llm_completion_tokens_total',
    unit: 'tokens',
    description: 'Completion tokens of answered LLM calls, by game and model',
  },
  fallbacks: {
    name: 'grue_llm_fallbacks_total',
    description: 'LLM activities given up (last attempt failed, or an error no retry fixes): the episode played on without their answer',
  },
  compactions: { name: 'grue_compactions_total', description: 'Compaction answers (compact activities completed), by game and model' },
  thoughts: {
    name: 'grue_thoughts_total',
    description: 'Thoughtbox answers (think activities completed), by game, model and answer (step, invalid, none)',
  },
  knowledgeUpdates: {
    name: 'grue_knowledge_updates_total',
    description: 'Knowledge update answers (updateKnowledge activities completed), by game and model',
  },
} as const satisfies Record<string, CounterSpec>;

export type LlmOutcome = 'ok' | 'error' | 'fallback';
/** The game tag when an LLM activity's episode cannot be looked up. */
export const UNKNOWN_GAME = 'unknown';

/** Telemetry never fails the work it watches. */
function count(ctx: Context, counter: CounterSpec, tags: MetricTags, value = 1): void {
  try {
    if (value > 0) ctx.metricMeter.createCounter(counter.name, counter.unit, counter.description).add(value, tags);
  } catch {
    // a metric lost is better than a turn lost
  }
}

function annotate(attributes: Attributes): void {
  try {
    trace.getActiveSpan()?.setAttributes(attributes);
  } catch {
    // as above
  }
}

// ── the game of an activity's episode ───────────────────────────────────────────────────────

/**
 * Turns carry their game in their input; LLM requests do not (and adding it would change every
 * recorded history's activity inputs). The game of an episode is remembered from its turns on
 * this worker, or read once from the episode's GrueGame search attribute.
 */
const REMEMBERED_EPISODES = 1000;
const LOOKUP_TIMEOUT_MS = 5000;
const games = new Map<string, string>();

function remember(workflowId: string, game: string): string {
  games.delete(workflowId);
  games.set(workflowId, game);
  if (games.size > REMEMBERED_EPISODES) games.delete(games.keys().next().value!);
  return game;
}

function rememberEpisodeGame(ctx: Context, game: string): void {
  const workflowId = ctx.info.workflowExecution?.workflowId;
  if (workflowId) remember(workflowId, game);
}

async function gameOf(ctx: Context): Promise<string> {
  const workflowId = ctx.info.workflowExecution?.workflowId;
  if (!workflowId) return UNKNOWN_GAME;
  const known = games.get(workflowId);
  if (known) return known;
  let timer: NodeJS.Timeout | undefined;
  try {
    const lookup = ctx.client.workflow
      .getHandle(workflowId)
      .describe()
      .then((description) => description.typedSearchAttributes.get(GAME_KEY));
    const timeout = new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), LOOKUP_TIMEOUT_MS)));
    const found = await Promise.race([lookup, timeout]);
    // Only a game found is kept: a failed lookup is tried again by the episode's next call.
    return found ? remember(workflowId, found) : UNKNOWN_GAME;
  } catch {
    return UNKNOWN_GAME;
  } finally {
    clearTimeout(timer);
  }
}

// ── what activities record ──────────────────────────────────────────────────────────────────

/** A game started: its episode's game is remembered for the LLM calls that follow. */
export function recordGameStart(game: string): void {
  const ctx = currentActivity();
  if (!ctx) return;
  rememberEpisodeGame(ctx, game);
  annotate({ 'grue.game': game });
}

/** A turn played: counted by game; the span gets the game, the command and where it left the player. */
export function recordTurn(
  game: string,
  turn: { command: string; truth: { score: number; moves: number; location: { name: string } } },
): void {
  const ctx = currentActivity();
  if (!ctx) return;
  rememberEpisodeGame(ctx, game);
  count(ctx, COUNTERS.turns, { game });
  annotate({
    'grue.game': game,
    'grue.command': turn.command,
    'grue.score': turn.truth.score,
    'grue.moves': turn.truth.moves,
    'grue.location': turn.truth.location.name,
  });
}

/**
 * Begin observing one LLM call (`model` as describeProvider gives it); the returned function
 * records how it ended. The episode's game is looked up while the call runs.
 */
export function observeLlmCall(model: string): (outcome: LlmOutcome, usage?: Usage, failure?: LlmFailureKind) => Promise<void> {
  const ctx = currentActivity();
  if (!ctx) return async () => undefined;
  const game = gameOf(ctx);
  return async (outcome, usage, failure) => {
    const tags = { game: await game, model };
    // A failed call names its kind (unreachable, refused, invalid answer, timed out).
    count(ctx, COUNTERS.llmCalls, { ...tags, outcome, ...(failure ? { failure } : {}) });
    if (outcome === 'fallback') count(ctx, COUNTERS.fallbacks, tags);
    if (usage) {
      count(ctx, COUNTERS.promptTokens, tags, usage.promptTokens);
      count(ctx, COUNTERS.completionTokens, tags, usage.completionTokens);
    }
    annotate({
      'grue.game': tags.game,
      'grue.llm.model': model,
      'grue.llm.outcome': outcome,
      ...(failure ? { 'grue.llm.failure': failure } : {}),
      ...(usage ? { 'grue.llm.prompt_tokens': usage.promptTokens, 'grue.llm.completion_tokens': usage.completionTokens } : {}),
    });
  };
}

/** What an LLM activity produced: a compaction, a thought (tagged with its answer kind) or a knowledge update. */
export async function recordLlmWork(
  counter: 'compactions' | 'thoughts' | 'knowledgeUpdates',
  model: string,
  tags: MetricTags = {},
): Promise<void> {
  const ctx = currentActivity();
  if (!ctx) return;
  count(ctx, COUNTERS[counter], { game: await gameOf(ctx), model, ...tags });
}

/** Whether a failed attempt was the activity's last: its retries are spent, or the error is one no retry fixes. */
export function lastAttempt(nonRetryable: boolean): boolean {
  if (nonRetryable) return true;
  const ctx = currentActivity();
  const maximum = ctx?.info.retryPolicy?.maximumAttempts;
  return ctx !== null && maximum !== undefined && maximum > 0 && ctx.info.attempt >= maximum;
}
