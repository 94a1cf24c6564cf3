/**
 * npm run bench:jericho [-- --games 905,advent] [--states N] [--no-parallel]
 * npm run bench:jericho -- --suite [DIR] [--games a,b] [--states N] [--parallel] [--no-serial] [--parts DIR]
 *
 * grue's valid-action generator side by side with Jericho's (PyPI `jericho` 3.3.1, frotz in C),
 * on the same states of Jericho's own walkthroughs: 9:05 and Adventure by default, or with
 * --suite every game of DIR/suite.json (default ../shared/jericho beside the repository) that has
 * a walkthrough, N states each (default 8), with the overall figures and the missed groups
 * (`misses`, each with why grue missed it when the bench can tell). Prints one JSON object on
 * stdout; progress goes to stderr. A suite game grue cannot load is reported (`loaded: false`,
 * with the error) and the run goes on.
 *
 * Setup: a Python venv at ~/.cache/grue/jericho-venv with `jericho==3.3.1` (created on first run,
 * reused after). bench/jericho_driver.py drives Jericho over JSON lines. Jericho tags nouns with
 * spaCy's en_core_web_sm, which no package registry serves for spaCy 3 (Jericho would fetch it
 * from GitHub), so the driver replaces that tagger with the story dictionary's own parts of speech
 * (a word is a noun or adjective when the dictionary says so) and makes sure spaCy never loads.
 * Jericho's object-tree names, which decide most of its objects, are unaffected.
 *
 * States: Jericho plays its walkthrough with its walkthrough seed; the states are the ones before
 * each walkthrough command (9:05: all; Adventure: ~60 evenly spaced), up to the game's end. grue
 * replays the same commands, and so that the two cannot drift apart (a step either plays
 * differently), grue's dynamic memory is overwritten with Jericho's RAM (header excepted) before
 * every step, and its random state with Jericho's (A, interval and counter of frotz's generator,
 * which grue's is): a random event on the next command (an NPC's arrival) goes the same way.
 * At each measured state the object trees are compared (parent and the first 32 attributes,
 * all Jericho reports): `statesInSync`, and `statesOutOfSync` lists any that differ.
 *
 * Timing, back to back at each state: `jerichoMsMedian` is Jericho's serial
 * get_valid_actions(use_object_tree=True, use_ctypes=True, use_parallel=False), done step by step
 * (_identify_interactive_objects, _score_object_names, generate_actions,
 * _filter_candidate_actions) so its groups are kept; `jerichoParallelMsMedian` the same with
 * use_parallel=True (pool start-up excluded). `grueMsMedian` is grue's search as its game turns
 * run it: candidate generation plus the candidates tried on the probe threads (`probeThreads`,
 * GRUE_PROBE_THREADS or one per core but one) and the search's own thread; `grueSerialMsMedian` the same on one thread
 * (searchValidActions). The two must return the same actions, or the bench stops (--no-serial skips it).
 *
 * Definitions, all by Jericho's own effect test: grue's offered commands (one `command` per grue
 * group) are run in Jericho from the same state with _filter_candidate_actions(use_ctypes=True);
 * each gets Jericho's world-diff key, or none when Jericho sees no world change, score change or
 * game end.
 * - Jericho's effects at a state = the keys of its own diff→actions map (`jerichoEffects` = Σ).
 * - `recall` = Σ|Jericho keys also among the keys of grue's commands| / Σ|Jericho keys| over all
 *   states (micro average, 3 decimals); every state and every Jericho group counts.
 * - `recallNet`: the same over Jericho's groups that leave the world changed (`netChange`).
 * - `recallSameOperations`: a Jericho group counts as covered when one of grue's commands does the
 *   same operations, each any number of times (see operationSet): Jericho's key counts every
 *   @set_attr of a parser's scratch attribute, and a one-word name that matches two objects makes
 *   the parser toggle it once more, so "throw map at book" and grue's "throw map at dusty book"
 *   are two keys for one outcome. A diagnostic beside `recall`, which stays Jericho's measure.
 * - `extraEffects` = effects grue finds that Jericho misses: Σ distinct keys of grue's commands
 *   that are not Jericho keys, plus grue commands that fail Jericho's test though Jericho's own
 *   object tree changes or the game ends (`unseenByJericho`; objects leaving play — moved to
 *   parent 0, eaten, washed away — are not in Jericho's diff).
 * - `sceneActions` = grue commands from its scene tier (only global variables change: 9:05's
 *   yes/no in the car, the moves that win it) that fail Jericho's test; listed, not counted invalid.
 * - `invalidActions` = Σ other grue commands that fail Jericho's test: nothing changed by
 *   Jericho's measure or in its object tree (`grueActions` = Σ commands).
 * - `walkthroughNextStep`: of the walkthrough's next commands that have an effect by Jericho's
 *   test, how many have their key among Jericho's keys / among the keys of grue's commands.
 * `invalidExamples` and `missedExamples` (up to 30 each, spread over the states) show what to fix;
 * their `state` is the walkthrough index (the state before command `state`).
 *
 * Long runs: with --parts DIR each game's result is written to DIR/<game>.json as it finishes,
 * and a game whose part is there (measured with the same --states, --parallel and --no-serial,
 * by the same commit of src/ and bench/) is read back instead of measured again; run the same command after a stop and it goes on from
 * the next game. The printed JSON is the same as from one uninterrupted run (its `seconds` is
 * this run's; `gamesFromParts` lists the games read back).
 *
 * Caveats: the seed `@random 0` restores is not synced (grue's session has seed 1). When
 * a walkthrough command ends the game in grue but not in Jericho, grue goes back to the state
 * before it and takes Jericho's RAM (`grueStepFailures`).
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';
import { GameSession, isEmptyDiff, searchValidActions, searchValidActionsYielding, type ValidAction } from '../src/engine';
import { ProbePool } from '../src/engine/probePool';
import { atomicWrite } from '../src/activities/files';

const JERICHO_VERSION = '3.3.1';
const VENV = join(homedir(), '.cache', 'grue', 'jericho-venv');
const VENV_PYTHON = join(VENV, 'bin', 'python');
const DRIVER = join(__dirname, 'jericho_driver.py');
const EXAMPLES = 30;

const GAMES: Record<string, { path: string; defaultStates: number | 'all' }> = {
  '905': { path: join(__dirname, '..', '..', 'shared', 'games', '905.z5'), defaultStates: 'all' },
  advent: { path: join(__dirname, '..', 'node_modules', 'glkote-term', 'tests', 'advent.z5'), defaultStates: 60 },
};
const DEFAULT_SUITE = join(__dirname, '..', '..', 'shared', 'jericho');
const SUITE_STATES = 8;

const USAGE = `usage: npm run bench:jericho -- [--games 905,advent] [--states N] [--no-parallel]
       npm run bench:jericho -- --suite [DIR] [--games a,b] [--states N] [--parallel] [--no-serial] [--parts DIR]

Measures grue's valid-action generator against Jericho ${JERICHO_VERSION} on the same walkthrough
states and prints one JSON object on stdout (progress on stderr).

  --games LIST    comma-separated, from: ${Object.keys(GAMES).join(', ')} (default: all);
                  with --suite, names from suite.json (default: every game with a walkthrough)
  --states N      states per game, evenly spaced along the walkthrough
                  (default: every state for 905, 60 for advent, ${SUITE_STATES} per suite game)
  --suite [DIR]   the Jericho suite in DIR (suite.json + story files; default ${DEFAULT_SUITE})
  --no-parallel   skip timing Jericho's use_parallel=True form (suite mode skips it unless --parallel)
  --no-serial     skip grue's one-thread search (by default run too, and checked to agree)
  --parts DIR     keep each game's result in DIR/<game>.json and skip games already there
                  (same options, same commit): a long run resumes where it stopped
  --help          this text

First run creates ${VENV} and pip-installs jericho==${JERICHO_VERSION} (builds frotz; needs gcc, make).`;

/** One game to measure: its story file, how many states, the commands Jericho's reset plays. */
interface GameSpec {
  game: string;
  rom: string;
  states: number | 'all';
  resetCommands: string[];
}

