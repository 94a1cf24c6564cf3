/** Heartbeats for any activity: game turns while they probe, file writes while they read history, LLM work between steps. */
import { currentActivity } from '../telemetry/activityContext';

/** Heartbeats the current activity; a no-op when called outside one. */
export function heartbeat(): () => void {
  const ctx = currentActivity();
  return ctx ? () => ctx.heartbeat() : () => undefined;
}
