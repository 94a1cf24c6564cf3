/**
 * npm run bench:groundtruth [-- --games cutthroat,lostpig] [--no-unbound] [--steps N]
 *
 * How often grue's ground truth (location, inventory, score, moves) agrees with Jericho 3.3.1's on
 * the suite's walkthroughs, with the game's binding and without one (`binding: null`: the
 * generic path a user's own game gets). Prints one JSON object on stdout; progress on stderr.
 *
 * grue's random numbers do not match frotz's, so a grue replay diverges where a game is random.
 * To measure ground truth alone, Jericho plays the walkthrough (bench/jericho_driver.py, its own
 * seed) and after every command its dynamic memory (header excepted) is copied into grue sessions
 * of the same story, whose readings are then compared with Jericho's in
 * ../shared/jericho/traces/<game>.json. Before each command grue's memory is Jericho's too, and grue
 * plays the command itself, so its stack and status line follow (degraded mode reads the status line).
 *
 * Readings compared at each step:
 * - location: Jericho's is the player object's parent (get_player_location); grue's the same
 *   object, `within ?? location` (what holds the player, else its room).
 * - inventory: the names of what the player holds, in order, whitespace collapsed.
 * - score and moves.
 * Steps where Jericho's own reading is invalid are left out of that reading's share, decided from
 * Jericho's memory and its own numbers (its player object and how many objects it reads, from the
 * driver), never from grue's answer:
 * - location: Jericho reports none (its get_object returns nothing for an object numbered above
 *   get_num_world_objs or without a name, e.g. Curses' rooms above 255).
 * - inventory: Jericho's list is cut short (get_inventory stops at the first carried object
 *   get_object returns nothing for), or a carried object's name uses a Z-machine abbreviation:
 *   Jericho's get_text (frotz/src/common/text.c) does not move its output past an expanded
 *   abbreviation, so the following letters overwrite it (Cutthroats' "Mariners' Trust passbook"
 *   reads "Mariners' Trust ").
 * A game whose story grue cannot load is reported with its error and left out of the totals.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { GameSession, type GroundTruth } from '../src/engine';
import { jerichoName } from './jerichoReading';
import { checkJerichoInstalled, FactsReply, JerichoDriver, JerichoMissingError, LoadReply, RamReply, StepReply } from './jerichoClient';

const JERICHO_DIR = resolve(__dirname, '..', '..', 'shared', 'jericho');
const READINGS = ['location', 'inventory', 'score', 'moves'] as const;
type Reading = (typeof READINGS)[number];
const EXAMPLES = 5;

const Suite = z.array(
  z.object({
    game: z.string(),
    file: z.string(),
    jerichoSupported: z.boolean(),
    resetCommands: z.array(z.string()),
    walkthrough: z.array(z.string()),
  }),
);
const Trace = z.object({
  steps: z.array(
    z.object({
      command: z.string(),
      score: z.number(),
      moves: z.number(),
      location: z.object({ num: z.number(), name: z.string() }).nullable(),
      inventory: z.array(z.string()),
    }),
  ),
});
type TraceStep = z.infer<typeof Trace>['steps'][number];

const progress = (message: string) => process.stderr.write(`bench:groundtruth ${message}\n`);

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

const normalise = (name: string) => name.replace(/\s+/g, ' ').trim();

interface Tally {
  agree: number;
  compared: number;
}
type Tallies = Record<Reading, Tally>;
const emptyTallies = (): Tallies => Object.fromEntries(READINGS.map((r) => [r, { agree: 0, compared: 0 }])) as Tallies;

interface Disagreement {
  step: number;
  command: string;
  reading: Reading;
  jericho: unknown;
  grue: unknown;
}

/** A session following Jericho: its readings and what went wrong. */
class Follower {
  readonly tallies = emptyTallies();
  readonly examples: Disagreement[] = [];
  stepFailures = 0;

  constructor(readonly session: GameSession) {}

  /** grue plays the command from Jericho's memory (so its stack and status line follow); a failure is counted, not fatal. */
  play(command: string): void {
    const before = this.session.captureState();
    try {
      this.session.step(command);
    } catch {
      this.stepFailures++;
      this.session.restoreState(before);
    }
  }

  /** Inventories with a name Jericho garbles, compared as Jericho renders names (not in the shares above). */
  readonly garbledInventory: Tally = { agree: 0, compared: 0 };

