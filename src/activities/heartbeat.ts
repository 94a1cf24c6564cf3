/** Heartbeats for any activity: game turns while they probe, file writes while they read history, LLM work between steps. */
import { Context } from '@temporalio/activity';

/** Heartbeats the current activity; a no-op when called outside one (evaluation and benchmark scripts). */
export function heartbeat(): () => void {
  try {
    const ctx = Context.current();
    return () => ctx.heartbeat();
  } catch {
    return () => undefined;
  }
}