const SuiteEntry = z.object({
  game: z.string(),
  file: z.string(),
  jerichoSupported: z.boolean().optional(),
  resetCommands: z.array(z.string()).default([]),
  walkthrough: z.array(z.string()).default([]),
});

function suiteGames(dir: string, only: string[] | null, states: number | undefined): GameSpec[] {
  const index = join(dir, 'suite.json');
  if (!existsSync(index)) throw new SetupError(`no suite.json in ${resolve(dir)} (pass the Jericho suite folder to --suite)`);
  const parsed = z.array(SuiteEntry).safeParse(JSON.parse(readFileSync(index, 'utf8')));
  if (!parsed.success) throw new SetupError(`${index} is not a list of suite entries: ${parsed.error.message}`);
  const playable = parsed.data.filter((e) => e.jerichoSupported !== false && e.walkthrough.length > 0);
  if (only) {
    const unknown = only.filter((g) => !playable.some((e) => e.game === g));
    if (unknown.length) throw new SetupError(`not suite games with a walkthrough: ${unknown.join(', ')}`);
  }
  return playable
    .filter((e) => !only || only.includes(e.game))
    .map((e) => ({ game: e.game, rom: resolve(dir, e.file), states: states ?? SUITE_STATES, resetCommands: e.resetCommands }));
}

const progress = (msg: string) => process.stderr.write(`bench:jericho ${msg}\n`);

/** A setup problem: one line on stderr, exit 2. */
class SetupError extends Error {}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const round = (x: number, digits = 1) => Number(x.toFixed(digits));

function median(xs: number[]): number {
  if (!xs.length) return 0;
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
}

const clip = (text: string, max = 300) => (text.length > max ? `${text.slice(0, max)}…` : text);

/** Up to n items spread evenly over xs, first and last included. */
function spread<T>(xs: T[], n: number): T[] {
  if (xs.length <= n) return xs;
  const out: T[] = [];
  for (let i = 0; i < n; i++) out.push(xs[Math.round((i * (xs.length - 1)) / (n - 1))]);
  return out;
}

// --- Python side --------------------------------------------------------------------------------

