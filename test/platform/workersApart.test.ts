/**
 * Workers on several machines each have their own GRUE_DATA_DIR, so an episode's transcript
 * chunks land on different disks. The history is the source of truth: the final transcript.jsonl
 * and `grue transcript` must hold every turn whichever worker wrote it.
 */
import { Client, Connection } from '@temporalio/client';
import { NativeConnection } from '@temporalio/worker';
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTranscript, runDir } from '../../src/activities/files';
import { episodeRecordsFromHistory } from '../../src/temporal/episodeHistory';
import { createGrueWorker } from '../../src/worker';
import { episodeWorkflow } from '../../src/workflows';
import { statusQuery } from '../../src/workflows/episode';
import { episodeInput, ROOT } from '../helpers';
import { quietRuntime, tempDataDir, uniqueQueue, workflowBundle } from './env';
import { ownServer } from './server';

jest.setTimeout(10 * 60_000);

async function inProcessWorker(address: string, taskQueue: string, dataDir: string) {
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

/** Poll a condition until it holds (the episode runs on its own; there is nothing to await). */
async function until(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`condition not met within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const turnsIn = (records: Array<{ turn: number }>) => records.map((record) => record.turn);

describe('workers with different data dirs', () => {
  it('give one complete transcript: the final file and `grue transcript` are read back from the history', async () => {
    const server = await ownServer(tempDataDir());
    const address = `127.0.0.1:${server.port}`;
    const client = new Client({ connection: await Connection.connect({ address }) });
    const [firstDir, secondDir, cliDir] = [tempDataDir(), tempDataDir(), tempDataDir()];
    // Random play on The Lighthouse lasts past turn 25 with seed 7 (see the durability test), so
    // the episode crosses a continue-as-new after the first worker has left.
    const input = episodeInput({ game: 'lighthouse', policy: 'random', seed: 7, maxTurns: 60, continueAsNewEvery: 25, transcriptFlushEvery: 7, turnTimeoutSeconds: 10 });
    const taskQueue = uniqueQueue('apart');
    try {
      const first = await inProcessWorker(address, taskQueue, firstDir);
      const handle = await client.workflow.start(episodeWorkflow, { taskQueue, workflowId: `apart-${Date.now()}`, args: [input] });
      await until(async () => ((await handle.query(statusQuery).catch(() => null))?.turn ?? 0) >= 15, 120_000);
      await first.stop();
      const leftAt = turnsIn(readTranscript(firstDir, handle.workflowId));
      const second = await inProcessWorker(address, taskQueue, secondDir);
      const result = await handle.result();
      await second.stop();

      const everyTurn = Array.from({ length: result.turns }, (_, i) => i + 1);
      expect(result.turns).toBeGreaterThan(input.config.continueAsNewEvery);
      // The chunks really were split: the first worker wrote some turns, and not all of them.
      expect(leftAt.length).toBeGreaterThan(0);
      expect(leftAt.length).toBeLessThan(result.turns);
      // The final file, on the worker that finished, holds every turn.
      expect(result.transcriptPath).toBe(join(runDir(secondDir, handle.workflowId), 'transcript.jsonl'));
      const finalFile = readFileSync(result.transcriptPath, 'utf8').trim().split('\n').map((line) => JSON.parse(line));
      expect(turnsIn(finalFile)).toEqual(everyTurn);
      const history = await episodeRecordsFromHistory(client, handle.workflowId);
      expect(turnsIn(history.turns)).toEqual(everyTurn);
      // The CLI, with a data dir of its own that holds nothing of this run, prints them all.
      const cli = spawnSync(process.execPath, [join(ROOT, 'bin', 'grue.js'), 'transcript', handle.workflowId, '--json'], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, TEMPORAL_ADDRESS: address, GRUE_DATA_DIR: cliDir },
      });
      expect(cli.status).toBe(0);
      const printed = cli.stdout.trim().split('\n').map((line) => JSON.parse(line));
      expect(printed).toEqual(history.turns);
    } finally {
      await client.connection.close();
      await server.stop();
    }
  });
});
