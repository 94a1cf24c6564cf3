/** Heartbeats for any activity: game turns while they probe, file writes while they read history, LLM work between steps. */
import { Context } from '@temporalio/activity';

/** The running activity's context, or null outside one (evaluation and benchmark scripts call activity code directly). */
export function currentActivity(): Context | null {
  try {
    return Context.current();
  } catch {
    return null;
  }
}

/** Heartbeats the current activity; a no-op when called outside one. */
export function heartbeat(): () => void {
  const ctx = currentActivity();
  return ctx ? () => ctx.heartbeat() : () => undefined;
}