  compare(index: number, step: TraceStep, check: JerichoCheck): void {
    const { valid } = check;
    const truth: GroundTruth = this.session.groundTruth();
    const grue: Record<Reading, unknown> = {
      location: (truth.within ?? truth.location).id,
      inventory: truth.inventory.map((item) => normalise(item.name)),
      score: truth.score,
      moves: truth.moves,
    };
    const jericho: Record<Reading, unknown> = {
      location: step.location?.num,
      inventory: step.inventory.map(normalise),
      score: step.score,
      moves: step.moves,
    };
    for (const reading of READINGS) {
      if (!valid[reading]) continue;
      const tally = this.tallies[reading];
      tally.compared++;
      if (JSON.stringify(grue[reading]) === JSON.stringify(jericho[reading])) tally.agree++;
      else if (this.examples.filter((e) => e.reading === reading).length < EXAMPLES) {
        this.examples.push({ step: index, command: step.command, reading, jericho: jericho[reading], grue: grue[reading] });
      }
    }
    if (check.garbled && !check.cutShort) {
      const { mem, objects, story } = this.session;
      const rendered = truth.inventory.map((item) => {
        const table = objects.propertyTable(mem, item.id);
        return normalise(jerichoName(mem, table + 1, mem[table], story.version).text);
      });
      this.garbledInventory.compared++;
      if (JSON.stringify(rendered) === JSON.stringify(jericho.inventory)) this.garbledInventory.agree++;
    }
  }
}

interface JerichoCheck {
  valid: Record<Reading, boolean>;
  /** Jericho's inventory stops at a carried object it cannot read. */
  cutShort: boolean;
  /** A carried object's name uses an abbreviation, which Jericho drops. */
  garbled: boolean;
  /** Jericho's player's children, named as Jericho renders names. */
  jerichoRendering: string[];
}

/** Which of Jericho's readings at this state are its own to trust (see the header), and its inventory's names. */
function validReadings(session: GameSession, step: TraceStep, player: number, worldObjects: number): JerichoCheck {
  const { objects, mem } = session;
  const readable = (id: number) => id >= 1 && id <= worldObjects && mem[objects.propertyTable(mem, id)] > 0;
  let cutShort = false;
  let garbled = false;
  const names: string[] = [];
  for (const id of objects.children(mem, player)) {
    if (!readable(id)) {
      cutShort = true;
      break;
    }
    const table = objects.propertyTable(mem, id);
    const name = jerichoName(mem, table + 1, mem[table], session.story.version);
    garbled ||= name.garbled;
    names.push(normalise(name.text));
  }
  const valid: Record<Reading, boolean> = { location: step.location !== null, inventory: !cutShort && !garbled, score: true, moves: true };
  return { valid, cutShort, garbled, jerichoRendering: names };
}

function syncRam(session: GameSession, ram: Buffer): void {
  const dynamic = session.story.staticBase;
  session.mem.set(ram.subarray(64, Math.min(ram.length, dynamic)), 64);
}

/** Get a fresh session to where Jericho's reset leaves the game: past key presses, then its reset commands. */
function openLikeJericho(session: GameSession, resetCommands: string[]): void {
  for (let keys = 0; keys < 8 && session.captureState().input?.type === 'char'; keys++) session.tryCommand('');
  for (const command of resetCommands) {
    session.tryCommand(command);
    for (let keys = 0; keys < 8 && session.captureState().input?.type === 'char'; keys++) session.tryCommand('');
  }
}

