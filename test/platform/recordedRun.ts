/**
 * Decision replay: re-run recorded workflows for real, with activities that answer from the
 * recording and check that every activity is called with the input it was called with then.
 *
 * Worker.runReplayHistories only checks the order and type of commands; an agent that picks a
 * different game command issues the same `stepGame` command and replays fine. Here the workflow
 * code really decides again, against the recorded observations, so a changed decision shows up
 * as a changed activity input.
 *
 * Recordings are test/histories/<workflowId>.json or <workflowId>@runN.json (one file per run of a
 * continue-as-new chain).
 */
import { Context } from '@temporalio/activity';
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { ApplicationFailure, defaultPayloadConverter, WorkflowNotFoundError } from '@temporalio/common';
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import type { temporal } from '@temporalio/proto';
import { Worker } from '@temporalio/worker';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { workflowBundle } from './env';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;
type Failure = temporal.api.failure.v1.IFailure;
type ActivityFn = (...args: unknown[]) => Promise<unknown>;

export type RecordedOutcome =
  | { kind: 'completed'; result: unknown }
  | { kind: 'failed'; message: string; type: string }
  /** Scheduled, but the recording ends before the activity did. */
  | { kind: 'unfinished' };

export interface RecordedActivity {
  /** 1-based position in the whole chain. */
  index: number;
  run: number;
  type: string;
  input: unknown[];
  outcome: RecordedOutcome;
}

export interface RecordedChain {
  workflowId: string;
  workflowType: string;
  /** The arguments run 1 started with (later runs get theirs from continue-as-new). */
  input: unknown[];
  activities: RecordedActivity[];
  /** Children this chain started, with their result as the parent saw it (if it saw one). */
  children: Array<{ workflowId: string; result?: unknown }>;
  /** What the last run returned, when the recording ends with a completion. */
  result?: { value: unknown };
}

// ---------------------------------------------------------------------------------------------
// Reading recordings

const decode = (payloads: temporal.api.common.v1.IPayloads | null | undefined): unknown[] =>
  (payloads?.payloads ?? []).map((p) => defaultPayloadConverter.fromPayload(p));

function runFiles(dir: string): Map<string, string[]> {
  const byId = new Map<string, Array<{ run: number; file: string }>>();
  for (const file of readdirSync(dir).filter((f) => f.endsWith('.json'))) {
    const m = /^(.*?)(?:@run(\d+))?\.json$/.exec(file)!;
    const runs = byId.get(m[1]) ?? [];
    runs.push({ run: Number(m[2] ?? 1), file });
    byId.set(m[1], runs);
  }
  return new Map([...byId].map(([id, runs]) => [id, runs.sort((a, b) => a.run - b.run).map((r) => join(dir, r.file))]));
}

function recordedFailure(failure: Failure | null | undefined, fallbackType: string): { message: string; type: string } {
  return { message: failure?.message ?? fallbackType, type: failure?.applicationFailureInfo?.type || fallbackType };
}

/** How each scheduled activity ended, by the id of its ActivityTaskScheduled event. */
function outcomesByScheduledId(events: HistoryEvent[]): Map<string, RecordedOutcome> {
  const outcomes = new Map<string, RecordedOutcome>();
  for (const e of events) {
    const done = e.activityTaskCompletedEventAttributes;
    const failed = e.activityTaskFailedEventAttributes;
    const timedOut = e.activityTaskTimedOutEventAttributes;
    const canceled = e.activityTaskCanceledEventAttributes;
    if (done) outcomes.set(String(done.scheduledEventId), { kind: 'completed', result: decode(done.result)[0] });
    if (failed) outcomes.set(String(failed.scheduledEventId), { kind: 'failed', ...recordedFailure(failed.failure, 'ActivityFailure') });
    if (timedOut)
      outcomes.set(String(timedOut.scheduledEventId), { kind: 'failed', ...recordedFailure(timedOut.failure, 'ActivityTimeout') });
    if (canceled)
      outcomes.set(String(canceled.scheduledEventId), { kind: 'failed', message: 'activity canceled', type: 'ActivityCanceled' });
  }
  return outcomes;
}

function childrenOf(events: HistoryEvent[]): RecordedChain['children'] {
  const results = new Map<string, unknown>();
  for (const e of events) {
    const done = e.childWorkflowExecutionCompletedEventAttributes;
    if (done?.workflowExecution?.workflowId) results.set(done.workflowExecution.workflowId, decode(done.result)[0]);
  }
  return events
    .map((e) => e.startChildWorkflowExecutionInitiatedEventAttributes?.workflowId)
    .filter((id): id is string => !!id)
    .map((workflowId) => (results.has(workflowId) ? { workflowId, result: results.get(workflowId) } : { workflowId }));
}