function jerichoInstalled(): boolean {
  if (!existsSync(VENV_PYTHON)) return false;
  const check = spawnSync(VENV_PYTHON, ['-c', `import sys, jericho; sys.exit(0 if jericho.__version__ == "${JERICHO_VERSION}" else 3)`], {
    stdio: 'ignore',
  });
  return check.status === 0;
}

function ensureVenv(): void {
  if (jerichoInstalled()) return;
  const python = process.env.PYTHON ?? 'python3';
  if (!existsSync(VENV_PYTHON)) {
    progress(`creating a Python venv at ${VENV}`);
    const venv = spawnSync(python, ['-m', 'venv', VENV], { stdio: ['ignore', 2, 2] });
    if (venv.error || venv.status !== 0)
      throw new SetupError(
        `could not create the venv with "${python} -m venv ${VENV}" (${venv.error?.message ?? `exit ${venv.status}`}); is Python 3 with venv installed?`,
      );
  }
  progress(`installing jericho==${JERICHO_VERSION} into ${VENV} (builds frotz from source, pulls spaCy; a few minutes)`);
  const pip = spawnSync(VENV_PYTHON, ['-m', 'pip', 'install', `jericho==${JERICHO_VERSION}`], { stdio: ['ignore', 2, 2] });
  if (pip.error || pip.status !== 0)
    throw new SetupError(
      `pip install jericho==${JERICHO_VERSION} failed in ${VENV} (${pip.error?.message ?? `exit ${pip.status}`}; see pip's output above)`,
    );
  if (!jerichoInstalled()) throw new SetupError(`jericho ${JERICHO_VERSION} installed into ${VENV} but "import jericho" fails there`);
}

const Failure = z.object({ ok: z.literal(false), error: z.string(), traceback: z.string().optional() });
const Ok = z.object({ ok: z.literal(true), spacyLoaded: z.boolean().optional() });
const Ready = Ok.extend({ ready: z.literal(true), version: z.string(), nounTagger: z.string() });
const LoadReply = Ok.extend({
  name: z.string(),
  seed: z.number(),
  walkthrough: z.array(z.string()),
  wordLength: z.number(),
  nouns: z.number(),
  adjectives: z.number(),
});
const ObserveReply = Ok.extend({
  ram: z.string(),
  rng: z.object({ a: z.number(), interval: z.number(), counter: z.number() }),
  objects: z.array(z.tuple([z.number(), z.number(), z.string()])),
  score: z.number(),
  moves: z.number(),
  done: z.boolean(),
});
/** net: whether the group's first action leaves the world different (see the driver's _net_change). */
/** objects: the fewest object slots any of the group's actions fills (0, 1 or 2). */
const Group = z.object({ key: z.string(), actions: z.array(z.string()), net: z.boolean(), objects: z.number() });
const ValidReply = Ok.extend({
  ms: z.number(),
  candidates: z.number(),
  objectNames: z.array(z.string()),
  groups: z.array(Group),
  parallelMs: z.number().optional(),
  parallelSameKeys: z.boolean().optional(),
  parallelError: z.string().optional(),
  /** Candidates that halt Jericho's emulator, which end its own search; its groups are those of every other candidate. */
  haltingCount: z.number().optional(),
});
const TestReply = Ok.extend({
  keys: z.array(z.string().nullable()),
  probeKey: z.string().nullable(),
  responses: z.record(z.string(), z.string()),
  /** Commands failing the test that still changed Jericho's own object tree or ended the game. */
  unseen: z.record(z.string(), z.object({ objects: z.array(z.number()), ended: z.boolean() })),
});
const StepReply = Ok.extend({ observation: z.string(), done: z.boolean(), score: z.number() });

/** The driver process: one JSON request per line in, one reply per line out. */
class JerichoDriver {
  private readonly child: ChildProcess;
  private readonly replies: string[] = [];
  private readonly waiters: Array<{ resolve: (line: string) => void; reject: (e: Error) => void }> = [];
  private exited: Error | null = null;
  private stderrTail = '';

  constructor() {
    // Its own process group, so pool workers Jericho forks are ended with it.
    // A fixed hash seed: Jericho keeps a state's object names in a set, so the names it picks and
    // the order of its candidates follow Python's string hashes, random per process; seeded, its
    // groups are the same in every run.
    this.child = spawn(VENV_PYTHON, ['-u', DRIVER], {
      stdio: ['pipe', 'pipe', 'pipe'],
      detached: true,
      env: { ...process.env, PYTHONHASHSEED: '0' },
    });
    this.child.stderr!.on('data', (d: Buffer) => {
      process.stderr.write(d);
      this.stderrTail = (this.stderrTail + d.toString()).slice(-4000);
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const w = this.waiters.shift();
      if (w) w.resolve(line);
      else this.replies.push(line);
    });
    this.child.on('exit', (code, signal) => {
      this.exited = new Error(
        `the Jericho driver exited (${signal ?? `code ${code}`})${this.stderrTail.trim() ? `; its last output:\n${this.stderrTail.trim()}` : ''}`,
      );
      for (const w of this.waiters.splice(0)) w.reject(this.exited);
    });
    this.child.on('error', (e) => {
      this.exited = new Error(`could not run the Jericho driver: ${e.message}`);
      for (const w of this.waiters.splice(0)) w.reject(this.exited);
    });
  }

