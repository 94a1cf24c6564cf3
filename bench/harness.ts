/** What the benchmarks share: a fresh dev server and an in-process worker with a prebuilt bundle. */
import { Client, Connection } from '@temporalio/client';
import type { temporal } from '@temporalio/proto';
import { DefaultLogger, NativeConnection, Runtime, Worker } from '@temporalio/worker';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ensureTemporalCli, freePort, startDevServer } from '../src/temporal/server';
import { createGrueWorker } from '../src/worker';
import type { ProviderFactory } from '../src/activities';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

export { arg, percentile } from './cli';

/** A history event's time in epoch milliseconds. */
export const eventMs = (time: HistoryEvent['eventTime']) => Number(time!.seconds) * 1000 + Math.floor((time!.nanos ?? 0) / 1e6);

/** Run `work` against a fresh dev server with an in-process worker on `taskQueue`; everything is torn down after. */
export async function withBenchServer<T>(
  name: string,
  taskQueue: string,
  work: (ctx: { client: Client; worker: Worker; dataDir: string }) => Promise<T>,
  /** The worker's LLM (default: the environment's configuration). */
  llm?: ProviderFactory,
): Promise<T> {
  const log = (msg: string) => process.stderr.write(`${name} ${msg}\n`);
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const dataDir = mkdtempSync(join(tmpdir(), `grue-${name.replace(/[^a-z]/gi, '-')}-`));
  const port = await freePort();
  const server = await startDevServer({ cli: ensureTemporalCli(log), dataDir, port, uiPort: await freePort() });
  const address = `127.0.0.1:${port}`;
  // An interrupted benchmark must not leave its dev server behind.
  const onSignal = (signal: NodeJS.Signals) => {
    log(`${signal}: stopping the dev server`);
    void server.stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  };
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  try {
    const connection = await NativeConnection.connect({ address });
    const client = new Client({ connection: await Connection.connect({ address }) });
    try {
      const worker = await createGrueWorker({
        connection,
        namespace: 'default',
        taskQueue,
        dataDir,
        llm,
      });
      return await work({ client, worker, dataDir });
    } finally {
      await connection.close();
      await client.connection.close();
    }
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await server.stop();
  }
}
