import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { candidateProber, findValidActions, findValidActionsYielding, GameSession } from '../../src/engine';
import { VmFaultError } from '../../src/engine/errors';
import { defaultProbeThreads, ProbePool } from '../../src/engine/probePool';
import { describeWithGame, describeWithJerichoStory, GAME_FILES, ZORK_ROUTE } from '../helpers';

// The pool must change how fast the search runs, never what it finds.
describeWithGame('zork1.z3', 'probe pool on Zork I', (zork) => {
  const pool = new ProbePool(2);
  afterAll(() => pool.close());

  it('finds exactly what the serial search finds, state after state', async () => {
    const session = GameSession.fromFile(zork, { seed: 1 });
    for (const command of ZORK_ROUTE.slice(0, 12)) {
      const before = Buffer.from(session.snapshot());
      const pooled = await findValidActionsYielding(session, { pool });
      expect(Buffer.from(session.snapshot()).equals(before)).toBe(true);
      expect(pooled).toEqual(findValidActions(session));
      session.step(command);
    }
  });

  it('heartbeats while the threads work', async () => {
    const session = GameSession.fromFile(zork, { seed: 1 });
    for (const command of ZORK_ROUTE.slice(0, 24)) session.step(command);
    let beats = 0;
    const found = await findValidActionsYielding(session, { pool, yieldEveryMs: 5, onYield: () => beats++ });
    expect(found.length).toBeGreaterThan(0);
    expect(beats).toBeGreaterThan(0);
  });
});

// The pairs pass is planned from the first pass's hits: the threads must hand them back in candidate order.
describeWithJerichoStory('acorncourt.z5', 'probe pool on a game whose pairs are planned from many hits', (acorncourt) => {
  it('finds exactly what the serial search finds, equivalents in the same order', async () => {
    const pool = new ProbePool(2);
    try {
      const session = GameSession.fromFile(acorncourt, { seed: 4 });
      expect(await findValidActionsYielding(session, { pool })).toEqual(findValidActions(session));
    } finally {
      await pool.close();
    }
  });
});

