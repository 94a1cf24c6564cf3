/**
 * The activity boundary of every LLM call: a provider error that no retry can fix (bad request,
 * auth, unknown model, bad configuration) becomes a non-retryable ApplicationFailure; anything
 * else is rethrown for Temporal to retry. Long generations heartbeat through `heartbeat()`.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { LlmError } from '../llm';

export async function classifiedLlmCall<T>(call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    if (err instanceof LlmError && !err.retryable) throw ApplicationFailure.nonRetryable(err.message, `LLM_${err.kind.toUpperCase().replace('-', '_')}`);
    throw err;
  }
}

/** Heartbeats the current activity; a no-op when called outside one (evaluation and benchmark scripts). */
export function heartbeat(): () => void {
  try {
    const ctx = Context.current();
    return () => ctx.heartbeat();
  } catch {
    return () => undefined;
  }
}
