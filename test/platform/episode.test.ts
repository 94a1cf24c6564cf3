import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { campaignCheckpointPath } from '../../src/activities/campaignCheckpoint';
import { readTranscript } from '../../src/activities/files';
import { campaignWorkflow, episodeWorkflow } from '../../src/workflows';
import { episodeWorkflowId, progressQuery } from '../../src/workflows/campaign';
import { pauseSignal, resumeSignal, statusQuery, stopSignal, transcriptQuery } from '../../src/workflows/episode';
import { campaignInput, episodeInput, sharedGame, withoutTimings } from '../helpers';
import { Worker } from '@temporalio/worker';
import { createActivities } from '../../src/activities';
import { serveForTests, tempDataDir, uniqueQueue, workflowBundle } from './env';
import { syntheticStory } from '../engine/syntheticStory';

const dataDir = tempDataDir();
const ZORK = sharedGame('zork1.z3');
const taskQueue = uniqueQueue('episode');
const served = serveForTests(taskQueue, dataDir);

// Most tests here are about the workflow (runs, signals, children), not the valid-action search: they
// play under `none`, where a turn costs milliseconds instead of the search's second or two.
const start = (options: Parameters<typeof episodeInput>[0], id: string) =>
  served.env.client.workflow.start(episodeWorkflow, { taskQueue, workflowId: `${id}-${Date.now()}`, args: [episodeInput(options)] });

