/**
 * Worker threads that try valid-action candidates in parallel, beside the thread that asks. Each
 * thread keeps its own VM per story; a pass is handed out in chunks, each sent with the state
 * (RAM, stack, registers: a few kilobytes), tried exactly as the serial search tries them
 * (candidateProber), and the ones that changed the world sent back. Hits are merged by candidate
 * index, so the result is the same as the serial search's whatever the thread count or timing.
 */
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import type { GameBinding } from './bindings';
import { VmFaultError } from './errors';
import type { GameSession, VmState } from './session';
import { groupHits, type ProbeHit } from './effectGroups';
import { appendAll } from './appendAll';

export interface ProbeRequest {
  id: number;
  md5: string;
  /** The story file, sent the first time a thread sees this story. */
  story?: Uint8Array;
  binding: GameBinding | null;
  state: VmState;
  /** Which pass of which search: a thread sets up once per pass (restore, read the world, time a look and a wait). */
  pass: number;
  /** The candidates this request tries, and each one's index in its pass. */
  commands: string[];
  indices: number[];
}

export type ProbeReply = { id: number; hits: ProbeHit[] } | { id: number; error: string };

/**
 * The calling thread's share of a pass: the candidates at these indices, tried from the same state
 * while the threads try theirs. Its VM has played the game and every earlier search, so it is
 * warm where a thread's is not yet: a thread's first searches of a story run its Z-code cold,
 * several times slower (V8 has not compiled the blocks yet).
 */
export type ProbeHere = (indices: number[]) => Promise<ProbeHit[]>;

/** Below this many candidates a search is not worth splitting. */
const MIN_PARALLEL_CANDIDATES = 48;

/**
 * A pass is handed out in chunks, each to whichever thread (or the calling thread) is free, so a
 * thread still cold on a story takes fewer than a warm one. Small enough that the last chunks do
 * not keep the others waiting, large enough that a request's cost (the state sent, a reply) stays
 * small beside its candidates'.
 */
function chunkSize(candidates: number, shares: number): number {
  return Math.min(64, Math.max(8, Math.ceil(candidates / (shares * 8))));
}

/** Requests a thread has in hand at once: the next one waits in its queue while it works on this one. */
const REQUESTS_IN_FLIGHT = 2;

// Threads run the TypeScript module through tsx, as the CLI does, so there is no build step. Both are
// resolved here: an eval'd thread resolves bare names from the working directory, which need not be grue's.
const BOOTSTRAP = [require.resolve('tsx/cjs'), require.resolve('./probeWorker.ts')].map((m) => `require(${JSON.stringify(m)});`).join(' ');

interface Pending {
  resolve: (hits: ProbeHit[]) => void;
  reject: (err: Error) => void;
  /** Armed when the thread starts on this request: a request waiting behind another is not stuck. */
  timer?: NodeJS.Timeout;
  limitMs: number;
  story: string;
  candidates: number;
}

/**
 * How long a thread may take over its share of a search before it is taken to be stuck: a
 * minute, and a quarter of a second per candidate (a search's share takes seconds; a candidate
 * that hits the block budget, about one). A loop inside a single instruction is not counted by
 * the block budget, and ZVM had one (see zvmObjects.ts): the thread then never answered, and
 * every later search of the worker's games queued behind it.
 */
export interface StallLimit {
  baseMs: number;
  perCandidateMs: number;
}
const STALL_LIMIT: StallLimit = { baseMs: 60_000, perCandidateMs: 250 };

class ProbeThread {
  private readonly worker: Worker;
  private readonly pending = new Map<number, Pending>();
  readonly stories = new Set<string>();
  /** False once the thread was stopped as stuck or exited: the pool starts another. */
  alive = true;

  constructor(private readonly stallLimit: StallLimit) {
    this.worker = new Worker(BOOTSTRAP, { eval: true });
    // Idle threads must not keep a finished CLI process alive.
    this.worker.unref();
    this.worker.on('message', (reply: ProbeReply) => {
      const pending = this.pending.get(reply.id);
      if (!pending) return;
      this.pending.delete(reply.id);
      clearTimeout(pending.timer);
      if ('error' in reply) pending.reject(new Error(`probe thread: ${reply.error}`));
      else pending.resolve(reply.hits);
      this.armHead();
    });
    this.worker.on('error', (err) => this.failAll(err));
    this.worker.on('exit', (code) => {
      this.alive = false;
      this.failAll(new Error(`probe thread exited with code ${code}`));
    });
  }

  private failAll(err: Error): void {
    for (const pending of this.pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(err);
    }
    this.pending.clear();
  }

  run(request: ProbeRequest, story: string): Promise<ProbeHit[]> {
    const limitMs = this.stallLimit.baseMs + this.stallLimit.perCandidateMs * request.indices.length;
    return new Promise((resolve, reject) => {
      this.pending.set(request.id, { resolve, reject, limitMs, story, candidates: request.indices.length });
      this.worker.postMessage(request);
      this.armHead();
    });
  }

  /**
   * The thread answers its requests in the order they were sent, so only the oldest one is being
   * worked on: its stall timer starts now. Two games' searches share the threads of a worker, and
   * a timer started when a request was sent counted the minutes it waited behind the other game's
   * search (a 76-candidate search of Night "stalled" behind Lost Pig's thousands, and both failed).
   */
  private armHead(): void {
    const [head] = this.pending.entries();
    if (!head || head[1].timer) return;
    const [id, pending] = head;
    pending.timer = setTimeout(() => this.stalled(id), pending.limitMs);
  }

