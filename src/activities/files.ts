/**
 * Files are materialised views of workflow state: written atomically (temp file + rename),
 * idempotently (a retry writes the same bytes to the same name), with a backup of what they
 * replace. A workflow reads one back only where its history is gone (a suite's game results, a
 * campaign's checkpoint: suiteFiles.ts, campaignCheckpoint.ts), through an activity.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, copyFileSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { z } from 'zod';
import { ThoughtboxSession, ThoughtboxSessionSchema } from '../agent/thoughtbox/schema';
import { CampaignResult, CampaignResultSchema, TurnRecordSchema } from '../agent/records';
import { ExperimentResult, ExperimentResultSchema } from '../experiment/results';
import { describeZodError } from '../schemas/describe';
import { classified, parseInput } from './failures';
import { heartbeat } from './heartbeat';
import { EpisodeHistoryError, EpisodeRecords } from './episodeRecords';

/**
 * Reads an episode's records back from its history (src/temporal/episodeHistory.ts). A worker
 * always has one; without it (activity unit tests, in-process tools) the final transcript is
 * assembled from this worker's own chunk files, complete only when one data dir saw every write.
 */
export type EpisodeHistoryReader = (workflowId: string, runId?: string, onRunRead?: () => void) => Promise<EpisodeRecords>;

export function atomicWrite(path: string, content: string | Uint8Array, backup = false): void {
  mkdirSync(dirname(path), { recursive: true });
  if (backup && existsSync(path)) {
    if (readFileSync(path).equals(typeof content === 'string' ? Buffer.from(content) : content)) return;
    copyFileSync(path, `${path}.bak`);
  }
  const tmp = `${path}.tmp-${process.pid}-${Date.now()}`;
  writeFileSync(tmp, content);
  renameSync(tmp, path);
}

/** An id that is its own folder name: file-safe characters, not hidden, not too long. */
const FOLDER_SAFE_ID = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,119}$/;

/**
 * Workflow ids become folder names, one folder per id: an id that is already a safe name is used
 * as it is; any other id gets a readable form plus a hash of the whole id after a `~`, which a safe
 * name never contains, so `a b`, `a/b` and `a_b` keep three folders.
 */
export function safeName(id: string): string {
  if (FOLDER_SAFE_ID.test(id)) return id;
  const readable = id
    .replace(/[^A-Za-z0-9._-]+/g, '_')
    .replace(/^\./, '_')
    .slice(0, 80);
  return `${readable}~${createHash('sha256').update(id).digest('hex').slice(0, 16)}`;
}

const TranscriptChunkSchema = z.object({
  workflowId: z.string().min(1),
  turns: z.array(TurnRecordSchema).min(1),
});

const FinalizeSchema = z.object({ workflowId: z.string().min(1) });

/** Memory files are views of a module's state: plain names, no paths; JSON, or text for a name ending .md. */
const MemoryFilesSchema = z.object({
  workflowId: z.string().min(1),
  files: z
    .record(
      z.string().regex(/^[a-z][a-z0-9_-]{0,40}(\.md)?$/, 'a memory file name is lower-case letters, digits, _ or -, optionally ending .md'),
      z.unknown(),
    )
    .superRefine((files, ctx) => {
      for (const [name, value] of Object.entries(files))
        if (name.endsWith('.md') && typeof value !== 'string')
          ctx.addIssue({ code: 'custom', path: [name], message: 'a .md memory file is text' });
    }),
});

/**
 * A text view written over its last version, which is kept as backups/<name>-NNNN.md first: the
 * history of what each write replaced. A retried write of the same text changes nothing.
 */
export function writeWithBackup(path: string, content: string): void {
  if (existsSync(path)) {
    const previous = readFileSync(path, 'utf8');
    if (previous === content) return;
    const backups = join(dirname(path), 'backups');
    mkdirSync(backups, { recursive: true });
    const stem = basename(path, '.md');
    const taken = readdirSync(backups)
      .filter((f) => new RegExp(`^${stem}-\\d{4}\\.md$`).test(f))
      .sort();
    // A write retried after a crash between its two steps finds its backup already made.
    const newest = taken.length ? readFileSync(join(backups, taken[taken.length - 1]), 'utf8') : null;
    if (newest !== previous) atomicWrite(join(backups, `${stem}-${String(taken.length + 1).padStart(4, '0')}.md`), previous);
  }
  atomicWrite(path, content);
}

