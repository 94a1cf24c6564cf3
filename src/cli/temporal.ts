/** Connecting the CLI to Temporal: a server (started when local and down), a client, an in-process worker. */
import {
  Client,
  WorkflowExecutionAlreadyStartedError,
  WorkflowHandleWithFirstExecutionRunId,
  WorkflowStartOptions,
} from '@temporalio/client';
import type { Workflow } from '@temporalio/common';
import { constants } from 'node:os';
import { PromiseCompletionTimeoutError, Worker } from '@temporalio/worker';
import { GrueConfig, loadConfig } from '../config';
import { connectClient, connectWorkerConnection, registerSearchAttributes } from '../temporal/connect';
import { ensureServer } from '../temporal/server';
import { providerFor } from '../activities';
import type { LlmProvider } from '../llm/types';
import { installRuntime, startTracing } from '../temporal/telemetry';
import { createGrueWorker } from '../worker';
import { UsageError } from './args';
import { log } from '../log';
import { DEFAULT_ADDRESS } from '../temporal/profile';

/** Config, a running server (started if local and down) and a client with grue's search attributes. */
export async function connect(config: GrueConfig = loadConfig()): Promise<{ config: GrueConfig; client: Client }> {
  await ensureServer({
    address: config.TEMPORAL_ADDRESS,
    dataDir: config.GRUE_DATA_DIR,
    uiPort: config.TEMPORAL_UI_PORT,
    secure: config.temporal.secure,
    unchosenAddress: config.TEMPORAL_ADDRESS === DEFAULT_ADDRESS,
    log,
  });
  // Before the client: with an OTLP endpoint configured, starting a workflow begins its trace.
  await startTracing(config, 'grue');
  const client = await connectClient(config);
  await registerSearchAttributes(client, config.TEMPORAL_NAMESPACE, config.temporal);
  return { config, client };
}

/**
 * Keep the worker's routine INFO lines out of the terminal while a progress bar is shown. The
 * in-process worker serves no metrics: it lives for one command, and a port of its own would
 * collide with a `grue worker` on the same machine (run one with --no-worker for metrics).
 */
export function quietWorkerLogs(): void {
  installRuntime({ logLevel: 'WARN' });
}

/**
 * The CLI was stopped (Ctrl-C, SIGTERM) while its in-process worker served a run: the run itself
 * is durable and waits in Temporal, so this says how to go on rather than reporting a failure.
 * The exit status is the shell's for the signal (130 for SIGINT).
 */
export class InterruptedError extends Error {
  readonly exitCode: number;
  constructor(signal: NodeJS.Signals | null, workflowId: string, goOn: string) {
    super(
      `stopped by ${signal ?? 'a signal'} before ${workflowId} finished. Nothing is lost: the workflow waits in ` +
        `Temporal for a worker; ${goOn}`,
    );
    this.name = 'InterruptedError';
    this.exitCode = 128 + (signal ? (constants.signals[signal] ?? 0) : 0);
  }
}

/** The signals on which Temporal's runtime shuts its workers down (its default shutdownSignals). */
const SHUTDOWN_SIGNALS: NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGQUIT', 'SIGUSR2'];

/**
 * Run `work` with an in-process worker serving the task queue until it settles. A signal shuts
 * the worker down before `work` ends: that is reported as an InterruptedError saying `goOn`.
 */
export async function withWorker<T>(config: GrueConfig, work: () => Promise<T>, stopped: { workflowId: string; goOn: string }): Promise<T> {
  quietWorkerLogs();
  const connection = await connectWorkerConnection(config);
  // The worker's LLMs are ours to close: an embedded model's host process outlives the worker otherwise.
  const providers: LlmProvider[] = [];
  // Which signal stopped the worker, for the message; removed in `finally`, so none is left behind.
  let signal: NodeJS.Signals | null = null;
  const onSignal = (received: NodeJS.Signals) => (signal ??= received);
  for (const s of SHUTDOWN_SIGNALS) process.on(s, onSignal);
  try {
    const worker: Worker = await createGrueWorker({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: config.GRUE_TASK_QUEUE,
      dataDir: config.GRUE_DATA_DIR,
      llm: (model) => {
        const provider = providerFor(model);
        providers.push(provider);
        return provider;
      },
    });
    return await worker.runUntil(work());
  } catch (err) {
    if (err instanceof PromiseCompletionTimeoutError) throw new InterruptedError(signal, stopped.workflowId, stopped.goOn);
    throw err;
  } finally {
    for (const s of SHUTDOWN_SIGNALS) process.off(s, onSignal);
    await Promise.all(providers.map((provider) => provider.close()));
    await connection.close();
  }
}

export function newWorkflowId(kind: string, game: string, seed: number): string {
  const name = game
    .split('/')
    .pop()!
    .replace(/\.[^.]+$/, '')
    .replace(/[^A-Za-z0-9_-]/g, '');
  const stamp = new Date().toISOString().replace(/[-:T]/g, '').slice(0, 14);
  return `grue-${kind}-${name}-s${seed}-${stamp}-${Math.random().toString(36).slice(2, 6)}`;
}

/**
 * Start a workflow under an id no earlier run used. Files are kept per workflow id, so a second
 * run under a finished run's id would write its turns over the first one's transcript; the id is
 * refused instead, saying where the earlier run's files are (`files`) and what to do.
 */
export async function startNew<T extends Workflow>(
  client: Client,
  workflow: T,
  options: WorkflowStartOptions<T>,
  files: string,
): Promise<WorkflowHandleWithFirstExecutionRunId<T>> {
  const id = options.workflowId;
  try {
    return await client.workflow.start(workflow, { ...options, workflowIdReusePolicy: 'REJECT_DUPLICATE' });
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    const status = await client.workflow
      .getHandle(id)
      .describe()
      .then(
        (d) => d.status.name,
        () => null,
      );
    const shown = JSON.stringify(id);
    if (status === 'RUNNING')
      throw new UsageError(
        `workflow id ${shown} is in use by a running workflow: follow it with \`grue status ${shown}\`, or choose another --id.`,
      );
    throw new UsageError(
      `workflow id ${shown} was used by an earlier run (${status?.toLowerCase() ?? 'closed'}), whose ` +
        `files are in ${files}: choose another --id, so that the two runs' transcripts stay apart.`,
    );
  }
}
