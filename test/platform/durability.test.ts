/**
 * Crash safety on a real server: SIGKILLed workers and a restarted server must not lose or
 * duplicate a single turn.
 */
import { Client, Connection } from '@temporalio/client';
import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { readTranscript } from '../../src/activities/files';
import { episodeWorkflow } from '../../src/workflows';
import { statusQuery } from '../../src/workflows/episode';
import { episodeInput, ROOT, withoutTimings } from '../helpers';
import { inProcessWorker, tempDataDir, uniqueQueue } from './env';
import { killHard } from './scripted';
import { ownServer } from './server';

jest.setTimeout(15 * 60_000);

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

function spawnWorker(address: string, taskQueue: string, dataDir: string): ChildProcess {
  const child = spawn(process.execPath, [join(ROOT, 'bin', 'grue.js'), 'worker', '--concurrency', '2'], {
    env: { ...process.env, TEMPORAL_ADDRESS: address, GRUE_TASK_QUEUE: taskQueue, GRUE_DATA_DIR: dataDir },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  let stderr = '';
  child.stderr!.on('data', (d) => (stderr = (stderr + String(d)).slice(-4000)));
  child.once('exit', (code, signal) => {
    // A worker that dies on its own (not from our SIGKILL) is a bug: make it loud.
    if (signal !== 'SIGKILL') workerFailures.push(`worker exited with ${code ?? signal}: ${stderr}`);
  });
  return child;
}

const workerFailures: string[] = [];

describe('durability', () => {
  it('survives its worker being SIGKILLed 3+ times mid-episode: same transcript as an uninterrupted run', async () => {
    const serverDir = tempDataDir();
    const server = await ownServer(serverDir);
    const address = `127.0.0.1:${server.port}`;
    const client = new Client({ connection: await Connection.connect({ address }) });
    const dataDir = tempDataDir();
    // Random play: the oracle-free policy wins The Lighthouse in 10 turns, and this needs a run
    // long enough to cross continue-as-new while the worker keeps dying.
    const input = episodeInput({
      game: 'lighthouse',
      policy: 'random',
      seed: 7,
      maxTurns: 60,
      continueAsNewEvery: 25,
      transcriptFlushEvery: 7,
      turnTimeoutSeconds: 10,
    });
    // Killed in `finally` too: a failed expectation must not leave a worker process polling a
    // stopped server for the rest of the test run.
    let worker: ChildProcess | undefined;
    try {
      // The uninterrupted reference, on its own queue, with an in-process worker.
      const refQueue = uniqueQueue('reference');
      const ref = await inProcessWorker(address, refQueue, dataDir);
      const refHandle = await client.workflow.start(episodeWorkflow, {
        taskQueue: refQueue,
        workflowId: `reference-${Date.now()}`,
        args: [input],
      });

      // The crash run: separate worker processes, killed at random points.
      const queue = uniqueQueue('crash');
      const handle = await client.workflow.start(episodeWorkflow, { taskQueue: queue, workflowId: `crash-${Date.now()}`, args: [input] });
      let kills = 0;
      const killTurns: number[] = [];
      worker = spawnWorker(address, queue, dataDir);
      while (kills < 3) {
        // Let it get somewhere (worker start-up plus a few turns), then kill it without warning.
        await sleep(6000 + Math.random() * 6000);
        expect(workerFailures).toEqual([]);
        const { turn } = await handle.query(statusQuery).catch(() => ({ turn: -1 }));
        await killHard(worker);
        kills++;
        killTurns.push(turn);

        console.log(`crash test: SIGKILL #${kills} at about turn ${turn}`);
        worker = spawnWorker(address, queue, dataDir);
      }
      const [result, refResult] = await Promise.all([handle.result(), refHandle.result()]);
      expect(workerFailures).toEqual([]);
      await killHard(worker);
      await ref.stop();

      expect(kills).toBeGreaterThanOrEqual(3);
      // Random play may end the story before turn 60; what matters is that the crashed run ends
      // exactly where the reference does, after at least one continue-as-new.
      expect(result.turns).toBe(refResult.turns);
      expect(result.turns).toBeGreaterThan(input.config.continueAsNewEvery);
      // Every kill landed mid-episode, not after the story was over.
      expect(killTurns.every((turn) => turn < result.turns)).toBe(true);
      const crashed = readTranscript(dataDir, handle.workflowId);
      const reference = readTranscript(dataDir, refHandle.workflowId);
      expect(crashed.map((t) => t.turn)).toEqual(Array.from({ length: result.turns }, (_, i) => i + 1));
      expect(withoutTimings(crashed)).toEqual(withoutTimings(reference));
      expect({ ...result, transcriptPath: '' }).toEqual({ ...refResult, transcriptPath: '' });
    } finally {
      if (worker) await killHard(worker);
      await client.connection.close();
      await server.stop();
    }
  });

  it('survives the dev server being stopped and restarted on the same SQLite file', async () => {
    const serverDir = tempDataDir();
    let server = await ownServer(serverDir);
    const { port, uiPort } = server;
    const address = `127.0.0.1:${port}`;
    const dataDir = tempDataDir();
    const queue = uniqueQueue('restart');
    const worker = await inProcessWorker(address, queue, dataDir);
    const connect = async () => new Client({ connection: await Connection.connect({ address }) });
    let client = await connect();
    const handle = await client.workflow.start(episodeWorkflow, {
      taskQueue: queue,
      workflowId: `restart-${Date.now()}`,
      // Typed commands (`none`): turns of milliseconds, so 200 of them outlast the restart by far.
      args: [episodeInput({ game: 'ferry', assist: 'none', seed: 4, maxTurns: 200, transcriptFlushEvery: 4, turnTimeoutSeconds: 10 })],
    });
    try {
      let turnAtStop = 0;
      // A query can be refused until the worker has completed the workflow's first task.
      const turnNow = () =>
        handle.query(statusQuery).then(
          (status) => status.turn,
          () => 0,
        );
      while ((turnAtStop = await turnNow()) < 5) await sleep(300);
      await client.connection.close();
      await server.stop();
      await sleep(3000);
      server = await ownServer(serverDir, port, uiPort);
      client = await connect();
      const result = await client.workflow.getHandle(handle.workflowId).result();
      // It went on past the restart to a proper end: out of turns, or the story ended.
      expect(result.turns).toBeGreaterThan(turnAtStop);
      expect(result.turns === 200 || result.victory || result.died).toBe(true);
      expect(readTranscript(dataDir, handle.workflowId).map((t) => t.turn)).toEqual(Array.from({ length: result.turns }, (_, i) => i + 1));
    } finally {
      await worker.stop();
      await client.connection.close();
      await server.stop();
    }
  });
});