async function waitFor(pred: () => Promise<boolean>, ms = 60_000) {
  const end = Date.now() + ms;
  while (!(await pred())) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('episodeWorkflow on a real dev server', () => {
  it('plays to maxTurns across several continue-as-new runs, with a complete transcript', async () => {
    const handle = await start(
      { game: 'lighthouse', policy: 'random', assist: 'none', seed: 3, maxTurns: 12, continueAsNewEvery: 5, transcriptFlushEvery: 3 },
      'can',
    );
    const result = await handle.result();
    expect(result).toMatchObject({ game: 'lighthouse', turns: 12, maxScore: 20, stopped: false });
    // Typed at random, some commands are refused by the parser: those are turns, not the game's moves.
    expect(result.moves).toBeGreaterThan(0);
    expect(result.moves).toBeLessThanOrEqual(12);
    const turns = readTranscript(dataDir, handle.workflowId);
    expect(turns.map((t) => t.turn)).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]);
    expect(readFileSync(result.transcriptPath, 'utf8').trim().split('\n')).toHaveLength(12);
    // Three runs: turns 1-5, 6-10, 11-12.
    const first = await served.env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).fetchHistory();
    const last = first.events![first.events!.length - 1];
    expect(last.workflowExecutionContinuedAsNewEventAttributes).toBeTruthy();
    const description = await handle.describe();
    expect(description.runId).not.toBe(handle.firstExecutionRunId);
    const attrs = Object.fromEntries(description.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
    expect(attrs).toMatchObject({ GrueGame: 'lighthouse', GrueTurn: 12 });
  });

  it('is reproducible: the same seed gives the same transcript', async () => {
    const a = await start({ game: 'ferry', assist: 'none', seed: 11, maxTurns: 8, continueAsNewEvery: 3 }, 'repro-a');
    const b = await start({ game: 'ferry', assist: 'none', seed: 11, maxTurns: 8 }, 'repro-b');
    await Promise.all([a.result(), b.result()]);
    expect(withoutTimings(readTranscript(dataDir, a.workflowId))).toEqual(withoutTimings(readTranscript(dataDir, b.workflowId)));
  });

  it('answers status and transcript queries, and obeys pause, resume and stop', async () => {
    const handle = await start({ game: 'lighthouse', policy: 'random', assist: 'none', seed: 5, maxTurns: 500 }, 'signals');
    await waitFor(async () => (await handle.query(statusQuery)).turn >= 2);
    await handle.signal(pauseSignal);
    await waitFor(async () => (await handle.query(statusQuery)).paused);
    const pausedAt = (await handle.query(statusQuery)).turn;
    // The turn under way when the signal came still ends (on a loaded machine, seconds later);
    // then the episode stands, and stays at that turn.
    await waitFor(async () => (await handle.query(statusQuery)).standing);
    const still = await handle.query(statusQuery);
    expect(still.turn).toBeLessThanOrEqual(pausedAt + 1);
    await new Promise((r) => setTimeout(r, 2500));
    expect((await handle.query(statusQuery)).turn).toBe(still.turn);
    const recent = await handle.query(transcriptQuery);
    expect(recent.length).toBeGreaterThan(0);
    expect(recent[recent.length - 1].turn).toBe(still.turn);
    await handle.signal(resumeSignal);
    await waitFor(async () => (await handle.query(statusQuery)).turn > still.turn + 1);
    await handle.signal(stopSignal);
    const result = await handle.result();
    expect(result.stopped).toBe(true);
    expect(result.turns).toBeGreaterThan(still.turn);
    expect(result.turns).toBeLessThan(500);
    expect(readTranscript(dataDir, handle.workflowId)).toHaveLength(result.turns);
  });

  it('holds a pause across continue-as-new (every turn ends a run here)', async () => {
    const handle = await start(
      { game: 'lighthouse', policy: 'random', assist: 'none', seed: 5, maxTurns: 500, continueAsNewEvery: 1 },
      'pause-can',
    );
    await waitFor(async () => (await handle.query(statusQuery)).turn >= 2);
    await handle.signal(pauseSignal);
    await waitFor(async () => (await handle.query(statusQuery)).standing);
    const still = await handle.query(statusQuery);
    await new Promise((r) => setTimeout(r, 2500));
    expect(await handle.query(statusQuery)).toMatchObject({ turn: still.turn, paused: true, standing: true });
    await handle.signal(stopSignal);
    expect(await handle.result()).toMatchObject({ stopped: true, turns: still.turn });
  });

  it('writes every turn played so far when it is cancelled (the unflushed ones too)', async () => {
    const handle = await start(
      { game: 'lighthouse', policy: 'random', assist: 'none', seed: 5, maxTurns: 500, transcriptFlushEvery: 1000 },
      'cancel',
    );
    await waitFor(async () => (await handle.query(statusQuery)).turn >= 3);
    await handle.cancel();
    const err = await handle.result().catch((e) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    expect((await handle.describe()).status.name).toBe('CANCELLED');
    const played = (await handle.query(statusQuery)).turn;
    expect(played).toBeGreaterThanOrEqual(3);
    expect(readTranscript(dataDir, handle.workflowId).map((t) => t.turn)).toEqual(Array.from({ length: played }, (_, i) => i + 1));
  });

  it('fails an invalid input with a non-retryable error that names the field', async () => {
    const handle = await served.env.client.workflow.start(episodeWorkflow, {
      taskQueue,
      workflowId: `invalid-${Date.now()}`,
      args: [{ config: { game: 'lighthouse', maxTurns: -5, policy: 'telepathy' } } as never],
    });
    const err = await handle.result().catch((e) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause).toBeInstanceOf(ApplicationFailure);
    expect(cause.nonRetryable).toBe(true);
    expect(cause.type).toBe('InvalidInput');
    expect(cause.message).toMatch(/maxTurns/);
    expect(cause.message).toMatch(/policy/);
  });

  it('fails fast, without retries, on a game the worker cannot load', async () => {
    const handle = await start({ game: 'no-such-game', maxTurns: 3 }, 'nogame');
    const err = await handle.result().catch((e) => e);
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const history = await handle.fetchHistory();
    const started = history.events!.filter((e) => e.activityTaskStartedEventAttributes);
    expect(started).toHaveLength(1);
    expect(started[0].activityTaskStartedEventAttributes!.attempt).toBe(1);
    expect(JSON.stringify(history.events!.map((e) => e.activityTaskFailedEventAttributes?.failure?.message ?? ''))).toMatch(/Unknown game/);
  });
});

describe('episodeWorkflow between runs', () => {
  // A worker whose transcript writes wait on the test: a signal can then be sent while a full run
  // writes its transcript, the last await before continue-as-new (the window stop 55's CI hit).
  const gatedQueue = uniqueQueue('episode-gated');
  let flushing: () => void = () => undefined;
  let release: () => void = () => undefined;
  let gate = Promise.resolve();
  let worker: Worker | undefined;
  let running: Promise<void> | undefined;
  beforeAll(async () => {
    const activities = createActivities({ dataDir });
    worker = await Worker.create({
      connection: served.env.nativeConnection,
      taskQueue: gatedQueue,
      workflowBundle: await workflowBundle(),
      activities: {
        ...activities,
        writeTranscriptChunk: async (input: Parameters<typeof activities.writeTranscriptChunk>[0]) => {
          flushing();
          await gate;
          return activities.writeTranscriptChunk(input);
        },
      },
    });
    running = worker.run();
  });
  afterAll(async () => {
    release();
    worker?.shutdown();
    await running;
  });

  it.each([
    ['a pause', pauseSignal],
    ['a stop', stopSignal],
  ])('keeps %s that comes while a full run writes its transcript', async (_name, signal) => {
    gate = new Promise((resolve) => (release = resolve));
    const writing = new Promise<void>((resolve) => (flushing = resolve));
    const handle = await served.env.client.workflow.start(episodeWorkflow, {
      taskQueue: gatedQueue,
      workflowId: `gated-${signal.name}-${Date.now()}`,
      args: [
        episodeInput({
          game: 'lighthouse',
          policy: 'random',
          assist: 'none',
          seed: 5,
          maxTurns: 50,
          continueAsNewEvery: 2,
          transcriptFlushEvery: 1000,
        }),
      ],
    });
    await writing;
    expect((await handle.query(statusQuery)).turn).toBe(2);
    await handle.signal(signal);
    release();
    if (signal === pauseSignal) {
      await waitFor(async () => (await handle.query(statusQuery)).standing);
      expect(await handle.query(statusQuery)).toMatchObject({ turn: 2, paused: true });
      await handle.signal(stopSignal);
    }
    expect(await handle.result()).toMatchObject({ stopped: true, turns: 2 });
  });
});