describe('probe pool', () => {
  it('matches the serial search on a game with no binding', async () => {
    const pool = new ProbePool(3);
    try {
      const session = GameSession.fromFile(join(GAME_FILES, 'ferry.z8'), { binding: null });
      expect(await findValidActionsYielding(session, { pool })).toEqual(findValidActions(session));
    } finally {
      await pool.close();
    }
  });

  it('shares a pass with the calling thread in chunks, each candidate tried once, hits in candidate order', async () => {
    const pool = new ProbePool(1);
    try {
      const session = GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5'));
      const candidates = Array.from({ length: 200 }, (_, i) => (i === 150 ? 'open wooden chest' : `examine thing${i}`));
      const start = session.captureState();
      const probe = candidateProber(session, start);
      const here: number[] = [];
      const hits = await pool.probeHits(session, candidates, 1000, start, async (indices) => {
        here.push(...indices);
        return indices.map((i) => probe(candidates[i], i)).filter((hit) => hit !== null);
      });
      // The thread had two chunks in hand before the calling thread took its first.
      expect(here.length).toBeGreaterThan(0);
      expect(here.length).toBeLessThan(candidates.length);
      expect(new Set(here).size).toBe(here.length);
      // The chest's command was tried once, by whichever side held its chunk, and numbered from the offset.
      expect(hits.map((hit) => hit.index)).toEqual([1150]);
    } finally {
      await pool.close();
    }
  });

  it('starts its threads from any working directory (grue run from a folder of its own)', async () => {
    const home = process.cwd();
    process.chdir(tmpdir());
    const pool = new ProbePool(1);
    try {
      const session = GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5'));
      expect((await pool.probe(session, ['look', 'open wooden chest'])).size).toBe(1);
    } finally {
      process.chdir(home);
      await pool.close();
    }
  });

  it('stops sharing out a pass when a thread fails, and ends it only once the calling thread has stopped', async () => {
    const pool = new ProbePool(1);
    try {
      const session = GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5'));
      // The thread has the story loaded, so its error comes back at once.
      expect((await pool.probe(session, ['look', 'open wooden chest'])).size).toBe(1);
      const broken = { ...session.captureState(), ram: new Uint8Array(3) };
      const candidates = Array.from({ length: 2000 }, (_, i) => `examine thing${i}`);
      let ended = false;
      let sharesAfterTheEnd = 0;
      let shares = 0;
      const here = async (_indices: number[]) => {
        shares++;
        if (ended) sharesAfterTheEnd++;
        // As long as a chunk of real candidates: the thread's error comes back meanwhile.
        await new Promise((resolve) => setTimeout(resolve, 20));
        return [];
      };
      await expect(pool.probeHits(session, candidates, 0, broken, here)).rejects.toThrow(/probe thread: .*different story/);
      ended = true;
      await new Promise((resolve) => setTimeout(resolve, 100));
      expect(sharesAfterTheEnd).toBe(0);
      // 2,000 candidates are 32 chunks of 64: the failure stopped the calling thread long before its share was done.
      expect(shares).toBeGreaterThan(0);
      expect(shares).toBeLessThan(10);
    } finally {
      await pool.close();
    }
  });

  it('reports a thread failure as an error, not a hang', async () => {
    const pool = new ProbePool(1);
    try {
      const session = GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5'));
      const broken = { ...session.captureState(), ram: new Uint8Array(3) };
      jest.spyOn(session, 'captureState').mockReturnValue(broken);
      await expect(pool.probe(session, ['look'])).rejects.toThrow(/probe thread: .*different story/);
    } finally {
      await pool.close();
    }
  });

  it('stops a thread that does not answer in time, fails its search as a fault of the story, and starts another', async () => {
    // A limit no search can meet stands in for a candidate that loops inside one instruction.
    const pool = new ProbePool(1, { baseMs: 1, perCandidateMs: 0 });
    try {
      const session = GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5'));
      const stuck = pool.probe(session, ['look', 'open wooden chest']);
      await expect(stuck).rejects.toBeInstanceOf(VmFaultError);
      await expect(stuck).rejects.toThrow(/lighthouse\.z5 .*without answering/);
      // The next search goes to a new thread (sent to the stopped one, it would never be answered).
      await expect(pool.probe(session, ['look'])).rejects.toThrow(/without answering/);
    } finally {
      await pool.close();
    }
  });

  it("times a search from when its thread starts on it, not while it waits behind another game's search", async () => {
    // One thread: a long search, then a one-candidate search sent while the first still runs. The
    // second's limit (250 ms) is far less than the first takes; counted from when it was sent, it
    // "stalled" and failed, and the first with it. The first's own slices get 50 ms a candidate: at
    // 10 a slice of 64 (840 ms) ran out on a CI machine busy with other suites (2026-12-07).
    const pool = new ProbePool(1, { baseMs: 200, perCandidateMs: 50 });
    try {
      const session = GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5'));
      const long = Array.from({ length: 2000 }, (_, i) => (i % 2 ? 'open wooden chest' : 'look'));
      const started = performance.now();
      const first = pool.probeHits(session, long);
      const second = pool.probeHits(session, ['open wooden chest']);
      const [firstHits, secondHits] = await Promise.all([first, second]);
      expect(performance.now() - started).toBeGreaterThan(250); // the second did wait longer than its own limit
      expect(firstHits.length).toBeGreaterThan(0);
      expect(secondHits.map((hit) => hit.action.command)).toEqual(['open wooden chest']);
    } finally {
      await pool.close();
    }
  });

  it('fails a search queued behind a stuck one with an error to retry, not as a fault of its story', async () => {
    const pool = new ProbePool(1, { baseMs: 1, perCandidateMs: 0 });
    try {
      const session = GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5'));
      const stuck = pool.probeHits(session, ['look', 'open wooden chest']);
      const queued = pool.probeHits(session, ['look']);
      await expect(stuck).rejects.toBeInstanceOf(VmFaultError);
      const error = await queued.catch((err: unknown) => err);
      expect(error).not.toBeInstanceOf(VmFaultError);
      expect(String(error)).toMatch(/waited behind it; try again/);
    } finally {
      await pool.close();
    }
  });

  it('sizes itself from GRUE_PROBE_THREADS and rejects nonsense', () => {
    expect(defaultProbeThreads({ GRUE_PROBE_THREADS: '3' })).toBe(3);
    expect(defaultProbeThreads({})).toBeGreaterThanOrEqual(1);
    expect(() => defaultProbeThreads({ GRUE_PROBE_THREADS: 'many' })).toThrow(/GRUE_PROBE_THREADS must be a whole number/);
    expect(() => new ProbePool(0)).toThrow(/at least one thread/);
  });
});