  private nextLine(): Promise<string> {
    const line = this.replies.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  private async read<T>(what: string, schema: z.ZodType<T>): Promise<T> {
    const line = await this.nextLine();
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new Error(`the Jericho driver's reply to ${what} is not JSON: ${line.slice(0, 200)}`);
    }
    const failed = Failure.safeParse(json);
    if (failed.success)
      throw new Error(
        `the Jericho driver failed on ${what}: ${failed.data.error}${failed.data.traceback ? `\n${failed.data.traceback.trimEnd()}` : ''}`,
      );
    const parsed = schema.safeParse(json);
    if (!parsed.success)
      throw new Error(`the Jericho driver's reply to ${what} is not what bench:jericho expects: ${parsed.error.message}`);
    const spacy = (parsed.data as { spacyLoaded?: boolean }).spacyLoaded;
    if (spacy) throw new Error('spaCy was loaded inside the Jericho driver; the dictionary tagger must stand in for it');
    return parsed.data;
  }

  ready() {
    return this.read('start-up', Ready);
  }

  request<T>(req: { op: string } & Record<string, unknown>, schema: z.ZodType<T>): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    this.child.stdin!.write(JSON.stringify(req) + '\n');
    return this.read(req.op, schema);
  }

  kill(): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null || !this.child.pid) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }
}

// --- one game -------------------------------------------------------------------------------------

interface InvalidExample {
  state: number;
  location: string;
  command: string;
  jerichoResponse: string;
}

interface MissedExample {
  state: number;
  location: string;
  jerichoKey: string;
  /** False when the group's action leaves the world as it was (only attributes set and cleared again). */
  netChange: boolean;
  jerichoActions: string[];
  /** Jericho's actions for this effect that were among grue's candidates (grue tried them). */
  inGrueCandidates: string[];
  /** When grue found one of them valid: the command grue offered for that effect instead. */
  grueGroupedAs?: string;
  /** One of grue's commands does the same operations, only some a different number of times. */
  sameOperations?: true;
  why?: string;
}

/** The state indices (before walkthrough command i) to measure: all, or n evenly spaced. */
function pickStates(length: number, n: number | 'all'): Set<number> {
  if (n === 'all' || n >= length) return new Set(Array.from({ length }, (_, i) => i));
  if (n <= 1) return new Set([0]);
  return new Set(Array.from({ length: n }, (_, i) => Math.round((i * (length - 1)) / (n - 1))));
}

/** Compare the object trees: parent and the first 4 attribute bytes (all Jericho's ZObject holds). */
function treeMismatches(session: GameSession, objects: Array<[number, number, string]>): number[] {
  const tree = session.objects.tree(session.mem);
  const out: number[] = [];
  const n = Math.min(tree.length, objects.length);
  for (let k = 0; k < n; k++) {
    const [num, parent, attrHex] = objects[k];
    // Jericho leaves an object it cannot name (no or an over-long short name) as all zeros.
    if (num === 0) continue;
    const g = tree[k];
    const bytes = [0, 0, 0, 0];
    for (const a of g.attributes) if (a < 32) bytes[a >> 3] |= 0x80 >> (a & 7);
    const hex = bytes.map((b) => b.toString(16).padStart(2, '0')).join('');
    if (g.id !== num || g.parent !== parent || hex !== attrHex) out.push(num);
  }
  return out;
}

/**
 * grue's session at the state Jericho's reset() leaves: past any "press a key" screen, with the
 * reset commands played (the walkthrough assumes them). Throws when grue cannot load the story.
 */
function grueSession(spec: GameSpec): GameSession {
  const session = GameSession.fromFile(spec.rom, { seed: 1 });
  const dismissKeyPrompts = () => {
    for (let guard = 0; guard < 8 && session.captureState().input?.type === 'char'; guard++) session.tryCommand('');
  };
  dismissKeyPrompts();
  for (const command of spec.resetCommands) {
    session.tryCommand(command);
    dismissKeyPrompts();
  }
  return session;
}

/**
 * A Jericho effect key as the set of operations it records, each once: "move0:6>64 set0:55>10
 * set1:55>10 clear0:55>10" and "move0:6>64 set0:55>10 clear0:55>10" read the same.
 */
function operationSet(key: string): string {
  return [...new Set(key.split(' ').map((op) => op.replace(/^([a-z]+)\d+:/, '$1:')))].sort().join(' ');
}

/** Why grue missed one of Jericho's groups, as far as the bench can tell. */
function missReason(m: MissedExample): string {
  const toggles = m.netChange ? '' : ' (the group changes nothing in the end: Jericho saw attributes set and cleared)';
  if (m.sameOperations)
    return `grue offers a command with the same operations, some repeated a different number of times (the parser's scratch attributes toggled once more or less, e.g. when Jericho's one-word name for an object is ambiguous)${toggles}`;
  if (m.grueGroupedAs) return `grue found the effect but grouped it with another (grue's diff and Jericho's differ)${toggles}`;
  if (m.inGrueCandidates.length) return `grue tried the command but saw no change (its world diff masks it, or the VMs differ)${toggles}`;
  return `not among grue's candidates${toggles}`;
}