async function benchGame(driver: JerichoDriver, entry: z.infer<typeof Suite>[number], unbound: boolean, maxSteps: number) {
  const path = join(JERICHO_DIR, entry.file);
  const trace = Trace.parse(JSON.parse(readFileSync(join(JERICHO_DIR, 'traces', `${entry.game}.json`), 'utf8')));
  await driver.request({ op: 'load', rom: path }, LoadReply);
  const facts = await driver.request({ op: 'facts' }, FactsReply);
  const followers: Record<string, Follower> = { bound: new Follower(GameSession.fromFile(path)) };
  if (unbound) followers.unbound = new Follower(GameSession.fromFile(path, { binding: null }));
  for (const follower of Object.values(followers)) openLikeJericho(follower.session, entry.resetCommands);
  const excluded = { location: 0, inventoryCutShort: 0, inventoryGarbled: 0 };
  let jerichoReplayMismatches = 0;
  let jerichoReadingsNotReproduced = 0;
  let ram = Buffer.from((await driver.request({ op: 'ram' }, RamReply)).ram, 'base64');
  const steps = Math.min(trace.steps.length, entry.walkthrough.length, maxSteps);
  for (let i = 0; i < steps; i++) {
    const command = entry.walkthrough[i];
    for (const follower of Object.values(followers)) {
      syncRam(follower.session, ram);
      follower.play(command);
    }
    await driver.request({ op: 'step', command }, StepReply);
    const after = await driver.request({ op: 'ram' }, RamReply);
    ram = Buffer.from(after.ram, 'base64');
    const step = trace.steps[i];
    if (after.score !== step.score || after.moves !== step.moves) jerichoReplayMismatches++;
    let check: JerichoCheck | undefined;
    for (const follower of Object.values(followers)) {
      syncRam(follower.session, ram);
      check ??= validReadings(follower.session, step, facts.player, facts.worldObjects);
      follower.compare(i, step, check);
    }
    if (!check!.valid.location) excluded.location++;
    if (check!.cutShort) excluded.inventoryCutShort++;
    else if (check!.garbled) excluded.inventoryGarbled++;
    // Jericho's reading as the bench reconstructs it from Jericho's memory, against Jericho's own.
    if (!check!.cutShort && JSON.stringify(check!.jerichoRendering) !== JSON.stringify(step.inventory.map(normalise))) {
      jerichoReadingsNotReproduced++;
    }
  }
  const report = (follower: Follower) => ({
    agreement: Object.fromEntries(READINGS.map((r) => [r, share(follower.tallies[r])])),
    tallies: follower.tallies,
    garbledInventory: { ...follower.garbledInventory, agreement: share(follower.garbledInventory) },
    grueStepFailures: follower.stepFailures,
    examples: follower.examples,
  });
  return {
    game: entry.game,
    steps,
    jerichoPlayer: facts.player,
    excluded,
    jerichoReplayMismatches,
    jerichoReadingsNotReproduced,
    ...Object.fromEntries(Object.entries(followers).map(([name, follower]) => [name, report(follower)])),
    unboundPlayer: followers.unbound && {
      found: followers.unbound.session.player,
      by: followers.unbound.session.groundTruthProbe?.playerFoundBy ?? 'none',
    },
  };
}

const share = (t: Tally) => (t.compared ? Number((t.agree / t.compared).toFixed(4)) : null);

function total(results: Array<Record<string, unknown>>, arm: 'bound' | 'unbound') {
  const sum = emptyTallies();
  for (const result of results) {
    const tallies = (result[arm] as { tallies: Tallies } | undefined)?.tallies;
    if (!tallies) continue;
    for (const r of READINGS) {
      sum[r].agree += tallies[r].agree;
      sum[r].compared += tallies[r].compared;
    }
  }
  const core = ['location', 'inventory', 'score'] as const;
  const agree = core.reduce((n, r) => n + sum[r].agree, 0);
  const compared = core.reduce((n, r) => n + sum[r].compared, 0);
  return {
    agreement: Object.fromEntries(READINGS.map((r) => [r, share(sum[r])])),
    locationInventoryScore: share({ agree, compared }),
    tallies: sum,
  };
}

async function main(): Promise<void> {
  checkJerichoInstalled();
  const suite = Suite.parse(JSON.parse(readFileSync(join(JERICHO_DIR, 'suite.json'), 'utf8')));
  const only = arg('games')?.split(',');
  const maxSteps = Number(arg('steps') ?? Infinity);
  const unbound = !process.argv.includes('--no-unbound');
  const games = suite.filter((e) => e.jerichoSupported && e.walkthrough.length && (!only || only.includes(e.game)));
  const driver = new JerichoDriver();
  const stop = () => {
    driver.kill();
    process.exit(130);
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
  const results: Array<Record<string, unknown>> = [];
  const failed: Array<{ game: string; error: string }> = [];
  try {
    await driver.ready();
    for (const entry of games) {
      const started = Date.now();
      try {
        const result = await benchGame(driver, entry, unbound, maxSteps);
        results.push(result);
        const agreement = (arm: string) => (result as Record<string, { agreement?: unknown } | undefined>)[arm]?.agreement;
        const shares = JSON.stringify({ bound: agreement('bound'), unbound: agreement('unbound') });
        progress(`${entry.game}: ${shares} in ${Date.now() - started} ms`);
      } catch (err) {
        failed.push({ game: entry.game, error: err instanceof Error ? err.message.split('\n')[0] : String(err) });
        progress(`${entry.game}: failed: ${failed[failed.length - 1].error}`);
      }
    }
  } finally {
    driver.kill();
  }
  const overall = { bound: total(results, 'bound'), ...(unbound ? { unbound: total(results, 'unbound') } : {}) };
  process.stdout.write(JSON.stringify({ games: results.length, failed, overall, results }, null, 2) + '\n');
}

main().catch((err: unknown) => {
  if (err instanceof JerichoMissingError) {
    progress(err.message);
    process.exit(2);
  }
  progress(err instanceof Error ? (err.stack ?? err.message) : String(err));
  process.exit(1);
});
