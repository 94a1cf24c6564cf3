import { ApplicationFailure } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createActivities } from '../../src/activities';
import { runDir } from '../../src/activities/files';
import { freshLearned } from '../../src/agent/learned';
import { DEFAULT_VERB_PRIOR, worthOfShapes } from '../../src/agent/verbPrior';
import { tempDataDir } from './env';
import { describeWithGame } from '../helpers';

const dataDir = tempDataDir();
const acts = createActivities({ dataDir });
const env = new MockActivityEnvironment();
const run = <T>(fn: () => Promise<T>): Promise<T> => env.run(fn) as Promise<T>;

async function failure(p: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await p.then(
    () => null,
    (e) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}

describe('game activities', () => {
  it('startGame returns the intro, ground truth, valid actions and a snapshot', async () => {
    const s = await run(() => acts.startGame({ game: 'lighthouse', seed: 1 }));
    expect(s.observation).toMatch(/fix the light/);
    expect(s.truth.location.name).toBe('Rocky Shore');
    expect(s.options.map((o) => o.command)).toContain('open wooden chest');
    expect(s.maxScore).toBe(20);
    expect(s.storyMd5).toMatch(/^[0-9a-f]{32}$/);
    expect(Buffer.from(s.snapshot, 'base64').subarray(0, 8).toString()).toBe('GRUESNP2');
  });

  it('startGame plays the opening commands first, and their replies join the opening text', async () => {
    const s = await run(() => acts.startGame({ game: 'lighthouse', seed: 1, openingCommands: ['open chest'] }));
    expect(s.observation).toMatch(/fix the light[\s\S]*revealing an iron key/);
    expect(s.options.map((o) => o.command)).toContain('take iron key');
  });

  it('stepGame is a pure function of (snapshot, command): a retry returns the same result', async () => {
    const s = await run(() => acts.startGame({ game: 'lighthouse', seed: 1 }));
    const input = { game: 'lighthouse', storyMd5: s.storyMd5, snapshot: s.snapshot, command: 'open chest' };
    const a = await run(() => acts.stepGame(input));
    const b = await run(() => acts.stepGame(input));
    // Another worker: a fresh set of activities with no cached session.
    const c = await run(() => createActivities({ dataDir }).stepGame(input));
    expect(b).toEqual(a);
    expect(c).toEqual(a);
    expect(a.observation).toMatch(/revealing an iron key/);
    expect(a.options.map((o) => o.command)).toContain('take iron key');
    expect(a.options.find((o) => o.command === 'take iron key')!.resultHash).toMatch(/^[0-9a-f]{32}$/);
  });

  it('tells the agent as much as its assist level allows: outcomes and cells (probe), the commands (valid), nothing (none)', async () => {
    const start = await run(() => acts.startGame({ game: 'lighthouse', seed: 1 }));
    const step = (assist: 'probe' | 'valid' | 'none') =>
      run(() => acts.stepGame({ game: 'lighthouse', storyMd5: start.storyMd5, snapshot: start.snapshot, command: 'open chest', assist }));
    const [probe, valid, none] = [await step('probe'), await step('valid'), await step('none')];
    const key = probe.options.find((o) => o.command === 'take iron key')!;
    // The key leaves the chest for the player's inventory: the cell it leads to carries it.
    expect(key.resultCell).toMatch(new RegExp(`^${probe.truth.location.id}/\\d+/0$`));
    expect(key.resultCell).not.toBe(`${probe.truth.location.id}//0`);
    expect(probe.commands).toEqual([]);
    expect(valid.options).toEqual([]);
    expect(valid.commands).toEqual(probe.options.map((o) => o.command));
    expect(none.options).toEqual([]);
    expect(none.commands).toEqual([]);
    // Under none, only the words of the reply that name things of the story.
    expect(none.nouns).toEqual(expect.arrayContaining(['chest', 'key', 'lamp']));
    expect(probe.nouns ?? []).toEqual([]);
    // The same step, whatever the agent is told.
    const same = (result: typeof probe) => ({ ...result, options: [], commands: [], nouns: [] });
    for (const other of [valid, none]) expect(same(other)).toEqual(same(probe));
  });

  it("startGame under none returns the story's lexicon and the prior's worth of its shapes, for the history to hold", async () => {
    const none = await run(() => acts.startGame({ game: 'lighthouse', seed: 1, assist: 'none' }));
    expect(none.lexicon?.templates).toEqual(expect.arrayContaining(['take $', 'open $']));
    expect(none.shapeWorth).toEqual(worthOfShapes(DEFAULT_VERB_PRIOR, none.lexicon!));
    const valid = await run(() => acts.startGame({ game: 'lighthouse', seed: 1, assist: 'valid' }));
    expect([valid.lexicon, valid.shapeWorth]).toEqual([undefined, undefined]);
  });

  it('rejects bad inputs as non-retryable failures that name the field', async () => {
    const f = await failure(run(() => acts.stepGame({ game: 'lighthouse', storyMd5: 'abc', snapshot: '', command: 'look' })));
    expect(f.nonRetryable).toBe(true);
    expect(f.type).toBe('InvalidInput');
    expect(f.message).toMatch(/storyMd5/);
    expect(f.message).toMatch(/snapshot/);
  });

  it('classifies a missing game, a bad command and a foreign snapshot as non-retryable', async () => {
    const missing = await failure(run(() => acts.startGame({ game: 'no-such-game', seed: 0 })));
    expect(missing).toMatchObject({ nonRetryable: true, type: 'STORY_NOT_FOUND' });

    const s = await run(() => acts.startGame({ game: 'lighthouse', seed: 1 }));
    const badCommand = await failure(
      run(() => acts.stepGame({ game: 'lighthouse', storyMd5: s.storyMd5, snapshot: s.snapshot, command: 'x'.repeat(500) })),
    );
    expect(badCommand).toMatchObject({ nonRetryable: true, type: 'INVALID_COMMAND' });

    const other = await run(() => acts.startGame({ game: 'ferry', seed: 1 }));
    const mismatch = await failure(
      run(() => acts.stepGame({ game: 'lighthouse', storyMd5: s.storyMd5, snapshot: other.snapshot, command: 'look' })),
    );
    expect(mismatch).toMatchObject({ nonRetryable: true, type: 'BAD_SNAPSHOT' });

    const wrongStory = await failure(
      run(() => acts.stepGame({ game: 'lighthouse', storyMd5: other.storyMd5, snapshot: other.snapshot, command: 'look' })),
    );
    expect(wrongStory).toMatchObject({ nonRetryable: true, type: 'StoryMismatch' });
  });
});

describeWithGame('905.z5', 'a turn on a story whose probe takes seconds', (game) => {
  it('heartbeats while it probes the valid actions, and concurrent turns on one story do not share a session', async () => {
    const start = await run(() => acts.startGame({ game, seed: 1 }));
    const standing = await run(() => acts.stepGame({ game, storyMd5: start.storyMd5, snapshot: start.snapshot, command: 'stand up' }));
    const probing = new MockActivityEnvironment({ heartbeatTimeoutMs: 10_000 });
    let beats = 0;
    probing.on('heartbeat', () => beats++);
    const input = { game, storyMd5: start.storyMd5, snapshot: standing.snapshot, command: 'south' };
    const alone = (await probing.run(acts.stepGame, input)) as Awaited<ReturnType<typeof acts.stepGame>>;
    expect(alone.truth.location.name).toBe('Bathroom');
    expect(alone.options.length).toBeGreaterThan(3);
    expect(beats).toBeGreaterThan(0);
    // Two turns at once on the same worker, from different states: each sees only its own game.
    const other = { game, storyMd5: start.storyMd5, snapshot: start.snapshot, command: 'take wallet' };
    const [together, otherTogether] = await Promise.all([run(() => acts.stepGame(input)), run(() => acts.stepGame(other))]);
    const otherAlone = await run(() => acts.stepGame(other));
    expect(together).toEqual(alone);
    expect(otherTogether).toEqual(otherAlone);
  }, 120_000);
});

describe('file activities', () => {
  const turn = (n: number) => ({
    turn: n,
    command: 'look',
    observation: `obs ${n}`,
    score: 0,
    moves: n,
    location: 'Here',
    worldHash: 'h',
    validActions: 1,
  });

  it('writes transcript chunks atomically and idempotently, and assembles them in order', async () => {
    const id = 'wf/with:odd chars';
    const p1 = await run(() => acts.writeTranscriptChunk({ workflowId: id, turns: [turn(1), turn(2)] }));
    const bytes = readFileSync(p1);
    await run(() => acts.writeTranscriptChunk({ workflowId: id, turns: [turn(1), turn(2)] }));
    expect(readFileSync(p1).equals(bytes)).toBe(true);
    await run(() => acts.writeTranscriptChunk({ workflowId: id, turns: [turn(3)] }));
    const path = await run(() => acts.finalizeTranscript({ workflowId: id }));
    const again = await run(() => acts.finalizeTranscript({ workflowId: id }));
    expect(again).toBe(path);
    expect(
      readFileSync(path, 'utf8')
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l).turn),
    ).toEqual([1, 2, 3]);
    const leftovers = readdirSync(join(runDir(dataDir, id), 'turns')).filter((f) => f.includes('.tmp-'));
    expect(leftovers).toEqual([]);
  });

  it('keeps one folder per workflow id: ids that clean to the same name do not share a transcript', async () => {
    const ids = ['chaos-col a', 'chaos-col/a', 'chaos-col_a', `${'x'.repeat(200)}1`, `${'x'.repeat(200)}2`, '..', '.hidden'];
    const folders = ids.map((id) => runDir(dataDir, id));
    expect(new Set(folders).size).toBe(ids.length);
    for (const folder of folders) expect(folder.startsWith(join(dataDir, 'runs') + '/')).toBe(true);
    expect(runDir(dataDir, 'chaos-col_a')).toBe(join(dataDir, 'runs', 'chaos-col_a')); // a safe id is its own name
    for (const [index, id] of ids.entries())
      await run(() => acts.writeTranscriptChunk({ workflowId: id, turns: [{ ...turn(1), observation: `episode ${index}` }] }));
    for (const [index, id] of ids.entries()) {
      const path = await run(() => acts.finalizeTranscript({ workflowId: id }));
      expect(
        readFileSync(path, 'utf8')
          .trim()
          .split('\n')
          .map((l) => JSON.parse(l).observation),
      ).toEqual([`episode ${index}`]);
    }
  });

  it('writes results.json idempotently and keeps a backup of what it replaces', async () => {
    const results = { campaignId: 'c1', game: 'ferry', episodes: [], meanScore: 0, maxScore: 0, learned: freshLearned() };
    const path = await run(() => acts.writeResults({ campaignId: 'c1', results }));
    const first = readFileSync(path);
    await run(() => acts.writeResults({ campaignId: 'c1', results }));
    expect(readFileSync(path).equals(first)).toBe(true);
    expect(existsSync(`${path}.bak`)).toBe(false);
    await run(() => acts.writeResults({ campaignId: 'c1', results: { ...results, meanScore: 1 } }));
    expect(JSON.parse(readFileSync(`${path}.bak`, 'utf8')).meanScore).toBe(0);
    expect(JSON.parse(readFileSync(path, 'utf8'))).toMatchObject({ meanScore: 1, resultsPath: path });
  });

  it('writes memory files atomically, keeping the version each replaces, and refuses names that are paths', async () => {
    const first = await run(() =>
      acts.writeMemoryFiles({ workflowId: 'm1', files: { locations: { Hall: {} }, compaction_state: { compactions: 1 } } }),
    );
    expect(first.map((p) => p.split('/').slice(-2).join('/'))).toEqual(['memory/locations.json', 'memory/compaction_state.json']);
    await run(() => acts.writeMemoryFiles({ workflowId: 'm1', files: { locations: { Hall: {}, Kitchen: {} } } }));
    expect(JSON.parse(readFileSync(first[0], 'utf8'))).toEqual({ Hall: {}, Kitchen: {} });
    expect(JSON.parse(readFileSync(`${first[0]}.bak`, 'utf8'))).toEqual({ Hall: {} });
    const escape = await failure(run(() => acts.writeMemoryFiles({ workflowId: 'm1', files: { '../../etc/x': {} } })));
    expect(escape).toMatchObject({ nonRetryable: true, type: 'InvalidInput' });
  });

  it('rejects a malformed turn record', async () => {
    // A malformed record can still arrive (another grue, a hand-made call): the boundary's parse rejects it.
    const f = await failure(run(() => acts.writeTranscriptChunk({ workflowId: 'x', turns: [{ turn: 'one' }] } as never)));
    expect(f.nonRetryable).toBe(true);
    expect(f.message).toMatch(/turns\.0\.turn/);
  });
});
