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
import { z } from 'zod';
import { ThoughtboxSession, ThoughtboxSessionSchema } from '../agent/thoughtbox/schema';
import { describeZodError } from '../schemas/describe';
import { TurnRecord, TurnRecordSchema } from '../schemas/episode';

const ChunkInputSchema = z.object({ turns: z.array(TurnRecordSchema) });
const ThoughtsInputSchema = z.object({ session: ThoughtboxSessionSchema });

export interface EpisodeRecords {
  /** One record per turn, in turn order; a turn written twice (the last turn, amended at the end) is its later version. */
  turns: TurnRecord[];
  /** One session per turn, in turn order. */
  thoughts: ThoughtboxSession[];
}

/** A history that does not read as an episode's (another workflow type, or a grue too old or too new). */
export class EpisodeHistoryError extends Error {
  constructor(workflowId: string, problem: string) {
    super(`the history of ${workflowId} does not read as a grue episode's: ${problem}`);
    this.name = 'EpisodeHistoryError';
  }
}

/** Continue-as-new chains are bounded by maxTurns / continueAsNewEvery; this only stops a cycle. */
const MAX_RUNS = 100_000;

/**
 * Every turn and thoughtbox session of the episode `workflowId`, over all of its runs (each
 * continue-as-new starts a run whose history points at the one before). `runId` is the run to
 * read back from (default: the latest); `onRunRead` is called after each run's history is read
 * (an activity heartbeats there).
 */
export async function episodeRecordsFromHistory(client: Client, workflowId: string, runId?: string, onRunRead: () => void = () => undefined): Promise<EpisodeRecords> {
  const converter = client.options.loadedDataConverter;
  const decode = async (payload: Payload): Promise<unknown> => {
    let payloads = [payload];
    for (const codec of [...converter.payloadCodecs].reverse()) payloads = await codec.decode(payloads);
    return converter.payloadConverter.fromPayload(payloads[0]);
  };

  // Newest run first, following each run's pointer to the run it continued.
  const runs: Array<Awaited<ReturnType<ReturnType<Client['workflow']['getHandle']>['fetchHistory']>>> = [];
  for (let run: string | undefined = runId, read = 0; read < MAX_RUNS; read++) {
    const history = await client.workflow.getHandle(workflowId, run).fetchHistory();
    runs.push(history);
    onRunRead();
    const previous = history.events?.[0]?.workflowExecutionStartedEventAttributes?.continuedExecutionRunId;
    if (!previous) break;
    run = previous;
  }

  const turns = new Map<number, TurnRecord>();
  const thoughts = new Map<number, ThoughtboxSession>();
  for (const history of runs.reverse()) {
    for (const event of history.events ?? []) {
      const scheduled = event.activityTaskScheduledEventAttributes;
      const type = scheduled?.activityType?.name;
      if (type !== 'writeTranscriptChunk' && type !== 'writeThoughts') continue;
      const payload = scheduled?.input?.payloads?.[0];
      if (!payload) throw new EpisodeHistoryError(workflowId, `a ${type} activity without input (event ${event.eventId})`);
      const input = await decode(payload as Payload);
      if (type === 'writeTranscriptChunk') {
        const chunk = ChunkInputSchema.safeParse(input);
        if (!chunk.success) throw new EpisodeHistoryError(workflowId, `transcript chunk at event ${event.eventId}: ${describeZodError(chunk.error)}`);
        for (const turn of chunk.data.turns) turns.set(turn.turn, turn);
      } else {
        const written = ThoughtsInputSchema.safeParse(input);
        if (!written.success) throw new EpisodeHistoryError(workflowId, `thoughtbox session at event ${event.eventId}: ${describeZodError(written.error)}`);
        thoughts.set(written.data.session.turn, written.data.session);
      }
    }
  }
  const byTurn = <T extends { turn: number }>(records: Map<number, T>) => [...records.values()].sort((first, second) => first.turn - second.turn);
  return { turns: byTurn(turns), thoughts: byTurn(thoughts) };
}