interface BenchOptions {
  parallel: { on: boolean; error?: string };
  /** Also run grue's one-thread search and check it agrees with the threads. */
  serial: boolean;
}

async function benchGame(driver: JerichoDriver, pool: ProbePool, spec: GameSpec, options: BenchOptions) {
  const { game, rom, states } = spec;
  const parallel = options.parallel;
  let session: GameSession;
  try {
    session = grueSession(spec);
  } catch (e) {
    const error = e instanceof Error ? e.message : String(e);
    progress(`${game}: grue cannot load ${rom}: ${error}; skipped`);
    return { game, loaded: false as const, error };
  }
  const load = await driver.request({ op: 'load', rom }, LoadReply);
  const walkthrough = load.walkthrough;
  const measured = pickStates(walkthrough.length, states);
  const dynamicLength = session.captureState().ram.length;
  // The threads load the story and its VM now, as Jericho's load happens before its timing.
  await pool.probe(session, ['look']);
  progress(
    `${game}: walkthrough of ${walkthrough.length} commands (seed ${load.seed}), measuring ${measured.size} states; dictionary tagger: ${load.nouns} nouns, ${load.adjectives} adjectives`,
  );

  let statesMeasured = 0;
  let statesInSync = 0;
  const statesOutOfSync: Array<{ state: number; objects: number[] }> = [];
  let jerichoEffects = 0;
  let covered = 0;
  let jerichoNetEffects = 0;
  let coveredNet = 0;
  let coveredSameOperations = 0;
  /** Jericho's groups and grue's coverage of them by the fewest objects their commands name. */
  const bySlots = [0, 1, 2].map(() => ({ jericho: 0, covered: 0 }));
  let extraEffects = 0;
  let unseenEffects = 0;
  let sceneActions = 0;
  let invalidActions = 0;
  let grueActions = 0;
  let jerichoCandidates = 0;
  let jerichoHaltingCandidates = 0;
  let grueCandidates = 0;
  const grueStepFailures: Array<{ step: number; command: string; reason: string }> = [];
  const walk = { total: 0, jericho: 0, grue: 0 };
  const grueMs: number[] = [];
  const grueSerialMs: number[] = [];
  const unseenExamples: Array<{ state: number; command: string; objects: number[]; ended: boolean }> = [];
  const jerichoMs: number[] = [];
  const jerichoParallelMs: number[] = [];
  let parallelSameKeys = 0;
  const invalid: InvalidExample[] = [];
  const missed: MissedExample[] = [];
  let objectCounts = { grue: session.objects.count, jericho: 0 };
  let endedAt: number | null = null;

  for (let i = 0; i < walkthrough.length; i++) {
    const obs = await driver.request({ op: 'observe' }, ObserveReply);
    if (obs.done) {
      endedAt = i;
      break;
    }
    // Follow Jericho: its RAM (the 64-byte header excepted) and its random state become grue's.
    const ram = Buffer.from(obs.ram, 'base64');
    session.mem.set(ram.subarray(64, Math.min(ram.length, dynamicLength)), 64);
    session.restoreState({ ...session.captureState(), rng: obs.rng });
    const command = walkthrough[i];

    if (measured.has(i)) {
      statesMeasured++;
      objectCounts = { grue: session.objects.count, jericho: obs.objects.length };
      const mismatched = treeMismatches(session, obs.objects);
      if (mismatched.length === 0) statesInSync++;
      else statesOutOfSync.push({ state: i, objects: mismatched.slice(0, 10) });
      const location = session.location.name;

      // Jericho, then grue, on the same state.
      const j = await driver.request({ op: 'valid', parallel: parallel.on }, ValidReply);
      jerichoMs.push(j.ms);
      if (j.parallelMs !== undefined) jerichoParallelMs.push(j.parallelMs);
      if (j.parallelSameKeys) parallelSameKeys++;
      if (j.parallelError && parallel.on) {
        parallel.on = false;
        parallel.error = j.parallelError;
        progress(`Jericho's use_parallel=True failed, not timed from here on: ${j.parallelError}`);
      }
      // grue as its game turns run it (probe threads), then on one thread; both the same actions.
      const t0 = performance.now();
      const search = await searchValidActionsYielding(session, { pool });
      const found = search.actions;
      const ms = performance.now() - t0;
      grueMs.push(ms);
      const t1 = performance.now();
      const candidates = search.candidates;
      const serial = options.serial ? searchValidActions(session).actions : found;
      if (options.serial) grueSerialMs.push(performance.now() - t1);
      if (JSON.stringify(serial) !== JSON.stringify(found)) {
        const show = (actions: ValidAction[]) => actions.map((a) => `${a.command} (${a.outcome}, ${a.scoreDelta})`).join(', ');
        throw new Error(
          `${game} state ${i}: the probe threads and the serial search disagree:\n  threads: ${show(found)}\n  serial:  ${show(serial)}`,
        );
      }
      jerichoCandidates += j.candidates;
      jerichoHaltingCandidates += j.haltingCount ?? 0;
      grueCandidates += candidates.length;

      // grue's offered commands, judged by Jericho from the same state.
      const commands = found.map((f) => f.command);
      const test = await driver.request({ op: 'test', commands, probe: command, responses: 10 }, TestReply);
      const jKeys = new Set(j.groups.map((g) => g.key));
      const gKeys = new Set(test.keys.filter((k): k is string => k !== null));
      const hit = [...jKeys].filter((k) => gKeys.has(k)).length;
      // A command failing Jericho's test is an effect Jericho cannot see when Jericho's own object
      // tree changed or the game ended; a move of grue's scene tier (only globals change, e.g.
      // 9:05's yes/no in the car) is counted apart; anything else the game rejected.
      const isScene = (a: ValidAction) => isEmptyDiff(a.diff) && a.scoreDelta === 0 && !a.endsGame;
      const failing = found.filter((_, k) => test.keys[k] === null);
      const unseen = failing.filter((a) => test.unseen[a.command]);
      const scene = failing.filter((a) => !test.unseen[a.command] && isScene(a));
      const rejected = failing.filter((a) => !test.unseen[a.command] && !isScene(a));
      for (const a of unseen) unseenExamples.push({ state: i, command: a.command, ...test.unseen[a.command] });
      const extra = [...gKeys].filter((k) => !jKeys.has(k)).length + unseen.length;
      const bad = rejected.length;
      jerichoEffects += jKeys.size;
      covered += hit;
      const netKeys = new Set(j.groups.filter((g) => g.net).map((g) => g.key));
      jerichoNetEffects += netKeys.size;
      coveredNet += [...netKeys].filter((k) => gKeys.has(k)).length;
      const gOperations = new Set([...gKeys].map(operationSet));
      coveredSameOperations += [...jKeys].filter((k) => gOperations.has(operationSet(k))).length;
      for (const g of j.groups) {
        const slot = bySlots[Math.min(2, g.objects)];
        slot.jericho++;
        if (gKeys.has(g.key)) slot.covered++;
      }
      extraEffects += extra;
      unseenEffects += unseen.length;
      sceneActions += scene.length;
      invalidActions += bad;
      grueActions += commands.length;
      if (test.probeKey !== null) {
        walk.total++;
        if (jKeys.has(test.probeKey)) walk.jericho++;
        if (gKeys.has(test.probeKey)) walk.grue++;
      }

      for (const a of rejected)
        invalid.push({ state: i, location, command: a.command, jerichoResponse: clip(test.responses[a.command] ?? '(not fetched)') });
      const candidateSet = new Set(candidates.map((c) => c.toLowerCase()));
      const groupOf = new Map<string, string>();
      for (const f of found) for (const c of [f.command, ...f.equivalents]) groupOf.set(c.toLowerCase(), f.command);
      for (const g of j.groups) {
        if (gKeys.has(g.key)) continue;
        const actions = [...new Set(g.actions)];
        const tried = actions.filter((a) => candidateSet.has(a.toLowerCase()));
        const grouped = actions.map((a) => groupOf.get(a.toLowerCase())).find((c) => c !== undefined);
        const miss: MissedExample = {
          state: i,
          location,
          jerichoKey: g.key,
          netChange: g.net,
          jerichoActions: actions.slice(0, 8),
          inGrueCandidates: tried.slice(0, 8),
          ...(grouped ? { grueGroupedAs: grouped } : {}),
          ...(gOperations.has(operationSet(g.key)) ? { sameOperations: true as const } : {}),
        };
        missed.push({ ...miss, why: missReason(miss) });
      }
      progress(
        `${game} ${statesMeasured}/${measured.size} (step ${i}, ${location}): jericho ${jKeys.size} effects in ${round(j.ms, 0)} ms` +
          `${j.parallelMs !== undefined ? ` (parallel ${round(j.parallelMs, 0)} ms)` : ''} | grue ${commands.length} actions in ${round(ms, 0)} ms | ` +
          `covered ${hit}/${jKeys.size}, extra ${extra}, invalid ${bad}`,
      );
    }

    const st = await driver.request({ op: 'step', command }, StepReply);
    // grue plays the command too, so its stack and PC follow; the RAM is replaced next turn.
    const before = session.captureState();
    try {
      session.step(command);
      if (session.isDone && !st.done) {
        session.restoreState(before);
        grueStepFailures.push({ step: i, command, reason: 'the game ended in grue but not in Jericho' });
      }
    } catch (e) {
      session.restoreState(before);
      grueStepFailures.push({ step: i, command, reason: e instanceof Error ? e.message : String(e) });
    }
    if (st.done) {
      endedAt = i + 1;
      break;
    }
  }

  return {
    game,
    loaded: true as const,
    states: statesMeasured,
    recall: jerichoEffects ? round(covered / jerichoEffects, 3) : 0,
    recallNet: jerichoNetEffects ? round(coveredNet / jerichoNetEffects, 3) : 1,
    recallSameOperations: jerichoEffects ? round(coveredSameOperations / jerichoEffects, 3) : 0,
    recallByObjects: bySlots.map((b) => `${b.covered}/${b.jericho}`),
    extraEffects,
    invalidActions,
    grueMsMedian: round(median(grueMs)),
    ...(grueSerialMs.length ? { grueSerialMsMedian: round(median(grueSerialMs)) } : {}),
    probeThreads: pool.size,
    jerichoMsMedian: round(median(jerichoMs)),
    ...(jerichoParallelMs.length
      ? {
          jerichoParallelMsMedian: round(median(jerichoParallelMs)),
          jerichoParallelSameKeys: `${parallelSameKeys}/${jerichoParallelMs.length}`,
        }
      : {}),
    jerichoEffects,
    coveredEffects: covered,
    jerichoNetEffects,
    unseenByJericho: unseenEffects,
    sceneActions,
    grueActions,
    walkthroughNextStep: { jericho: `${walk.jericho}/${walk.total}`, grue: `${walk.grue}/${walk.total}` },
    statesInSync,
    statesOutOfSync,
    objectCounts,
    grueStepFailures: grueStepFailures.slice(0, 10),
    walkthroughLength: walkthrough.length,
    ...(endedAt !== null ? { gameEndedAtStep: endedAt } : {}),
    jerichoCandidatesMean: statesMeasured ? round(jerichoCandidates / statesMeasured) : 0,
    jerichoHaltingCandidates,
    grueCandidatesMean: statesMeasured ? round(grueCandidates / statesMeasured) : 0,
    invalidExamples: spread(invalid, EXAMPLES),
    unseenExamples: spread(unseenExamples, EXAMPLES),
    missedExamples: spread(missed, EXAMPLES),
    // For the suite's totals: every measured state's times and the counts behind recall.
    totals: { grueMs, jerichoMs, jerichoEffects, covered, jerichoNetEffects, coveredNet, coveredSameOperations, bySlots },
  };
}