describe('campaignWorkflow', () => {
  it('runs episodes as child workflows, carries learned state, reports progress and writes results.json', async () => {
    const handle = await served.env.client.workflow.start(campaignWorkflow, {
      taskQueue,
      workflowId: `campaign-${Date.now()}`,
      args: [campaignInput({ game: 'ferry', assist: 'none', episodes: 3, seed: 2, maxTurns: 6 })],
    });
    const result = await handle.result();
    expect(result.episodes).toHaveLength(3);
    expect(result.episodes.map((e) => e.seed)).toEqual([2, 3, 4]);
    expect(result.learned.episodes).toBe(3);
    expect(existsSync(result.resultsPath)).toBe(true);
    const written = JSON.parse(readFileSync(result.resultsPath, 'utf8'));
    expect(written).toEqual(result);
    const progress = await handle.query(progressQuery);
    expect(progress).toMatchObject({ completed: 3, total: 3, currentEpisode: null });
    const child = await served.env.client.workflow.getHandle(result.episodes[0].workflowId).describe();
    expect(child.parentExecution?.workflowId).toBe(handle.workflowId);
  });

  it('with parallel 3, runs the episodes at once, merges what each learned and lists them in episode order', async () => {
    const handle = await served.env.client.workflow.start(campaignWorkflow, {
      taskQueue,
      workflowId: `campaign-parallel-${Date.now()}`,
      args: [campaignInput({ game: 'ferry', assist: 'none', episodes: 4, seed: 7, maxTurns: 6, parallel: 3 })],
    });
    const result = await handle.result();
    expect(result.episodes.map((e) => e.seed)).toEqual([7, 8, 9, 10]);
    // Every episode's lessons reach the campaign: none overwrote a sibling's count.
    expect(result.learned.episodes).toBe(4);
    const children = await Promise.all(result.episodes.map((e) => served.env.client.workflow.getHandle(e.workflowId).describe()));
    const [first, second, third, fourth] = children;
    // The first three started before any of them ended; the fourth waited for a free place.
    const firstEnd = Math.min(...[first, second, third].map((child) => child.closeTime!.getTime()));
    for (const child of [first, second, third]) expect(child.startTime.getTime()).toBeLessThan(firstEnd);
    expect(fourth.startTime.getTime()).toBeGreaterThanOrEqual(firstEnd);
    expect(await handle.query(progressQuery)).toMatchObject({ completed: 4, total: 4, currentEpisode: null, running: [] });
  });

  it('started again under its id after its history is lost, goes on from its checkpoint: episodes done are not played again, the results are an uninterrupted run’s', async () => {
    const config = campaignInput({ game: 'ferry', assist: 'none', episodes: 4, seed: 4, maxTurns: 30 });
    const stamp = Date.now();
    const reference = await served.env.client.workflow.execute(campaignWorkflow, {
      taskQueue,
      workflowId: `campaign-uninterrupted-${stamp}`,
      args: [config],
    });
    const id = `campaign-lost-${stamp}`;
    const first = await served.env.client.workflow.start(campaignWorkflow, { taskQueue, workflowId: id, args: [config] });
    // Once an episode's checkpoint is written (the activity after the episode ends, so not at once).
    await waitFor(async () => existsSync(campaignCheckpointPath(dataDir, id)), 120_000);
    // Terminated, its episode in flight with it: to the next run of this id, as if the server had lost it.
    await first.terminate('the history is lost');
    const terminatedAt = Date.now();
    // The server terminates the episode in flight soon after; a checkpoint write under way lands in milliseconds.
    const inFlight = served.env.client.workflow.getHandle(episodeWorkflowId(id, (await first.query(progressQuery)).completed));
    await waitFor(async () => (await inFlight.describe().catch(() => null))?.status.name !== 'RUNNING');
    await new Promise((r) => setTimeout(r, 2000));
    const checkpoint = JSON.parse(readFileSync(campaignCheckpointPath(dataDir, id), 'utf8'));
    const kept = checkpoint.done.length;
    expect(kept).toBeGreaterThanOrEqual(1);
    expect(kept).toBeLessThan(4);

    const again = await served.env.client.workflow.execute(campaignWorkflow, { taskQueue, workflowId: id, args: [config] });
    const decided = (result: typeof reference) => result.episodes.map(({ workflowId: _w, ...rest }) => rest);
    expect(decided(again)).toEqual(decided(reference));
    expect(again.learned).toEqual(reference.learned);
    // The checkpoint's episodes ran once, in the terminated run; the rest in the new one.
    const starts = await Promise.all(
      again.episodes.map(async (e) => (await served.env.client.workflow.getHandle(e.workflowId).describe()).startTime.getTime()),
    );
    for (const [index, startedAt] of starts.entries()) {
      if (index < kept) expect(startedAt).toBeLessThan(terminatedAt);
      else expect(startedAt).toBeGreaterThanOrEqual(terminatedAt - 1000);
    }
  });

  (ZORK ? it : it.skip)(
    'replays what earlier episodes learned (Zork I; skipped without ../shared/games/zork1.z3): the next episode plans its way to the rewards found before',
    async () => {
      const result = await served.env.client.workflow.execute(campaignWorkflow, {
        taskQueue,
        workflowId: `campaign-planning-${Date.now()}`,
        args: [campaignInput({ game: ZORK!, episodes: 2, seed: 1, maxTurns: 40 })],
      });
      const [first, second] = result.episodes.map((e) => readTranscript(dataDir, e.workflowId));
      const firstReward = (turns: typeof first) => turns.findIndex((t) => t.score > 0);
      expect(firstReward(first)).toBeGreaterThanOrEqual(0);
      expect(second.some((t) => t.reason === 'planned' && t.why?.startsWith('a learned path'))).toBe(true);
      expect(firstReward(second)).toBeGreaterThanOrEqual(0);
      expect(firstReward(second)).toBeLessThanOrEqual(firstReward(first));
      // The replayed plan gets the next episode to what the first one scored along the way the plan
      // follows. A plan is over exact world states: the troll's fight and the thief go by the game's
      // RNG (each episode has its own seed), so where a blow that landed in the first episode misses
      // in the next, the plan takes a turn or two longer, and past the fight the states differ and
      // the plan ends (the first episode's Loud Room, further on, is not planned to). So: the score
      // the first episode had one step past the second's last learned step, reached within 3 turns.
      const lastPlanned = second.map((t) => t.reason === 'planned' && t.why?.startsWith('a learned path')).lastIndexOf(true);
      const target = first[Math.min(lastPlanned + 1, first.length - 1)].score;
      expect(target).toBeGreaterThan(0);
      const reaching = (turns: typeof first) => turns.findIndex((t) => t.score >= target);
      expect(reaching(second)).toBeGreaterThanOrEqual(0);
      expect(reaching(second)).toBeLessThanOrEqual(reaching(first) + 3);
      // Two 40-turn Zork I episodes, each turn probing every valid action: the first scores within them.
    },
    12 * 60_000,
  );
});

