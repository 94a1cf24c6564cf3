/**
 * `grue transcript <id> --thoughts`: the run's thoughtbox sessions instead of its turns. Sessions
 * come from thoughts.jsonl and, while the run goes on, from its `thinking` query, which also
 * knows the session still in progress.
 */
import { z } from 'zod';
import { renderSessions } from '../agent/thoughtbox/render';
import { ThoughtboxSession, ThoughtboxSessionSchema } from '../agent/thoughtbox/schema';
import { log } from '../log';

const LiveSessionsSchema = z.array(ThoughtboxSessionSchema);

/**
 * One session per turn, in turn order. The live one wins: a turn being thought through is only
 * in the query, and the query's copy is never older than the file's.
 */
export function mergeSessions(recorded: readonly ThoughtboxSession[], live: readonly ThoughtboxSession[]): ThoughtboxSession[] {
  const byTurn = new Map<number, ThoughtboxSession>();
  for (const session of [...recorded, ...live]) byTurn.set(session.turn, session);
  return [...byTurn.values()].sort((first, second) => first.turn - second.turn);
}

/**
 * The query's answer crosses a process boundary (and may come from a worker on another build):
 * check it, and fall back to the file rather than fail on a shape this CLI does not know.
 */
export function liveSessions(answer: unknown): ThoughtboxSession[] {
  if (answer === null || answer === undefined) return [];
  const parsed = LiveSessionsSchema.safeParse(answer);
  if (parsed.success) return parsed.data;
  log('the running workflow answered the thinking query in a shape this grue does not read; showing the recorded sessions only');
  return [];
}

export function printThoughts(
  workflowId: string,
  recorded: readonly ThoughtboxSession[],
  liveAnswer: unknown,
  options: { json?: boolean; last?: number },
): void {
  let sessions = mergeSessions(recorded, liveSessions(liveAnswer));
  if (options.last) sessions = sessions.slice(-options.last);
  if (sessions.length === 0) {
    log(`no thoughtbox sessions recorded for ${workflowId}`);
    return;
  }
  process.stdout.write(options.json ? sessions.map((session) => `${JSON.stringify(session)}\n`).join('') : `${renderSessions(sessions)}\n`);
}