// --- main -----------------------------------------------------------------------------------------

/** The games to measure: the built-in pair, or the suite's games with --suite. */
function chosenGames(states: number | undefined): { suite: string | null; specs: GameSpec[] } {
  const only =
    arg('games')
      ?.split(',')
      .map((g) => g.trim())
      .filter(Boolean) ?? null;
  const at = process.argv.indexOf('--suite');
  if (at >= 0) {
    const next = process.argv[at + 1];
    const dir = resolve(next && !next.startsWith('--') ? next : DEFAULT_SUITE);
    return { suite: dir, specs: suiteGames(dir, only, states) };
  }
  const games = only ?? Object.keys(GAMES);
  for (const g of games) {
    if (!GAMES[g]) throw new SetupError(`unknown game "${g}" (choose from ${Object.keys(GAMES).join(', ')})`);
    if (!existsSync(GAMES[g].path)) throw new SetupError(`${g}: story file ${resolve(GAMES[g].path)} not found`);
  }
  const specs = games.map((g) => ({ game: g, rom: resolve(GAMES[g].path), states: states ?? GAMES[g].defaultStates, resetCommands: [] }));
  return { suite: null, specs };
}

type GameResult = Awaited<ReturnType<typeof benchGame>>;

/** The suite's figures over every measured state of every loaded game, and the misses with their reasons. */
function suiteSummary(results: GameResult[]) {
  const loaded = results.flatMap((r) => (r.loaded ? [r] : []));
  const sum = (f: (r: (typeof loaded)[number]) => number) => loaded.reduce((a, r) => a + f(r), 0);
  const jerichoEffects = sum((r) => r.totals.jerichoEffects);
  const perGameMisses = Math.max(3, Math.floor((EXAMPLES * 3) / Math.max(1, loaded.length)));
  return {
    recall: jerichoEffects ? round(sum((r) => r.totals.covered) / jerichoEffects, 3) : 0,
    recallNet: round(
      sum((r) => r.totals.coveredNet) /
        Math.max(
          1,
          sum((r) => r.totals.jerichoNetEffects),
        ),
      3,
    ),
    recallSameOperations: jerichoEffects ? round(sum((r) => r.totals.coveredSameOperations) / jerichoEffects, 3) : 0,
    jerichoEffects,
    jerichoNetEffects: sum((r) => r.totals.jerichoNetEffects),
    recallByObjects: [0, 1, 2].map((n) => `${sum((r) => r.totals.bySlots[n].covered)}/${sum((r) => r.totals.bySlots[n].jericho)}`),
    minRecall: loaded.length ? Math.min(...loaded.map((r) => r.recall)) : 0,
    gamesBelow95: loaded.filter((r) => r.recall < 0.95).map((r) => `${r.game} ${r.recall}`),
    extraEffects: sum((r) => r.extraEffects),
    invalidActions: sum((r) => r.invalidActions),
    grueMsMedian: round(median(loaded.flatMap((r) => r.totals.grueMs))),
    jerichoMsMedian: round(median(loaded.flatMap((r) => r.totals.jerichoMs))),
    gamesSlowerThanJericho: loaded
      .filter((r) => r.grueMsMedian > r.jerichoMsMedian)
      .map((r) => `${r.game} ${r.grueMsMedian}/${r.jerichoMsMedian}`),
    notLoaded: results.flatMap((r) => (r.loaded ? [] : [{ game: r.game, error: r.error }])),
    misses: loaded.flatMap((r) => spread(r.missedExamples, perGameMisses).map((m) => ({ game: r.game, ...m }))),
  };
}