const ThoughtsSchema = z.object({ workflowId: z.string().min(1), session: ThoughtboxSessionSchema });

const ResultsSchema = z.object({ campaignId: z.string().min(1), results: CampaignResultSchema.omit({ resultsPath: true }) });

const ExperimentResultsSchema = z.object({ experimentId: z.string().min(1), results: ExperimentResultSchema.omit({ resultsPath: true }) });

export const campaignResultsPath = (dataDir: string, campaignId: string) =>
  join(dataDir, 'campaigns', safeName(campaignId), 'results.json');
export const experimentResultsPath = (dataDir: string, experimentId: string) =>
  join(dataDir, 'experiments', safeName(experimentId), 'results.json');

/** A results file that is not what grue writes (truncated, edited, or from an incompatible version). */
export class ResultsFileError extends Error {
  constructor(path: string, problem: string) {
    super(`${path} is not a results file this grue can read: ${problem}`);
    this.name = 'ResultsFileError';
  }
}

/** A results file read back, checked against its schema: null when there is none. */
export function readResults<S extends z.ZodTypeAny>(path: string, schema: S): z.infer<S> | null {
  if (!existsSync(path)) return null;
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new ResultsFileError(path, err instanceof Error ? err.message : String(err));
  }
  const parsed = schema.safeParse(json);
  if (!parsed.success) throw new ResultsFileError(path, describeZodError(parsed.error));
  return parsed.data;
}

export const readCampaignResults = (dataDir: string, campaignId: string): CampaignResult | null =>
  readResults(campaignResultsPath(dataDir, campaignId), CampaignResultSchema);
export const readExperimentResults = (dataDir: string, experimentId: string): ExperimentResult | null =>
  readResults(experimentResultsPath(dataDir, experimentId), ExperimentResultSchema);

export function runDir(dataDir: string, workflowId: string): string {
  return join(dataDir, 'runs', safeName(workflowId));
}

/** Records as JSON Lines: one object a line, each line ended (nothing at all for no records). */
export function jsonLines(records: readonly unknown[]): string {
  return records.map((record) => `${JSON.stringify(record)}\n`).join('');
}

/** A JSON Lines file read back, each line checked against `schema` (blank lines skipped). */
export function readJsonLines<S extends z.ZodTypeAny>(path: string, schema: S): z.infer<S>[] {
  return readFileSync(path, 'utf8')
    .split('\n')
    .filter((line) => line.trim())
    .map((line) => schema.parse(JSON.parse(line)));
}

export function chunkName(fromTurn: number): string {
  return `turns-${String(fromTurn).padStart(7, '0')}.jsonl`;
}

/**
 * Every turn record this data dir holds for a workflow, in order, without duplicates: the final
 * transcript.jsonl (complete, read back from history, on the worker that finished the episode)
 * and the chunks this worker wrote (only its own share when workers have different data dirs).
 */
export function readTranscript(dataDir: string, workflowId: string): z.infer<typeof TurnRecordSchema>[] {
  const dir = join(runDir(dataDir, workflowId), 'turns');
  const chunks = existsSync(dir)
    ? readdirSync(dir)
        .filter((n) => /^turns-\d+\.jsonl$/.test(n))
        .sort()
        .map((n) => join(dir, n))
    : [];
  const final = join(runDir(dataDir, workflowId), 'transcript.jsonl');
  const byTurn = new Map<number, z.infer<typeof TurnRecordSchema>>();
  for (const path of [...(existsSync(final) ? [final] : []), ...chunks]) {
    for (const record of readJsonLines(path, TurnRecordSchema)) byTurn.set(record.turn, record);
  }
  return [...byTurn.values()].sort((a, b) => a.turn - b.turn);
}

export const thoughtsPath = (dataDir: string, workflowId: string) => join(runDir(dataDir, workflowId), 'thoughts.jsonl');

/** Every thoughtbox session written for a workflow, one per turn, in turn order. */
export function readThoughts(dataDir: string, workflowId: string): ThoughtboxSession[] {
  const path = thoughtsPath(dataDir, workflowId);
  return existsSync(path) ? readJsonLines(path, ThoughtboxSessionSchema) : [];
}

