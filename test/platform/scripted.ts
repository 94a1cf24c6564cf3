/**
 * Workers whose LLM is the scripted test double, in process or as a child process a test can
 * SIGKILL, and the waiting such tests do. For tests of the workflow's control flow only.
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { createGrueWorker } from '../../src/worker';
import { ROOT } from '../helpers';
import { ScriptedOptions, ScriptedProvider } from '../llm/scriptedProvider';
import { quietRuntime, tempDataDir, workflowBundle } from './env';
import { ownServer } from './server';

/** Runs `work` with an in-process worker whose LLM is `provider`. */
export async function withScriptedWorker<T>(
  address: string,
  taskQueue: string,
  dataDir: string,
  provider: ScriptedProvider,
  work: () => Promise<T>,
): Promise<T> {
  quietRuntime();
  const connection = await NativeConnection.connect({ address });
  const worker = await createGrueWorker({
    connection,
    namespace: 'default',
    taskQueue,
    dataDir,
    workflowBundle: await workflowBundle(),
    llm: () => provider,
  });
  try {
    return await worker.runUntil(work());
  } finally {
    await connection.close();
  }
}

export function spawnScriptedWorker(address: string, taskQueue: string, dataDir: string, options: ScriptedOptions): ChildProcess {
  return spawn(
    process.execPath,
    ['-r', 'tsx/cjs', join(ROOT, 'test', 'platform', 'scriptedWorker.ts'), address, taskQueue, dataDir, JSON.stringify(options)],
    {
      cwd: ROOT,
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
}

export async function killHard(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill('SIGKILL');
  await exited;
}

/** Polls `probe` until it gives a value. */
export async function waitFor<T>(
  what: string,
  probe: () => T | null | undefined | Promise<T | null | undefined>,
  ms = 120_000,
): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

/** A dev server of the test file's own, started before its tests and stopped after them. */
export function ownServerForTests(): { readonly address: string; readonly client: Client } {
  let server: Awaited<ReturnType<typeof ownServer>> | undefined;
  let address = '';
  let client: Client | undefined;
  beforeAll(async () => {
    server = await ownServer(tempDataDir());
    address = `127.0.0.1:${server.port}`;
    client = new Client({ connection: await Connection.connect({ address }) });
  }, 120_000);
  afterAll(async () => {
    await client?.connection.close();
    await server?.stop();
  });
  return {
    get address() {
      return address;
    },
    get client() {
      if (!client) throw new Error('the dev server is not up yet: use it inside a test');
      return client;
    },
  };
}
