/**
 * The activity boundary of every LLM call: a provider error that no retry can fix (bad request,
 * auth, unknown model, bad configuration) becomes a non-retryable ApplicationFailure; anything
 * else is rethrown for Temporal to retry, its message scrubbed of API keys either way. Every call
 * heartbeats on a timer while it runs (`keepAlive`), and is counted and put on the activity's
 * span with its model, tokens and outcome (src/telemetry/metrics.ts).
 */
import { ApplicationFailure } from '@temporalio/common';
import { describeProvider, LlmError, LlmProvider, scrubbedError } from '../llm';
import type { Usage } from '../llm/types';
import { llmFailureType } from '../schemas/llmFailure';
import { lastAttempt, observeLlmCall } from '../telemetry/metrics';
import { currentActivity } from '../telemetry/activityContext';

/** The longest gap between two heartbeats while an LLM call runs. */
export const LLM_HEARTBEAT_EVERY_MS = 10_000;

export async function classifiedLlmCall<T extends { usage: Usage }>(provider: LlmProvider, call: () => Promise<T>): Promise<T> {
  const stop = keepAlive();
  const observed = observeLlmCall(describeProvider(provider));
  let result: T;
  try {
    result = await call();
  } catch (raw) {
    // Scrubbed before anything leaves the worker: an endpoint may echo the API key in its error.
    const err = scrubbedError(raw);
    const permanent = err instanceof LlmError && !err.retryable;
    const kind = err instanceof LlmError ? err.failure : 'unreachable';
    // A failure on the last attempt is a fallback: the workflow plays on without this answer.
    await observed(lastAttempt(permanent) ? 'fallback' : 'error', undefined, kind);
    // The failure's type carries the provider's kind, so the workflow can name it (llmFailureKindOf).
    const type = err instanceof LlmError ? llmFailureType(err.kind) : err.name;
    throw ApplicationFailure.create({ message: err.message, type, nonRetryable: permanent });
  } finally {
    stop();
  }
  await observed('ok', result.usage);
  return result;
}

/**
 * Heartbeat on a timer for as long as the call runs, whatever the provider reports: a remote
 * endpoint says nothing until it answers, and an embedded model says nothing while it loads or
 * waits its turn. The heartbeat timeout then only notices a worker that died; a call that hangs
 * is ended by the provider's own timeout, which is below the activity's start-to-close timeout.
 */
function keepAlive(): () => void {
  const ctx = currentActivity();
  if (!ctx) return () => undefined;
  const timeout = ctx.info.heartbeatTimeoutMs;
  const every = Math.min(LLM_HEARTBEAT_EVERY_MS, timeout ? Math.max(50, Math.floor(timeout / 3)) : LLM_HEARTBEAT_EVERY_MS);
  const timer = setInterval(() => ctx.heartbeat(), every);
  return () => clearInterval(timer);
}
