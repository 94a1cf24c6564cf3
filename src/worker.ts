/**
 * The grue worker: one task queue serving the episode and campaign workflows and all
 * activities. Run standalone with `grue worker`, or in-process by `grue play`.
 */
import { Client } from '@temporalio/client';
import { NativeConnection, Worker, WorkerOptions } from '@temporalio/worker';
import { connectWorkerConnection } from './temporal/connect';
import { createActivities } from './activities';
import { loadConfig } from './config';
import { episodeRecordsFromHistory } from './temporal/episodeHistory';
import { startWorkerTelemetry, tracingWorkerOptions, workflowTracingModules } from './temporal/telemetry';
import { cachedWorkflowBundle } from './temporal/workflowBundle';
import type { ProviderFactory } from './activities';

export interface GrueWorkerOptions {
  connection: NativeConnection;
  namespace: string;
  taskQueue: string;
  dataDir: string;
  /** Activities run at once. Turns are CPU-bound and short, so a few per core is plenty. */
  maxConcurrentActivities?: number;
  maxConcurrentWorkflowTasks?: number;
  /** A prebuilt workflow bundle; otherwise the cached one for this code (built on first use, see workflowBundle.ts). */
  workflowBundle?: WorkerOptions['workflowBundle'];
  /** The LLM the activities use (default: the configured provider); tests pass a scripted one. */
  /** Makes the provider for a model (null: the configured one); defaults to the environment's. */
  llm?: ProviderFactory;
}

export async function createGrueWorker(opts: GrueWorkerOptions): Promise<Worker> {
  // The final transcript is read back from the episode's history (see episodeHistory.ts), over the worker's own connection.
  const client = new Client({ connection: opts.connection, namespace: opts.namespace });
  return Worker.create({
    connection: opts.connection,
    namespace: opts.namespace,
    taskQueue: opts.taskQueue,
    workflowBundle: opts.workflowBundle ?? (await cachedWorkflowBundle(workflowTracingModules())),
    activities: createActivities({
      dataDir: opts.dataDir,
      llm: opts.llm,
      history: (workflowId, runId, onRunRead) => episodeRecordsFromHistory(client, workflowId, runId, onRunRead),
    }),
    maxConcurrentActivityTaskExecutions: opts.maxConcurrentActivities ?? 4,
    maxConcurrentWorkflowTaskExecutions: opts.maxConcurrentWorkflowTasks ?? 10,
    // Interceptors and the workflow span sink when this process traces (src/telemetry/tracing.ts).
    ...tracingWorkerOptions(),
  });
}

/** `grue worker`: connect and serve until SIGINT/SIGTERM. */
export async function runWorker(options: { concurrency?: number; taskQueue?: string; metricsPort?: number } = {}): Promise<void> {
  const config = loadConfig();
  const telemetry = await startWorkerTelemetry(config, options.metricsPort);
  const connection = await connectWorkerConnection(config);
  try {
    const worker = await createGrueWorker({
      connection,
      namespace: config.TEMPORAL_NAMESPACE,
      taskQueue: options.taskQueue ?? config.GRUE_TASK_QUEUE,
      dataDir: config.GRUE_DATA_DIR,
      maxConcurrentActivities: options.concurrency,
    });
    await worker.run();
  } finally {
    await connection.close();
    await telemetry.stop();
  }
}

if (require.main === module) {
  runWorker().catch((err) => {
    process.stderr.write(`grue worker: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