function readChain(workflowId: string, files: string[]): RecordedChain {
  const runs = files.map((f) => historyFromJSON(JSON.parse(readFileSync(f, 'utf8'))).events ?? []);
  const started = runs[0][0]?.workflowExecutionStartedEventAttributes;
  if (!started) throw new Error(`${files[0]}: the first event is not WorkflowExecutionStarted`);
  const activities: RecordedActivity[] = [];
  runs.forEach((events, i) => {
    const outcomes = outcomesByScheduledId(events);
    for (const e of events) {
      const scheduled = e.activityTaskScheduledEventAttributes;
      if (!scheduled) continue;
      activities.push({
        index: activities.length + 1,
        run: i + 1,
        type: scheduled.activityType?.name ?? '?',
        input: decode(scheduled.input),
        outcome: outcomes.get(String(e.eventId)) ?? { kind: 'unfinished' },
      });
    }
  });
  const last = runs[runs.length - 1];
  const completed = last[last.length - 1]?.workflowExecutionCompletedEventAttributes;
  return {
    workflowId,
    workflowType: started.workflowType?.name ?? '?',
    input: decode(started.input),
    activities,
    children: runs.flatMap(childrenOf),
    ...(completed ? { result: { value: decode(completed.result)[0] } } : {}),
  };
}

/** Every recorded chain in `dir`, by workflow id. */
export function loadRecordedChains(dir: string): Map<string, RecordedChain> {
  return new Map([...runFiles(dir)].map(([id, files]) => [id, readChain(id, files)]));
}

/** Chains nobody in the recordings started as a child: the ones a test starts itself. */
export function rootChains(chains: Map<string, RecordedChain>): RecordedChain[] {
  const children = new Set([...chains.values()].flatMap((c) => c.children.map((k) => k.workflowId)));
  return [...chains.values()].filter((c) => !children.has(c.workflowId));
}

// ---------------------------------------------------------------------------------------------
// Answering from recordings

export interface Mismatch {
  workflowId: string;
  /** The recorded activity expected at this point, or null when the run called more than was recorded. */
  expected: RecordedActivity | null;
  actual: { index: number; type: string; input: unknown[] };
  /** Where the inputs differ (empty when the type differs). */
  differences: Difference[];
}

/** JSON values, as they went over the wire: what the recording holds. */
const asJson = (v: unknown): unknown => (v === undefined ? undefined : JSON.parse(JSON.stringify(v)));

/**
 * Fields that measure time rather than record a decision: a turn record's elapsedMs. A re-run
 * answered from recordings takes milliseconds where the recorded run took seconds, so these are
 * left out when inputs are compared; everything else must match.
 */
const MEASUREMENTS = new Set(['elapsedMs']);
export function withoutMeasurements(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(withoutMeasurements);
  if (typeof v !== 'object' || v === null) return v;
  return Object.fromEntries(
    Object.entries(v)
      .filter(([k]) => !MEASUREMENTS.has(k))
      .map(([k, x]) => [k, withoutMeasurements(x)]),
  );
}

/**
 * Hands out recorded outcomes, per workflow id in call order. After the first mismatch in a
 * workflow every further call fails: the recording says nothing about a run that went elsewhere,
 * and failing fast ends that workflow instead of letting it wander.
 */
export class RecordedActivities {
  readonly mismatches: Mismatch[] = [];
  private readonly cursor = new Map<string, number>();
  private readonly diverged = new Set<string>();

  constructor(private readonly chains: Map<string, RecordedChain>) {}

  /** One fake per activity name: the names in the recordings plus `names` (what the worker really registers). */
  activities(names: string[]): Record<string, ActivityFn> {
    const recorded = [...this.chains.values()].flatMap((c) => c.activities.map((a) => a.type));
    return Object.fromEntries([...new Set([...names, ...recorded])].map((name) => [name, (...args: unknown[]) => this.answer(args)]));
  }

  /** Recorded activities not (yet) called, per workflow id. */
  unconsumed(workflowId: string): RecordedActivity[] {
    return this.chains.get(workflowId)?.activities.slice(this.cursor.get(workflowId) ?? 0) ?? [];
  }

  private async answer(args: unknown[]): Promise<unknown> {
    const { workflowExecution, activityType } = Context.current().info;
    const workflowId = workflowExecution?.workflowId ?? '(no workflow)';
    const chain = this.chains.get(workflowId);
    if (!chain)
      throw ApplicationFailure.nonRetryable(`${workflowId} has no recording: record every workflow a recording starts`, 'NoRecording');
    if (this.diverged.has(workflowId)) {
      throw ApplicationFailure.nonRetryable(`${workflowId} already left its recording`, 'DecisionReplayDiverged');
    }
    const position = this.cursor.get(workflowId) ?? 0;
    const expected = chain.activities[position] ?? null;
    const input = asJson(args) as unknown[];
    const sameType = expected?.type === activityType;
    const differing = sameType ? differences(withoutMeasurements(expected!.input), withoutMeasurements(input)) : [];
    if (!sameType || differing.length) {
      this.diverged.add(workflowId);
      this.mismatches.push({ workflowId, expected, actual: { index: position + 1, type: activityType, input }, differences: differing });
      throw ApplicationFailure.nonRetryable(`${workflowId} left its recording at activity #${position + 1}`, 'DecisionReplayDiverged');
    }
    this.cursor.set(workflowId, position + 1);
    return this.replay(expected.outcome);
  }