/** What a kept result was measured with, the code's commit too; a part measured otherwise is measured again. */
function partOptions(spec: GameSpec, options: BenchOptions, commit: string | null) {
  return { rom: spec.rom, states: spec.states, parallel: options.parallel.on, serial: options.serial, commit };
}

/** The commit of the code under measurement, with "+changes" when the working tree differs from it; null outside git. */
function codeVersion(): string | null {
  const git = (...args: string[]) => spawnSync('git', args, { cwd: join(__dirname, '..'), encoding: 'utf8' });
  const head = git('rev-parse', 'HEAD');
  if (head.status !== 0) return null;
  const dirty = git('status', '--porcelain', '--', 'src', 'bench').stdout.trim() !== '';
  return head.stdout.trim() + (dirty ? '+changes' : '');
}

function readPart(dir: string, spec: GameSpec, measuredWith: ReturnType<typeof partOptions>): GameResult | null {
  const path = join(dir, `${spec.game}.json`);
  if (!existsSync(path)) return null;
  const part = JSON.parse(readFileSync(path, 'utf8')) as { options: unknown; result: GameResult };
  return JSON.stringify(part.options) === JSON.stringify(measuredWith) ? part.result : null;
}

function writePart(dir: string, spec: GameSpec, measuredWith: ReturnType<typeof partOptions>, result: GameResult): void {
  mkdirSync(dir, { recursive: true });
  atomicWrite(join(dir, `${spec.game}.json`), JSON.stringify({ options: measuredWith, result }));
}

