/**
 * Replay one game of the Jericho suite in grue exactly as Jericho's trace was made — the game's
 * seed, its reset commands, then its walkthrough — and compare every step with Jericho's: the text
 * (bench/jerichoText.ts) and the ground truth (score, moves, location, inventory).
 *
 * Jericho's own reading is not always right, so a step counts for a field only where it is valid:
 * - location: Jericho reports no object numbered above 255, so a step where grue's location is
 *   above 255 is not counted; nor one where Jericho read none, or gives a name no object has.
 * - inventory: objects above 255 are left out of grue's list (Jericho cannot see them), and a step
 *   is not counted where a name Jericho gives is no object's name in the story (curses garbles some).
 * - score and moves: always counted.
 */
import { join } from 'node:path';
import { GameSession, type StepResult } from '../src/engine';
import type { SuiteGame } from '../src/schemas/jerichoSuite';
import { letters, sameAsJericho } from './jerichoText';
import { readTrace, type TraceStep } from './jerichoTrace';

export interface Agreement {
  agree: number;
  counted: number;
}

export type GroundTruthField = 'location' | 'inventory' | 'score' | 'moves';

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
const FIELDS: GroundTruthField[] = ['location', 'inventory', 'score', 'moves'];

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
  const objectNames = storyObjectNames(session);
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
      const verdict = compareField(field, step, jericho, objectNames);
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

/** Every object name in the story, as letters: a name Jericho gives that is none of these is garbled. */
function storyObjectNames(session: GameSession): Set<string> {
  const names = new Set<string>();
  for (let id = 1; id <= session.objects.count; id++) names.add(letters(session.objects.name(session.mem, id)));
  return names;
}

/** Jericho cannot name objects numbered above this. */
const JERICHO_MAX_OBJECT = 255;

function compareField(
  field: GroundTruthField,
  grue: StepResult,
  jericho: TraceStep,
  objectNames: Set<string>,
): { agree: boolean; grue: string; jericho: string } | undefined {
  switch (field) {
    case 'score':
      return { agree: grue.score === jericho.score, grue: String(grue.score), jericho: String(jericho.score) };
    case 'moves':
      return { agree: grue.moves === jericho.moves, grue: String(grue.moves), jericho: String(jericho.moves) };
    case 'location': {
      const theirs = jericho.location;
      if (!theirs || grue.location.id > JERICHO_MAX_OBJECT || !objectNames.has(letters(theirs.name))) return undefined;
      return {
        agree: grue.location.id === theirs.num,
        grue: `${grue.location.id}:${grue.location.name}`,
        jericho: `${theirs.num}:${theirs.name}`,
      };
    }
    case 'inventory': {
      if (jericho.inventory.some((name) => !objectNames.has(letters(name)))) return undefined;
      const ours = grue.inventory.filter((item) => item.id <= JERICHO_MAX_OBJECT).map((item) => letters(item.name));
      const theirs = jericho.inventory.map(letters);
      return { agree: sameMultiset(ours, theirs), grue: ours.join(', '), jericho: theirs.join(', ') };
    }
  }
}

function sameMultiset(a: string[], b: string[]): boolean {
  if (a.length !== b.length) return false;
  const x = [...a].sort();
  const y = [...b].sort();
  return x.every((v, i) => v === y[i]);
}
