/**
 * The thoughtbox (seed 003) inside real episodes on a real dev server, with the scripted LLM
 * (these tests are about the tool-calling loop's control flow, not about what a model thinks):
 * each thought one `think` activity carrying the turn's whole context and every earlier round,
 * the cookbook on the first call, the chain recorded (turn records, thoughts.jsonl, the thinking
 * query, the history), the iteration limit survived, and a worker SIGKILLed mid-session resumed
 * at the next thought with no thought lost or repeated.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readThoughts, readTranscript } from '../../src/activities/files';
import { AUTO, ThoughtboxSession } from '../../src/agent/thoughtbox';
import { freshLearned } from '../../src/agent/learned';
import type { EpisodeOptions } from '../../src/schemas/episode';
import { episodeWorkflow, thinkingQuery } from '../../src/workflows/episode';
import { episodeInput, GAME_FILES, ROOT, withoutTimings } from '../helpers';
import { ScriptedProvider } from '../llm/scriptedProvider';
import { tempDataDir, uniqueQueue } from './env';
import { killHard, ownServerForTests, spawnScriptedWorker, waitFor, withScriptedWorker } from './scripted';

jest.setTimeout(10 * 60_000);

const dev = ownServerForTests();

const OPTIONS: EpisodeOptions = {
  game: 'lighthouse',
  seed: 4,
  maxTurns: 3,
  policy: 'full',
  compactEvery: 0,
  thoughtbox: 'always',
  knowledgeEvery: 0,
};
const COOKBOOK = readFileSync(join(GAME_FILES, 'thinking_patterns.md'), 'utf8').trim();
const chainOf = (session: ThoughtboxSession) => session.thoughts.map((t) => [t.number, t.kind, t.revises ?? t.branchFromThought ?? null]);

describe('the thoughtbox in an episode', () => {
  it('runs one think activity per thought, each with the whole context and every earlier round, and records the chain', async () => {
    const dataDir = tempDataDir();
    const taskQueue = uniqueQueue('thinking');
    const workflowId = `thinking-${Date.now()}`;
    const provider = new ScriptedProvider();
    const result = await withScriptedWorker(dev.address, taskQueue, dataDir, provider, async () => {
      const handle = await dev.client.workflow.start(episodeWorkflow, { taskQueue, workflowId, args: [episodeInput(OPTIONS)] });
      const result = await handle.result();
      // The query answers for a finished workflow too: the run's recent sessions.
      expect((await handle.query(thinkingQuery)).map((s) => s.turn)).toEqual([0, 1, 2]);
      return result;
    });
    expect(result.turns).toBe(3);

    // Four rounds a turn; within a session every call has the same system prompt and context, plus one more round each time.
    expect(provider.thinkRequests).toHaveLength(12);
    for (let session = 0; session < 3; session++) {
      const calls = provider.thinkRequests.slice(session * 4, session * 4 + 4);
      calls.forEach((call, round) => {
        expect(call.messages.slice(0, 2)).toEqual(calls[0].messages.slice(0, 2));
        expect(call.messages).toHaveLength(2 + 2 * round);
        expect(call.toolChoice).toBe('required');
      });
      const results = calls[3].messages.filter((m) => m.role === 'tool').map((m) => m.content);
      expect(results[0]).toContain(COOKBOOK);
      expect(results.slice(1).some((r) => r.includes(COOKBOOK))).toBe(false);
      expect(calls[0].messages[1].content).toContain('VALID ACTIONS');
    }

    // The chain: in thoughts.jsonl, one session per turn, and the turn records' metadata.
    const sessions = readThoughts(dataDir, workflowId);
    expect(sessions.map((s) => [s.turn, s.outcome, s.iterations])).toEqual([
      [0, 'concluded', 4],
      [1, 'concluded', 4],
      [2, 'concluded', 4],
    ]);
    for (const s of sessions) {
      expect(chainOf(s)).toEqual([
        [1, 'forward', null],
        [2, 'revision', 1],
        [3, 'branch', 1],
        [4, 'forward', null],
      ]);
      expect(s.action).not.toBeNull();
    }
    const turns = readTranscript(dataDir, workflowId);
    expect(turns.map((t) => [t.usedThoughtbox, t.thinkingSteps])).toEqual([
      [true, 4],
      [true, 4],
      [true, 4],
    ]);
    // Oracle (and failure analysis when asked) plus four thoughts a turn.
    for (const t of turns) expect(t.llmCalls).toBeGreaterThanOrEqual(5);

    // The history holds each thought's input and result: the chain can be rebuilt from it.
    const history = await dev.client.workflow.getHandle(workflowId).fetchHistory();
    const thinks = history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'think');
    expect(thinks).toHaveLength(12);

    // `grue transcript --thoughts` reads them back from the history: a CLI whose data dir holds nothing of this run prints every session.
    const cli = (...args: string[]) =>
      spawnSync(process.execPath, [join(ROOT, 'bin', 'grue.js'), 'transcript', workflowId, ...args], {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, TEMPORAL_ADDRESS: dev.address, GRUE_DATA_DIR: tempDataDir() },
      });
    const fromHistory = cli('--thoughts', '--json');
    expect(fromHistory.status).toBe(0);
    expect(
      fromHistory.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(sessions);
    const shown = cli('--thoughts', '--last', '1');
    expect(shown.stdout.split('\n')[0]).toMatch(/^turn 2 · thoughtbox \(always\) · concluded → ".+" · 4 thoughts, 4 calls/);
    expect(
      cli('--json')
        .stdout.trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toEqual(turns);
  });

  it('stops a session at maxThinkingIterations and plays the turn on the oracle and selector', async () => {
    const dataDir = tempDataDir();
    const taskQueue = uniqueQueue('limit');
    const workflowId = `limit-${Date.now()}`;
    const result = await withScriptedWorker(dev.address, taskQueue, dataDir, new ScriptedProvider({ thinking: 'endless' }), () =>
      dev.client.workflow.execute(episodeWorkflow, {
        taskQueue,
        workflowId,
        args: [episodeInput({ ...OPTIONS, maxTurns: 2, maxThinkingIterations: 3 })],
      }),
    );
    expect(result.turns).toBe(2);
    const sessions = readThoughts(dataDir, workflowId);
    expect(sessions.map((s) => [s.outcome, s.iterations, s.thoughts.length, s.action])).toEqual([
      ['limit', 3, 3, null],
      ['limit', 3, 3, null],
    ]);
    for (const t of readTranscript(dataDir, workflowId)) expect(t.reason).not.toBe('thought');
  });

  /** Auto mode for 8 turns, the oracle naming a blocker on every turn it is asked; thoughts so far helped `helped` of 100 times. */
  const autoRun = async (helped: number) => {
    const dataDir = tempDataDir();
    const taskQueue = uniqueQueue('auto');
    const workflowId = `auto-${Date.now()}`;
    const provider = new ScriptedProvider({ thinking: 'decline', blocker: 'the door is locked' });
    const learned = freshLearned();
    const trusted = { ...learned, reliability: { ...learned.reliability, thought: { tried: 100, helped } } };
    await withScriptedWorker(dev.address, taskQueue, dataDir, provider, () =>
      dev.client.workflow.execute(episodeWorkflow, {
        taskQueue,
        workflowId,
        args: [episodeInput({ ...OPTIONS, maxTurns: 8, thoughtbox: 'auto' }, trusted)],
      }),
    );
    return { dataDir, workflowId, provider };
  };

  it('in auto mode offers no thoughtbox whose conclusion would not be taken', async () => {
    const { dataDir, workflowId, provider } = await autoRun(0);
    expect(readThoughts(dataDir, workflowId)).toEqual([]);
    expect(provider.thinkRequests).toHaveLength(0);
  });

  it('in auto mode offers the thoughtbox on a hard turn only, and a declined offer thinks nothing', async () => {
    const { dataDir, workflowId, provider } = await autoRun(100);
    // Auto offers on a blocker, then waits AUTO.cooldownTurns before offering again.
    const sessions = readThoughts(dataDir, workflowId);
    const offered = sessions.map((s) => s.turn);
    expect(offered.length).toBeGreaterThan(1);
    offered.slice(1).forEach((turn, i) => expect(turn - offered[i]).toBeGreaterThanOrEqual(AUTO.cooldownTurns));
    for (const s of sessions)
      expect(s).toMatchObject({ required: false, outcome: 'declined', thoughts: [], trigger: 'blocker: the door is locked' });
    expect(provider.thinkRequests.every((r) => r.toolChoice === 'auto')).toBe(true);
    const turns = readTranscript(dataDir, workflowId);
    expect(turns.every((t) => t.usedThoughtbox === false && t.thinkingSteps === 0)).toBe(true);
  });

  it('resumes at the next thought when the worker is SIGKILLed mid-session: no thought lost or repeated', async () => {
    const refDir = tempDataDir();
    const refQueue = uniqueQueue('thinking-ref');
    const refId = `thinking-ref-${Date.now()}`;
    await withScriptedWorker(dev.address, refQueue, refDir, new ScriptedProvider(), () =>
      dev.client.workflow.execute(episodeWorkflow, {
        taskQueue: refQueue,
        workflowId: refId,
        args: [episodeInput({ ...OPTIONS, maxTurns: 2 })],
      }),
    );

    const dataDir = tempDataDir();
    const markers = join(dataDir, 'markers');
    const taskQueue = uniqueQueue('thinking-crash');
    const workflowId = `thinking-crash-${Date.now()}`;
    const handle = await dev.client.workflow.start(episodeWorkflow, {
      taskQueue,
      workflowId,
      args: [episodeInput({ ...OPTIONS, maxTurns: 2 })],
    });
    const victim = spawnScriptedWorker(dev.address, taskQueue, dataDir, { markerDir: markers, thinkingDelay: { thought: 3, ms: 120_000 } });
    await waitFor('the third thought to start', () => existsSync(join(markers, 'thinking-3')));
    await killHard(victim);
    // Where the kill landed: the third think activity of the first session was running, two were done.
    const pending = (await handle.describe()).raw.pendingActivities ?? [];
    expect(pending.map((a) => [a.activityType?.name, String(a.state)])).toEqual([['think', expect.stringMatching(/STARTED|2/)]]);
    const before = await handle.fetchHistory();
    const completedThinks = before.events!.filter((e) => e.activityTaskCompletedEventAttributes).length;
    expect(before.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'think')).toHaveLength(3);
    expect(completedThinks).toBeGreaterThanOrEqual(3); // startGame, the oracle, two thoughts (at least)

    const survivor = spawnScriptedWorker(dev.address, taskQueue, dataDir, {});
    try {
      // The survivor replays the history: the session is open with the two thoughts finished before the kill.
      const midSession = await handle.query(thinkingQuery);
      expect(midSession.map((s) => [s.turn, s.outcome, s.thoughts.length])).toEqual([[0, 'open', 2]]);
      await handle.result();
    } finally {
      await killHard(survivor);
    }
    const sessions = readThoughts(dataDir, workflowId);
    expect(sessions).toEqual(readThoughts(refDir, refId));
    for (const s of sessions) expect(s.thoughts.map((t) => t.number)).toEqual([1, 2, 3, 4]);
    // The interrupted thought was retried as the same activity, never asked again as a new one.
    const history = await handle.fetchHistory();
    expect(history.events!.filter((e) => e.activityTaskScheduledEventAttributes?.activityType?.name === 'think')).toHaveLength(8);
    expect(withoutTimings(readTranscript(dataDir, workflowId))).toEqual(withoutTimings(readTranscript(refDir, refId)));
  });
});
