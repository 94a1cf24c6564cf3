/**
 * Workflow tests run against the real Temporal dev server (the CLI binary grue uses), through
 * TestWorkflowEnvironment.createLocal with an existing-path executable.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { NativeConnection, Worker, WorkflowBundleOption } from '@temporalio/worker';
import { createActivities } from '../../src/activities';
import { episodeRecordsFromHistory } from '../../src/temporal/episodeHistory';
import { installRuntime } from '../../src/temporal/runtime';
import { findTemporalCli } from '../../src/temporal/server';
import { cachedWorkflowBundle } from '../../src/temporal/workflowBundle';
import { createGrueWorker } from '../../src/worker';
import { GAME_KEY, SCORE_KEY, TURN_KEY } from '../../src/schemas/searchAttributes';
import { scratchDir } from '../helpers';

export function temporalCli(): string {
  const cli = findTemporalCli();
  if (!cli) throw new Error('The Temporal CLI is not installed: run `npx grue setup` (it builds it with Go) before the tests.');
  return cli;
}

export function quietRuntime(): void {
  installRuntime({ logLevel: 'WARN' });
}

export async function createEnv(opts: { uiPort?: number } = {}): Promise<TestWorkflowEnvironment> {
  quietRuntime();
  return TestWorkflowEnvironment.createLocal({
    server: {
      executable: { type: 'existing-path', path: temporalCli() },
      searchAttributes: [GAME_KEY, SCORE_KEY, TURN_KEY],
      ...(opts.uiPort ? { ui: true, uiPort: opts.uiPort } : {}),
    },
  });
}

/** The bundle every worker of the tests runs: built once for the code under test and cached (src/temporal/workflowBundle.ts). */
export function workflowBundle(): Promise<WorkflowBundleOption> {
  return cachedWorkflowBundle();
}

export function tempDataDir(): string {
  return scratchDir('test');
}

let queues = 0;
export function uniqueQueue(name: string): string {
  return `${name}-${process.pid}-${++queues}`;
}

export async function createTestWorker(env: TestWorkflowEnvironment, taskQueue: string, dataDir: string): Promise<Worker> {
  return Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowBundle: await workflowBundle(),
    activities: createActivities({
      dataDir,
      history: (workflowId, runId, onRunRead) => episodeRecordsFromHistory(env.client, workflowId, runId, onRunRead),
    }),
  });
}

/** A grue worker in this process, on a connection of its own to `address`, serving `taskQueue` until stopped. */
export async function inProcessWorker(address: string, taskQueue: string, dataDir: string): Promise<{ stop(): Promise<void> }> {
  quietRuntime();
  const connection = await NativeConnection.connect({ address });
  const worker = await createGrueWorker({ connection, namespace: 'default', taskQueue, dataDir, workflowBundle: await workflowBundle() });
  const running = worker.run();
  return {
    stop: async () => {
      worker.shutdown();
      await running;
      await connection.close();
    },
  };
}

/**
 * A dev server and a worker serving `taskQueue` for the tests of one file: call in the file's
 * top level; `served.env` is ready inside tests.
 */
export function serveForTests(taskQueue: string, dataDir: string): { readonly env: TestWorkflowEnvironment } {
  const served = {} as { env: TestWorkflowEnvironment };
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  beforeAll(async () => {
    served.env = await createEnv();
    worker = await createTestWorker(served.env, taskQueue, dataDir);
    running = worker.run();
  }, 120_000);
  afterAll(async () => {
    worker?.shutdown();
    await running;
    await served.env?.teardown();
  });
  return served;
}
