/**
 * Replay one game of the Jericho suite in grue exactly as Jericho's trace was made — the game's
 * seed, its reset commands, then its walkthrough — and compare every step with Jericho's: the text
 * (bench/jerichoText.ts) and the ground truth (score, moves, location, inventory, done).
 *
 * Jericho's own reading is not always right, so a step counts for a field only where it is valid.
 * grue plays as Jericho's frotz did (same memory at every step), so its state says what Jericho
 * could read (bench/groundTruth.ts checks these rules against Jericho's own memory):
 * - location: Jericho's is the player's parent (`within ?? location` in grue); a step where Jericho
 *   read none (an object above 255, or a nameless one) is not counted.
 * - inventory: Jericho's list stops at the first carried object above 255, and drops every
 *   abbreviation from a name (bench/jerichoReading.ts); a step where either happens is not counted.
 * - score, moves and done (the game has ended): always counted.
 */
import { join } from 'node:path';
import { GameSession, type StepResult } from '../src/engine';
import type { SuiteGame } from '../src/schemas/jerichoSuite';
import { jerichoName } from './jerichoReading';
import { letters, sameAsJericho } from './jerichoText';
import { readTrace, type TraceStep } from './jerichoTrace';

export interface Agreement {
  agree: number;
  counted: number;
}

export type GroundTruthField = 'location' | 'inventory' | 'score' | 'moves' | 'done';

export interface Mismatch {
  step: number;
  command: string;
  what: 'text' | GroundTruthField;
  grue: string;
  jericho: string;
}

export interface GameReplay {
  game: string;
  loaded: boolean;
  /** The engine error that stopped the replay, if any. */
  fault?: string;
  steps: number;
  played: number;
  identicalSteps: number;
  finalScore: number | null;
  walkthroughScore: number | null;
  reachedWalkthroughScore: boolean;
  groundTruth: Record<GroundTruthField, Agreement>;
  /** The first few steps that differ, per kind, to show what to fix. */
  mismatches: Mismatch[];
  seconds: number;
}

const MISMATCHES_PER_KIND = 3;
const FIELDS: GroundTruthField[] = ['location', 'inventory', 'score', 'moves', 'done'];

export function replayGame(entry: SuiteGame, suiteDir: string): GameReplay {
  const started = performance.now();
  const walkthrough = entry.walkthrough ?? [];
  const result: GameReplay = {
    game: entry.game,
    loaded: false,
    steps: walkthrough.length,
    played: 0,
    identicalSteps: 0,
    finalScore: null,
    walkthroughScore: entry.walkthroughScore,
    reachedWalkthroughScore: false,
    groundTruth: Object.fromEntries(FIELDS.map((f) => [f, { agree: 0, counted: 0 }])) as Record<GroundTruthField, Agreement>,
    mismatches: [],
    seconds: 0,
  };
  let session: GameSession;
  try {
    session = GameSession.fromFile(join(suiteDir, entry.file), { seed: entry.seed ?? 0 });
    result.loaded = true;
    for (const command of entry.resetCommands) session.step(command);
  } catch (err) {
    result.fault = `load: ${(err as Error).message}`;
    result.seconds = (performance.now() - started) / 1000;
    return result;
  }
  const trace = walkthrough.length ? readTrace(suiteDir, entry.game) : undefined;
  walkthrough.forEach((command, index) => {
    if (result.fault) return;
    let step: StepResult;
    try {
      step = session.step(command);
    } catch (err) {
      result.fault = `step ${index} (${command}): ${(err as Error).message}`;
      return;
    }
    result.played++;
    result.finalScore = step.score;
    const jericho = trace?.steps[index];
    if (!jericho) return;
    const note = (what: Mismatch['what'], grue: string, theirs: string) => {
      if (result.mismatches.filter((m) => m.what === what).length < MISMATCHES_PER_KIND) {
        result.mismatches.push({ step: index, command, what, grue: grue.slice(0, 400), jericho: theirs.slice(0, 400) });
      }
    };
    if (sameAsJericho(step.observation, jericho.observation, session.statusLine)) result.identicalSteps++;
    else note('text', step.observation, jericho.observation);
    for (const field of FIELDS) {
      const verdict = compareField(field, step, jericho, session);
      if (verdict === undefined) continue;
      result.groundTruth[field].counted++;
      if (verdict.agree) result.groundTruth[field].agree++;
      else note(field, verdict.grue, verdict.jericho);
    }
  });
  result.reachedWalkthroughScore = result.finalScore !== null && result.finalScore === entry.walkthroughScore;
  result.seconds = (performance.now() - started) / 1000;
  return result;
}

/** Jericho cannot read objects numbered above this. */
const JERICHO_MAX_OBJECT = 255;

/** What grue reads of a step, as Jericho would report it, and whether Jericho could read it at all. */
function compareField(
  field: GroundTruthField,
  grue: StepResult,
  jericho: TraceStep,
  session: GameSession,
): { agree: boolean; grue: string; jericho: string } | undefined {
  switch (field) {
    case 'score':
      return { agree: grue.score === jericho.score, grue: String(grue.score), jericho: String(jericho.score) };
    case 'moves':
      return { agree: grue.moves === jericho.moves, grue: String(grue.moves), jericho: String(jericho.moves) };
    case 'done':
      return { agree: grue.done === jericho.done, grue: String(grue.done), jericho: String(jericho.done) };
    case 'location': {
      if (!jericho.location) return undefined;
      const holder = grue.within ?? grue.location;
      return {
        agree: holder.id === jericho.location.num,
        grue: `${holder.id}:${holder.name}`,
        jericho: `${jericho.location.num}:${jericho.location.name}`,
      };
    }
    case 'inventory': {
      if (
        !jerichoCanRead(
          grue.inventory.map((item) => item.id),
          session,
        )
      )
        return undefined;
      const ours = grue.inventory.map((item) => letters(item.name));
      const theirs = jericho.inventory.map(letters);
      return { agree: ours.join('|') === theirs.join('|'), grue: ours.join(', '), jericho: theirs.join(', ') };
    }
  }
}

/** Jericho reads every one of these objects' names whole: none above 255, none nameless, none with an abbreviation. */
function jerichoCanRead(ids: number[], session: GameSession): boolean {
  const { mem, objects, story } = session;
  return ids.every((id) => {
    if (id > JERICHO_MAX_OBJECT) return false;
    const table = objects.propertyTable(mem, id);
    return mem[table] > 0 && !jerichoName(mem, table + 1, mem[table], story.version).garbled;
  });
}