async function main(): Promise<void> {
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    console.log(USAGE);
    return;
  }
  const statesArg = arg('states');
  const states = statesArg === undefined ? undefined : Number(statesArg);
  if (states !== undefined && !(Number.isInteger(states) && states > 0))
    throw new SetupError(`--states takes a positive whole number, not "${statesArg}"`);
  const { suite, specs } = chosenGames(states);
  const parallelWanted = suite ? process.argv.includes('--parallel') : !process.argv.includes('--no-parallel');
  const options: BenchOptions = { parallel: { on: parallelWanted }, serial: !process.argv.includes('--no-serial') };

  ensureVenv();
  const started = performance.now();
  let driver = new JerichoDriver();
  const stop = (signal: NodeJS.Signals) => {
    driver.kill();
    process.exit(signal === 'SIGINT' ? 130 : 143);
  };
  process.once('SIGINT', stop).once('SIGTERM', stop);
  process.once('exit', () => driver.kill());
  try {
    const ready = await driver.ready();
    const results: GameResult[] = [];
    const parts = arg('parts');
    if (process.argv.includes('--parts') && (!parts || parts.startsWith('--'))) throw new SetupError('--parts takes a folder');
    const fromParts: string[] = [];
    const commit = parts ? codeVersion() : null;
    const pool = new ProbePool();
    let driverUsed = false;
    for (const spec of specs) {
      const measuredWith = partOptions(spec, options, commit);
      const kept = parts ? readPart(parts, spec, measuredWith) : null;
      if (kept) {
        progress(`${spec.game}: read from ${join(parts!, `${spec.game}.json`)}`);
        fromParts.push(spec.game);
        results.push(kept);
        continue;
      }
      // A fresh Jericho for each game: its C library keeps state from the story loaded before in
      // the same process (Trinity's first state: 21 groups alone, 26 after Snacktime, 28 after Sherlock).
      if (driverUsed) {
        await driver.request({ op: 'quit' }, Ok).catch(() => undefined);
        driver.kill();
        driver = new JerichoDriver();
        await driver.ready();
      }
      driverUsed = true;
      const result = await benchGame(driver, pool, spec, options);
      if (parts) writePart(parts, spec, measuredWith, result);
      results.push(result);
    }
    await pool.close();
    await driver.request({ op: 'quit' }, Ok).catch(() => undefined);
    const games = results.map((r) => {
      if (!r.loaded) return r;
      const { totals: _totals, ...shown } = r;
      return shown;
    });
    console.log(
      JSON.stringify({
        games,
        ...(suite ? { suite, ...suiteSummary(results) } : {}),
        ...(fromParts.length ? { gamesFromParts: fromParts } : {}),
        jericho: {
          version: ready.version,
          nounTagger: ready.nounTagger,
          filter: 'use_object_tree=True, use_ctypes=True, use_parallel=False',
          ...(options.parallel.error ? { parallelError: options.parallel.error } : {}),
        },
        seconds: round((performance.now() - started) / 1000),
      }),
    );
  } finally {
    driver.kill();
  }
}

main().catch((e: unknown) => {
  if (e instanceof SetupError) {
    console.error(`bench:jericho: ${e.message}`);
    process.exit(2);
  }
  console.error(`bench:jericho: ${e instanceof Error ? e.message : String(e)}`);
  process.exit(1);
});
