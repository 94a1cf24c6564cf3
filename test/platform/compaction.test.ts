/**
 * Compaction (seed 001) inside real episodes on a real dev server, with the scripted LLM (these
 * tests are about the workflow's control flow, not about what a model writes): every N turns a
 * `compact` activity, its result merged into the world model, memory files written; a worker
 * SIGKILLed in the middle of a compaction changes nothing in the result; a compaction that fails
 * or answers nonsense never stops the game.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTranscript, runDir } from '../../src/activities/files';
import type { CompactionState } from '../../src/memory/compaction';
import type { EpisodeOptions } from '../../src/schemas/episode';
import { episodeWorkflow } from '../../src/workflows';
import { episodeInput, withoutTimings } from '../helpers';
import { ScriptedOptions, ScriptedProvider } from '../llm/scriptedProvider';
import { tempDataDir, uniqueQueue } from './env';
import { killHard, ownServerForTests, spawnScriptedWorker, waitFor, withScriptedWorker } from './scripted';

jest.setTimeout(10 * 60_000);

const dev = ownServerForTests();

// The Ferry under `none`, seed 4: the scripted agent types `look` every turn and plays all 20. These
// tests are about when compaction runs and what survives a crash, not about the search: under
// `none` a turn costs milliseconds, where the valid-action search takes a second or two.
const OPTIONS: EpisodeOptions = {
  game: 'ferry',
  seed: 4,
  maxTurns: 20,
  policy: 'full',
  compactEvery: 5,
  stopOnDeath: false,
  thoughtbox: 'off',
  knowledgeEvery: 0,
  assist: 'none',
};

const withScripted = <T>(taskQueue: string, dataDir: string, options: ScriptedOptions, work: () => Promise<T>) =>
  withScriptedWorker(dev.address, taskQueue, dataDir, new ScriptedProvider(options), work);
const spawnScripted = (taskQueue: string, dataDir: string, options: ScriptedOptions) =>
  spawnScriptedWorker(dev.address, taskQueue, dataDir, options);

const compactionOf = (result: { learned: { memory: Record<string, unknown> } }) => result.learned.memory.compaction as CompactionState;

describe('compaction in an episode', () => {
  it('compacts every 5 turns over 20, merges the tool calls and writes the memory files', async () => {
    const dataDir = tempDataDir();
    const taskQueue = uniqueQueue('compaction');
    const result = await withScripted(taskQueue, dataDir, {}, () =>
      dev.client.workflow.execute(episodeWorkflow, { taskQueue, workflowId: `compaction-${Date.now()}`, args: [episodeInput(OPTIONS)] }),
    );
    expect(result.turns).toBe(20);
    const compaction = compactionOf(result);
    expect(compaction.stats).toMatchObject({ compactions: 4, lastCompactedTurn: 20, failures: 0 });
    expect(compaction.model.scenes.map((s) => [s.from, s.to])).toEqual([
      [1, 5],
      [6, 10],
      [11, 15],
      [16, 20],
    ]);
    expect(compaction.model.locations.length).toBeGreaterThan(0);
    const memoryDir = join(runDir(dataDir, result.transcriptPath.split('/').slice(-2)[0]), 'memory');
    expect(
      readdirSync(memoryDir)
        .filter((f) => f.endsWith('.json'))
        .sort(),
    ).toEqual(['characters', 'compaction_state', 'items', 'locations', 'narratives', 'quests', 'scenes'].map((n) => `${n}.json`));
    expect(JSON.parse(readFileSync(join(memoryDir, 'compaction_state.json'), 'utf8'))).toMatchObject({ compactions: 4 });
  });

  it('gives the same world model when a worker is SIGKILLed in the middle of a compaction', async () => {
    const refQueue = uniqueQueue('reference');
    const refDir = tempDataDir();
    const refId = `reference-${Date.now()}`;
    const expected = await withScripted(refQueue, refDir, {}, () =>
      dev.client.workflow.execute(episodeWorkflow, { taskQueue: refQueue, workflowId: refId, args: [episodeInput(OPTIONS)] }),
    );

    const dataDir = tempDataDir();
    const markers = join(dataDir, 'markers');
    const taskQueue = uniqueQueue('crash');
    const workflowId = `crash-${Date.now()}`;
    const handle = await dev.client.workflow.start(episodeWorkflow, { taskQueue, workflowId, args: [episodeInput(OPTIONS)] });
    const victim = spawnScripted(taskQueue, dataDir, { markerDir: markers, compactionDelay: { turn: 10, ms: 60_000 } });
    await waitFor('the second compaction to start', () => existsSync(join(markers, 'compacting-10')));
    await killHard(victim);
    // Where the kill landed: the second compact activity was running (started, not completed).
    const pending = (await handle.describe()).raw.pendingActivities ?? [];
    expect(pending.map((a) => [a.activityType?.name, String(a.state)])).toEqual([['compact', expect.stringMatching(/STARTED|2/)]]);
    const history = await handle.fetchHistory();
    const compacts = history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'compact');
    const completed = history.events!.filter((e) => e.activityTaskCompletedEventAttributes).length;
    expect(compacts).toHaveLength(2);
    expect(completed).toBeGreaterThan(0);

    const survivor = spawnScripted(taskQueue, dataDir, {});
    try {
      const result = await handle.result();
      expect(compactionOf(result).model).toEqual(compactionOf(expected).model);
      expect(compactionOf(result).stats).toEqual(compactionOf(expected).stats);
      expect(withoutTimings(readTranscript(dataDir, workflowId))).toEqual(withoutTimings(readTranscript(refDir, refId)));
    } finally {
      await killHard(survivor);
    }
  });

  it.each([
    ['invalid tool calls', 'invalid' as const],
    ['timeouts', 'timeout' as const],
  ])('plays on through compactions that answer with %s', async (_, fault) => {
    const dataDir = tempDataDir();
    const taskQueue = uniqueQueue(`fault-${fault}`);
    const workflowId = `fault-${fault}-${Date.now()}`;
    const result = await withScripted(taskQueue, dataDir, { compactionFault: fault }, () =>
      dev.client.workflow.execute(episodeWorkflow, {
        taskQueue,
        workflowId,
        args: [episodeInput({ ...OPTIONS, maxTurns: 12, compactEvery: 10 })],
      }),
    );
    expect(result.turns).toBe(12);
    const stats = compactionOf(result).stats;
    const turns = readTranscript(dataDir, workflowId);
    expect(turns).toHaveLength(12);
    if (fault === 'invalid') {
      expect(stats).toMatchObject({ compactions: 2, failures: 0, invalidCalls: 2 });
    } else {
      expect(stats).toMatchObject({ compactions: 0, failures: 2 });
      expect(turns.filter((t) => t.memoryFailures?.includes('compaction')).map((t) => t.turn)).toEqual([10]);
    }
  });

  it('with memoryWork when-read, compacts only before a turn that asks the oracle (or at the end), where every-turn compacts when due', async () => {
    // Under the probe the oracle is asked only where the probes leave a choice: most turns need no model.
    const options: EpisodeOptions = { ...OPTIONS, assist: 'probe', compactEvery: 2 };
    const play = (memoryWork: EpisodeOptions['memoryWork']) => {
      const dataDir = tempDataDir();
      const taskQueue = uniqueQueue(`compaction-${memoryWork}`);
      const workflowId = `compaction-${memoryWork}-${Date.now()}`;
      return withScripted(taskQueue, dataDir, {}, async () => {
        const result = await dev.client.workflow.execute(episodeWorkflow, {
          taskQueue,
          workflowId,
          args: [episodeInput({ ...options, memoryWork })],
        });
        return { result, turns: readTranscript(dataDir, workflowId) };
      });
    };
    /** Compactions whose last turn is not followed by a turn that asked the model, nor the episode's last. */
    const unread = ({ result, turns }: Awaited<ReturnType<typeof play>>) =>
      compactionOf(result)
        .model.scenes.map((scene) => scene.to)
        .filter((to) => to !== result.turns && !((turns.find((t) => t.turn === to + 1)?.llmCalls ?? 0) > 0));

    const eager = await play('every-turn');
    const lazy = await play('when-read');
    expect(compactionOf(eager.result).stats.compactions).toBeGreaterThan(0);
    expect(unread(eager).length).toBeGreaterThan(0);
    expect(unread(lazy)).toEqual([]);
    expect(compactionOf(lazy.result).stats.compactions).toBeLessThan(compactionOf(eager.result).stats.compactions);
    // Nothing raw is lost: the turns the lazy episode did not compact are still pending at its end.
    const lazyCompaction = compactionOf(lazy.result);
    const covered = lazyCompaction.model.scenes.reduce((n, s) => n + (s.to - s.from + 1), 0) + lazyCompaction.pending.length;
    expect(covered).toBe(lazy.result.turns);
  });
});