  /**
   * Stop a thread that has not answered in time: the request it was working on fails as a fault of
   * its story; those waiting behind it fail with an error the caller may retry (they were not run).
   */
  private stalled(id: number): void {
    const stuck = this.pending.get(id);
    if (!stuck) return;
    this.alive = false;
    this.pending.delete(id);
    stuck.reject(
      new VmFaultError(
        `a probe thread tried ${stuck.candidates} candidate commands of ${stuck.story} for ${Math.round(stuck.limitMs / 1000)} s ` +
          'without answering: one of them runs on inside a single instruction, where the block budget cannot stop it, and the thread was stopped',
      ),
    );
    this.failAll(new Error('probe thread: stopped as stuck on another search while this one waited behind it; try again'));
    void this.worker.terminate();
  }

  terminate(): Promise<number> {
    return this.worker.terminate();
  }
}

export class ProbePool {
  private readonly threads: ProbeThread[] = [];
  private nextId = 1;
  private nextPass = 1;

  constructor(
    readonly size: number = defaultProbeThreads(),
    private readonly stallLimit: StallLimit = STALL_LIMIT,
  ) {
    if (!Number.isInteger(size) || size < 1) throw new Error(`A probe pool needs at least one thread (got ${size}).`);
  }

  /**
   * Try `candidates` from the session's current state on the pool's threads; the session itself
   * is not touched. Returns the effect groups in candidate order (see groupHits).
   */
  async probe(session: GameSession, candidates: string[]): Promise<ReturnType<typeof groupHits>> {
    return groupHits(await this.probeHits(session, candidates));
  }

  /**
   * The candidates that changed the world when tried from `state` (by default the session's
   * current one), numbered from `offset`: a later pass continues the numbering. In candidate
   * order, as the serial search finds them, since the next pass is planned from them.
   */
  async probeHits(
    session: GameSession,
    candidates: string[],
    offset = 0,
    state: VmState = session.captureState(),
    here?: ProbeHere,
  ): Promise<ProbeHit[]> {
    for (let i = this.threads.length - 1; i >= 0; i--) if (!this.threads[i].alive) this.threads.splice(i, 1);
    while (this.threads.length < this.size) this.threads.push(new ProbeThread(this.stallLimit));
    const md5 = session.story.md5;
    const pass = this.nextPass++;
    const size = chunkSize(candidates.length, this.threads.length + (here ? 1 : 0));
    let next = 0;
    let failure: { error: unknown } | undefined;
    const takeChunk = (): number[] | undefined => {
      if (failure || next >= candidates.length) return undefined;
      const indices: number[] = [];
      for (const end = Math.min(candidates.length, next + size); next < end; next++) indices.push(next);
      return indices;
    };
    const onThread = async (thread: ProbeThread): Promise<ProbeHit[]> => {
      const hits: ProbeHit[] = [];
      for (let indices = takeChunk(); indices; indices = takeChunk()) {
        const story = thread.stories.has(md5) ? undefined : session.storyFile;
        thread.stories.add(md5);
        const commands = indices.map((i) => candidates[i]);
        const request = { id: this.nextId++, md5, story, binding: session.binding ?? null, state, pass, commands, indices };
        appendAll(hits, await thread.run(request, session.storyName));
      }
      return hits;
    };
    const onCallingThread = async (probe: ProbeHere): Promise<ProbeHit[]> => {
      const hits: ProbeHit[] = [];
      for (let indices = takeChunk(); indices; indices = takeChunk()) {
        appendAll(hits, await probe(indices));
        // The threads' replies are read, and their next chunks sent, only when this thread is free.
        await new Promise((resolve) => setImmediate(resolve));
      }
      return hits;
    };
    const parts = this.threads.flatMap((thread) => Array.from({ length: REQUESTS_IN_FLIGHT }, () => onThread(thread)));
    if (here) parts.push(onCallingThread(here));
    // After a failure no chunk is handed out, and the pass ends only when every part has stopped:
    // the calling thread's share must not go on with the session once the caller has it back.
    const settled = await Promise.allSettled(
      parts.map((part) =>
        part.catch((error: unknown) => {
          failure ??= { error };
          throw error;
        }),
      ),
    );
    if (failure) throw failure.error;
    const hits = settled.flatMap((part) => (part.status === 'fulfilled' ? part.value : [])).sort((a, b) => a.index - b.index);
    return offset ? hits.map((hit) => ({ ...hit, index: hit.index + offset })) : hits;
  }

  /** Whether a search over this many candidates should use the pool (beside the calling thread). */
  worthIt(candidates: number): boolean {
    return candidates >= MIN_PARALLEL_CANDIDATES;
  }

  async close(): Promise<void> {
    await Promise.all(this.threads.splice(0).map((t) => t.terminate()));
  }
}

/**
 * GRUE_PROBE_THREADS, else one per core but the one the search itself runs on, which takes a share
 * of each pass (at least one; at most 3: beyond four in all the turn's other work dominates).
 */
export function defaultProbeThreads(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.GRUE_PROBE_THREADS;
  if (raw !== undefined && raw !== '') {
    const n = Number(raw);
    if (!Number.isInteger(n) || n < 1 || n > 64) throw new Error(`GRUE_PROBE_THREADS must be a whole number from 1 to 64 (got "${raw}").`);
    return n;
  }
  return Math.max(1, Math.min(4, availableParallelism()) - 1);
}

let shared: ProbePool | undefined;

/** The process's pool, created on first use. */
export function sharedProbePool(): ProbePool {
  shared ??= new ProbePool();
  return shared;
}

/** Stop the process's pool, if one was made (a script that is done; a worker's pool lives as long as it does). */
export async function closeSharedProbePool(): Promise<void> {
  const pool = shared;
  shared = undefined;
  await pool?.close();
}
