/**
 * Workers on several machines each have their own GRUE_DATA_DIR, so an episode's transcript
 * chunks land on different disks. The history is the source of truth: the final transcript.jsonl
 * and `grue transcript` must hold every turn whichever worker wrote it.
 */
import { Client, Connection } from '@temporalio/client';
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { readJsonLines, readTranscript, runDir } from '../../src/activities/files';
import { episodeRecordsFromHistory } from '../../src/temporal/episodeHistory';
import { episodeWorkflow } from '../../src/workflows';
import { statusQuery } from '../../src/workflows/episode';
import { TurnRecordSchema } from '../../src/agent/records';
import { episodeInput, ROOT } from '../helpers';
import { inProcessWorker, tempDataDir, uniqueQueue } from './env';
import { waitFor } from './scripted';
import { ownServer } from './server';

jest.setTimeout(10 * 60_000);

const turnsIn = (records: Array<{ turn: number }>) => records.map((record) => record.turn);

describe('workers with different data dirs', () => {
  it('give one complete transcript: the final file and `grue transcript` are read back from the history', async () => {
    const server = await ownServer(tempDataDir());
    const address = `127.0.0.1:${server.port}`;
    const client = new Client({ connection: await Connection.connect({ address }) });
    const [firstDir, secondDir, cliDir] = [tempDataDir(), tempDataDir(), tempDataDir()];
    // Random play on The Lighthouse under `none` (typed commands, no valid-action search: turns of
    // milliseconds) lasts past turn 25 (checked below), so the episode crosses a continue-as-new
    // after the first worker has left.
    const input = episodeInput({
      game: 'lighthouse',
      policy: 'random',
      assist: 'none',
      seed: 7,
      maxTurns: 60,
      continueAsNewEvery: 25,
      transcriptFlushEvery: 7,
      turnTimeoutSeconds: 10,
    });
    const taskQueue = uniqueQueue('apart');
    try {
      const first = await inProcessWorker(address, taskQueue, firstDir);
      const handle = await client.workflow.start(episodeWorkflow, { taskQueue, workflowId: `apart-${Date.now()}`, args: [input] });
      await waitFor(
        'the first worker to play 15 turns',
        async () => ((await handle.query(statusQuery).catch(() => null))?.turn ?? 0) >= 15,
      );
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
      const finalFile = readJsonLines(result.transcriptPath, TurnRecordSchema);
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
      const printed = cli.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(printed).toEqual(history.turns);
    } finally {
      await client.connection.close();
      await server.stop();
    }
  });
});