describe('episodeWorkflow on a story that faults', () => {
  it('ends the episode where the story faults on a command, keeping the turns and the score before it', async () => {
    // A story in which each command scores a point, and the sixth runs an illegal instruction.
    const dir = tempDataDir();
    mkdirSync(dir, { recursive: true });
    const story = join(dir, 'faults.z3');
    writeFileSync(story, syntheticStory({ crashAfter: 5 }));
    const handle = await start({ game: story, assist: 'none', seed: 2, maxTurns: 60 }, 'story-fault');
    const result = await handle.result();
    expect(result.storyFault).toMatchObject({
      turn: 6,
      command: expect.stringMatching(/\w/),
      message: expect.stringMatching(/faults\.z3 .*at pc \d+.*Z-machine stopped/),
    });
    // The five turns before it are the episode's, with the score they reached.
    expect(result).toMatchObject({ turns: 5, score: 5, stopped: false });
    expect(readTranscript(dataDir, handle.workflowId).map((t) => [t.turn, t.score])).toEqual([1, 2, 3, 4, 5].map((n) => [n, n]));
    // Not retried: the fault is the story's, the same on every try.
    const history = await handle.fetchHistory();
    const failed = history.events!.filter((e) => e.activityTaskFailedEventAttributes);
    expect(failed).toHaveLength(1);
  });
});
