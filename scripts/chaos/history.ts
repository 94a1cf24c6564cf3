/**
 * What the chaos suite reads from histories and disks: retries (attempts beyond the first), turns
 * played twice (more stepGame activities scheduled than turns), and every place a secret could
 * have leaked to.
 */
import type { Client } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { RunHistory } from '../../src/temporal/episodeHistory';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

export interface ActivityCounts {
  /** Attempts beyond the first, over every activity. */
  retries: number;
  /** stepGame activities scheduled (one per turn played, if no turn was played twice). */
  steps: number;
}

export function activityCounts(histories: RunHistory[]): ActivityCounts {
  let retries = 0;
  let steps = 0;
  for (const history of histories) {
    for (const event of history.events ?? []) {
      // The started event is written once, for the attempt that finished: its number counts the ones before.
      const attempt = event.activityTaskStartedEventAttributes?.attempt;
      if (attempt && attempt > 1) retries += attempt - 1;
      if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'stepGame') steps++;
    }
  }
  return { retries, steps };
}

function occurrences(haystack: Buffer, needle: Buffer): number {
  let count = 0;
  for (let at = haystack.indexOf(needle); at >= 0; at = haystack.indexOf(needle, at + 1)) count++;
  return count;
}

function filesUnder(path: string): string[] {
  if (!existsSync(path)) return [];
  if (!statSync(path).isDirectory()) return [path];
  return readdirSync(path).flatMap((name) => filesUnder(join(path, name)));
}

/**
 * Where the canary key appears: every workflow's history in the namespace (its encoded bytes,
 * payloads included), and every file under `paths` (the server's database and log, the workers'
 * logs and data dirs).
 */
export async function canaryHits(client: Client, canary: string, paths: string[]): Promise<Record<string, number>> {
  const needle = Buffer.from(canary);
  const hits: Record<string, number> = {};
  for await (const execution of client.workflow.list()) {
    const history = await client.workflow.getHandle(execution.workflowId, execution.runId).fetchHistory();
    const found = occurrences(Buffer.from(temporal.api.history.v1.History.encode(history).finish()), needle);
    if (found) hits[`history of ${execution.workflowId}`] = found;
  }
  for (const file of paths.flatMap(filesUnder)) {
    const found = occurrences(readFileSync(file), needle);
    if (found) hits[file] = found;
  }
  return hits;
}