/** A history that cannot be read as an episode's will not read differently on a retry; a connection error will. */
async function readHistory(history: EpisodeHistoryReader, workflowId: string): Promise<EpisodeRecords> {
  try {
    // Read back from the run this activity belongs to, the last of its chain so far.
    return await history(workflowId, Context.current().info.workflowExecution?.runId, heartbeat());
  } catch (err) {
    if (err instanceof EpisodeHistoryError) throw ApplicationFailure.nonRetryable(err.message, err.name);
    throw err;
  }
}

export function createFileActivities(dataDir: string, history?: EpisodeHistoryReader) {
  return {
    async writeTranscriptChunk(raw: z.input<typeof TranscriptChunkSchema>): Promise<string> {
      const input = parseInput(TranscriptChunkSchema, raw, 'writeTranscriptChunk input');
      return classified(() => {
        const path = join(runDir(dataDir, input.workflowId), 'turns', chunkName(input.turns[0].turn));
        atomicWrite(path, jsonLines(input.turns));
        return path;
      });
    },

    /**
     * transcript.jsonl (and thoughts.jsonl, when the episode thought) as views of the episode's
     * history, which holds every chunk whichever worker wrote it; returns the transcript's path.
     */
    async finalizeTranscript(raw: z.input<typeof FinalizeSchema>): Promise<string> {
      const input = parseInput(FinalizeSchema, raw, 'finalizeTranscript input');
      const records = history ? await readHistory(history, input.workflowId) : null;
      return classified(() => {
        const turns = records?.turns ?? readTranscript(dataDir, input.workflowId);
        const path = join(runDir(dataDir, input.workflowId), 'transcript.jsonl');
        atomicWrite(path, jsonLines(turns), true);
        if (records?.thoughts.length) atomicWrite(thoughtsPath(dataDir, input.workflowId), jsonLines(records.thoughts));
        return path;
      });
    },

    /**
     * Each file as <run dir>/memory/<name>.json (or <name>.md), atomically, keeping what it replaces (.bak;
     * .md files keep every version).
     */
    async writeMemoryFiles(raw: z.input<typeof MemoryFilesSchema>): Promise<string[]> {
      const input = parseInput(MemoryFilesSchema, raw, 'writeMemoryFiles input');
      return classified(() =>
        Object.entries(input.files).map(([name, value]) => {
          const dir = join(runDir(dataDir, input.workflowId), 'memory');
          if (name.endsWith('.md')) {
            writeWithBackup(join(dir, name), value as string);
            return join(dir, name);
          }
          const path = join(dir, `${name}.json`);
          atomicWrite(path, JSON.stringify(value, null, 2) + '\n', true);
          return path;
        }),
      );
    },

    /**
     * The session into thoughts.jsonl, replacing any line of the same turn: a retry, or a turn
     * replayed after a crash, leaves one line per turn.
     */
    async writeThoughts(raw: z.input<typeof ThoughtsSchema>): Promise<string> {
      const input = parseInput(ThoughtsSchema, raw, 'writeThoughts input');
      return classified(() => {
        const sessions = readThoughts(dataDir, input.workflowId).filter((s) => s.turn !== input.session.turn);
        const all = [...sessions, input.session].sort((a, b) => a.turn - b.turn);
        const path = thoughtsPath(dataDir, input.workflowId);
        atomicWrite(path, jsonLines(all));
        return path;
      });
    },

    async writeResults(raw: z.input<typeof ResultsSchema>): Promise<string> {
      const input = parseInput(ResultsSchema, raw, 'writeResults input');
      return classified(() => {
        const path = campaignResultsPath(dataDir, input.campaignId);
        atomicWrite(path, JSON.stringify({ ...input.results, resultsPath: path }, null, 2) + '\n', true);
        return path;
      });
    },

    /** An experiment's summary as .grue/experiments/<id>/results.json (each arm's campaign has its own results.json too). */
    async writeExperimentResults(raw: z.input<typeof ExperimentResultsSchema>): Promise<string> {
      const input = parseInput(ExperimentResultsSchema, raw, 'writeExperimentResults input');
      return classified(() => {
        const path = experimentResultsPath(dataDir, input.experimentId);
        atomicWrite(path, JSON.stringify({ ...input.results, resultsPath: path }, null, 2) + '\n', true);
        return path;
      });
    },
  };
}

export type FileActivities = ReturnType<typeof createFileActivities>;
