/**
 * An episode's turns and thoughtbox sessions read back from its Temporal history, the source of
 * truth: every `writeTranscriptChunk` and `writeThoughts` the workflow scheduled carries its
 * records as input, so the history holds all of them whichever worker's disk each write landed
 * on. The files under GRUE_DATA_DIR are views of this; `grue transcript` and the final
 * transcript.jsonl are materialised from here, so workers on several machines (each with its own
 * data dir) still give one complete transcript.
 */
import type { Client } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { z } from 'zod';
import { ThoughtboxSession, ThoughtboxSessionSchema } from '../agent/thoughtbox/schema';
import { describeZodError } from '../schemas/describe';
import { TurnRecord, TurnRecordSchema } from '../agent/records';
import { EpisodeHistoryError, EpisodeRecords } from '../activities/episodeRecords';

export { EpisodeHistoryError } from '../activities/episodeRecords';
export type { EpisodeRecords } from '../activities/episodeRecords';

const ChunkInputSchema = z.object({ turns: z.array(TurnRecordSchema) });
const ThoughtsInputSchema = z.object({ session: ThoughtboxSessionSchema });

/** Continue-as-new chains are bounded by maxTurns / continueAsNewEvery; this only stops a cycle. */
const MAX_RUNS = 100_000;

export type RunHistory = Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>;

/**
 * The history of every run of `workflowId`, oldest first, reading back from `runId` (default: the
 * latest) along each run's pointer to the run it continued; `onRunRead` is called after each.
 */
export async function runHistories(
  client: Client,
  workflowId: string,
  runId?: string,
  onRunRead: () => void = () => undefined,
): Promise<RunHistory[]> {
  const runs: RunHistory[] = [];
  for (let run: string | undefined = runId, read = 0; read < MAX_RUNS; read++) {
    const history = await client.workflow.getHandle(workflowId, run).fetchHistory();
    runs.unshift(history);
    onRunRead();
    const previous = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (!previous) break;
    run = previous;
  }
  return runs;
}

/**
 * Every turn and thoughtbox session of the episode `workflowId`, over all of its runs (each
 * continue-as-new starts a run whose history points at the one before), read as `runHistories`
 * reads them (an activity heartbeats in `onRunRead`).
 */
export async function episodeRecordsFromHistory(
  client: Client,
  workflowId: string,
  runId?: string,
  onRunRead: () => void = () => undefined,
): Promise<EpisodeRecords> {
  const turns = new Map<number, TurnRecord>();
  const thoughts = new Map<number, ThoughtboxSession>();
  for (const history of await runHistories(client, workflowId, runId, onRunRead)) {
    for (const event of history.events ?? []) {
      const scheduled = event.activityTaskScheduledEventAttributes;
      const type = scheduled?.activityType?.name;
      if (type !== 'writeTranscriptChunk' && type !== 'writeThoughts') continue;
      const payloads = scheduled?.input?.payloads;
      if (!payloads?.length) throw new EpisodeHistoryError(workflowId, `a ${type} activity without input (event ${event.eventId})`);
      // Decoded as the client decodes any payload: its codecs, then its payload converter.
      const input = await decodeFromPayloadsAtIndex(client.options.loadedDataConverter, 0, payloads as Payload[]);
      if (type === 'writeTranscriptChunk') {
        const chunk = ChunkInputSchema.safeParse(input);
        if (!chunk.success)
          throw new EpisodeHistoryError(workflowId, `transcript chunk at event ${event.eventId}: ${describeZodError(chunk.error)}`);
        for (const turn of chunk.data.turns) turns.set(turn.turn, turn);
      } else {
        const written = ThoughtsInputSchema.safeParse(input);
        if (!written.success)
          throw new EpisodeHistoryError(workflowId, `thoughtbox session at event ${event.eventId}: ${describeZodError(written.error)}`);
        thoughts.set(written.data.session.turn, written.data.session);
      }
    }
  }
  const byTurn = <T extends { turn: number }>(records: Map<number, T>) =>
    [...records.values()].sort((first, second) => first.turn - second.turn);
  return { turns: byTurn(turns), thoughts: byTurn(thoughts) };
}