  private replay(outcome: RecordedOutcome): unknown {
    if (outcome.kind === 'completed') return outcome.result;
    // Non-retryable, so the workflow's retry policy cannot turn one recorded call into several.
    if (outcome.kind === 'failed') throw ApplicationFailure.nonRetryable(outcome.message, outcome.type);
    throw ApplicationFailure.nonRetryable('the recording ends before this activity finished', 'UnfinishedInRecording');
  }
}

// ---------------------------------------------------------------------------------------------
// Running

/** How a re-run ended; `error` reads "never started" or "failed: <error <- cause <- ...>". */
export type RunOutcome = { ok: true; result: unknown } | { ok: false; error: string };

export interface DecisionReplay {
  recorded: RecordedActivities;
  /** How each workflow ended in the re-run: every recorded chain, and every child a recording names. */
  outcomes: Map<string, RunOutcome>;
}

/** An error with its causes, outermost first: the innermost usually says what really happened. */
function causeChain(err: unknown): string {
  const messages: string[] = [];
  for (let e = err as { message?: string; cause?: unknown } | undefined; e; e = e.cause as typeof e) messages.push(e.message ?? String(e));
  return messages.join(' <- ');
}

async function outcomeOf(result: Promise<unknown>): Promise<RunOutcome> {
  try {
    return { ok: true, result: asJson(await result) };
  } catch (err) {
    // A child whose parent failed before starting it.
    if (err instanceof WorkflowNotFoundError) return { ok: false, error: 'never started' };
    return { ok: false, error: `failed: ${causeChain(err)}` };
  }
}

/**
 * Starts every root chain with its recorded id and first-run input on one worker that answers
 * from the recordings, waits for all of them, then collects how the recorded children ended.
 */
export async function replayDecisions(
  env: TestWorkflowEnvironment,
  chains: Map<string, RecordedChain>,
  opts: { taskQueue: string; activityNames: string[] },
): Promise<DecisionReplay> {
  const recorded = new RecordedActivities(chains);
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue: opts.taskQueue,
    workflowBundle: await workflowBundle(),
    activities: recorded.activities(opts.activityNames),
  });
  const outcomes = new Map<string, RunOutcome>();
  await worker.runUntil(async () => {
    const roots = rootChains(chains);
    const handles = await Promise.all(
      roots.map((c) => env.client.workflow.start(c.workflowType, { taskQueue: opts.taskQueue, workflowId: c.workflowId, args: c.input })),
    );
    const results = await Promise.all(handles.map((h) => outcomeOf(h.result())));
    roots.forEach((c, i) => outcomes.set(c.workflowId, results[i]));
    const children = [...chains.values()].flatMap((c) => c.children.map((k) => k.workflowId));
    for (const id of new Set([...chains.keys(), ...children])) {
      if (!outcomes.has(id)) outcomes.set(id, await outcomeOf(env.client.workflow.getHandle(id).result()));
    }
  });
  return { recorded, outcomes };
}

// ---------------------------------------------------------------------------------------------
// Reporting

export interface Difference {
  path: string;
  expected: unknown;
  actual: unknown;
}

/** Where two JSON values differ, as paths like `[0].command` (a missing key shows as undefined). */
export function differences(expected: unknown, actual: unknown, path = ''): Difference[] {
  if (isDeepStrictEqual(expected, actual)) return [];
  const bothArrays = Array.isArray(expected) && Array.isArray(actual);
  const bothObjects = isPlainObject(expected) && isPlainObject(actual);
  if (bothArrays && expected.length === actual.length) {
    return expected.flatMap((e, i) => differences(e, actual[i], `${path}[${i}]`));
  }
  if (bothObjects) {
    const keys = [...new Set([...Object.keys(expected), ...Object.keys(actual)])];
    return keys.flatMap((k) => differences(expected[k], actual[k], `${path}.${k}`));
  }
  return [{ path: path || '(whole value)', expected, actual }];
}

const isPlainObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

function show(v: unknown, max = 300): string {
  const text = v === undefined ? 'undefined' : JSON.stringify(v);
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}

/** The differing paths, the first few in full. */
export function describeDifferences(diffs: Difference[], max = 6): string {
  const lines = diffs
    .slice(0, max)
    .flatMap((d) => [`    ${d.path}`, `      recorded: ${show(d.expected)}`, `      actual:   ${show(d.actual)}`]);
  if (diffs.length > max) lines.push(`    … and ${diffs.length - max} more differing paths`);
  return lines.join('\n');
}

/** What a developer reads when an agent change makes a re-run call an activity differently. */
export function describeMismatch(m: Mismatch): string {
  const { expected, actual } = m;
  const where = `${m.workflowId}, activity #${actual.index}`;
  if (!expected) {
    return `${where}: the re-run called ${actual.type} after the recording had ended\n    input: ${show(actual.input)}`;
  }
  const head = `${where} (run ${expected.run}):`;
  if (expected.type !== actual.type) {
    return [
      `${head} recorded ${expected.type}, the re-run called ${actual.type}`,
      `    recorded input: ${show(expected.input)}`,
      `    actual input:   ${show(actual.input)}`,
    ].join('\n');
  }
  return `${head} ${actual.type} was called with a different input\n${describeDifferences(m.differences)}`;
}
