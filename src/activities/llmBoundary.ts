/**
 * The activity boundary of every LLM call: a provider error that no retry can fix (bad request,
 * auth, unknown model, bad configuration) becomes a non-retryable ApplicationFailure; anything
 * else is rethrown for Temporal to retry, its message scrubbed of API keys either way. Every call
 * heartbeats on a timer while it runs (`keepAlive`).
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { LlmError, scrubbedError } from '../llm';

/** The longest gap between two heartbeats while an LLM call runs. */
export const LLM_HEARTBEAT_EVERY_MS = 10_000;

export async function classifiedLlmCall<T>(call: () => Promise<T>): Promise<T> {
  const stop = keepAlive();
  try {
    return await call();
  } catch (raw) {
    // Scrubbed before anything leaves the worker: an endpoint may echo the API key in its error.
    const err = scrubbedError(raw);
    if (err instanceof LlmError && !err.retryable) throw ApplicationFailure.nonRetryable(err.message, `LLM_${err.kind.toUpperCase().replace('-', '_')}`);
    throw err;
  } finally {
    stop();
  }
}

/**
 * Heartbeat on a timer for as long as the call runs, whatever the provider reports: a remote
 * endpoint says nothing until it answers, and an embedded model says nothing while it loads or
 * waits its turn. The heartbeat timeout then only notices a worker that died; a call that hangs
 * is ended by the provider's own timeout, which is below the activity's start-to-close timeout.
 */
function keepAlive(): () => void {
  let ctx: Context;
  try {
    ctx = Context.current();
  } catch {
    return () => undefined; // outside an activity (evaluation and benchmark scripts)
  }
  const timeout = ctx.info.heartbeatTimeoutMs;
  const every = Math.min(LLM_HEARTBEAT_EVERY_MS, timeout ? Math.max(50, Math.floor(timeout / 3)) : LLM_HEARTBEAT_EVERY_MS);
  const timer = setInterval(() => ctx.heartbeat(), every);
  return () => clearInterval(timer);
}
