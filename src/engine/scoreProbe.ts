/**
 * Where a game without a binding keeps its score and moves, when the standard does not say (v4+
 * games, and v3 games whose status line shows the time): the globals its SCORE command prints, or
 * the status line it draws after it shows ("Score: 13").
 *
 * Candidates are the globals that hold a number the command or the status line shows from the start;
 * each gets a distinct marker value (a batch at a time), and a marker shown then names its global.
 * Where the marker stands says what it is: before "moves" or "turns" the moves, after "out of" or
 * "possible" the maximum (not wanted), else the score, surer when its sentence speaks of the score
 * or points ("You've used 1013 of the Stone's 7 Wishes" is not Wishbringer's score). A marker in the
 * wrong global can send the game into a loop, so the markers run on a scratch copy of the session
 * with a small instruction budget: a loop costs little, and the batch is halved.
 */
import { GameBindingSchema, type NumberSource } from './bindings';
import { InstructionBudgetError } from './errors';
import { isTimeGame } from './groundTruth';
import type { SessionView } from './sessionView';
import type { VmState } from './vmState';

/** Globals set to markers at once (halved when the game breaks). */
const MARKER_BATCH = 24;
/**
 * Code blocks a SCORE command may run on the scratch session: thousands are plenty, and a loop stops
 * soon. A game whose opening computes more than the first gets the next.
 */
const SCRATCH_BUDGETS = [20_000, 200_000, 2_000_000];
const GLOBALS = 240;

export interface ScoreGlobals {
  score?: NumberSource;
  moves?: NumberSource;
}

interface Shown {
  response: string;
  statusLine: string;
}

interface MarkerRole {
  role: 'score' | 'moves';
  /** 2 when the words around say so ("score is N", "N points", "N moves"), 1 for a bare number. */
  strength: number;
  /** Where in the response the marker stands: the first number of a score sentence is the score. */
  position: number;
}

/** v3 games with a score status line keep score and moves in globals 1 and 2 by the standard; others need looking for. */
export function needsScoreSearch(target: SessionView): boolean {
  return target.story.version > 3 || isTimeGame(target.mem, target.story.version);
}

/** The globals the SCORE command prints from `start`; the pokes run on a scratch session, `target` is left at `start`. */
export function findScoreGlobals(target: SessionView, start: VmState): ScoreGlobals {
  if (!target.dictionary.has('score')) return {};
  const globalAddr = (index: number) => target.story.globals + 2 * index;
  let printed: Set<number>;
  let candidates: number[];
  try {
    target.restoreState(start);
    const shown = `${target.tryCommand('score')}\n${target.statusLine}`;
    printed = new Set((shown.match(/-?\d+/g) ?? []).map(Number));
    target.restoreState(start);
    const value = (index: number) => (((target.mem[globalAddr(index)] << 8) | target.mem[globalAddr(index) + 1]) << 16) >> 16;
    candidates = Array.from({ length: GLOBALS }, (_, index) => index).filter((index) => printed.has(value(index)));
  } catch {
    return {};
  } finally {
    target.restoreState(start);
  }
  if (!candidates.length) return {};
  const scratch = scratchSession(target);
  if (!scratch) return {};
  /** The response to SCORE from the start with these globals set, and the status line after it; null when the game breaks. */
  const score = (pokes: Array<[number, number]>): Shown | null => {
    try {
      scratch.restoreState(start);
      for (const [index, value] of pokes) scratch.mem.set([(value >> 8) & 0xff, value & 0xff], globalAddr(index));
      const response = scratch.tryCommand('score');
      return { response, statusLine: scratch.statusLine };
    } catch {
      return null;
    }
  };
  const marker = (k: number) => 1013 + 17 * k;
  const findings: Array<{ index: number } & MarkerRole> = [];
  const tryBatch = (batch: number[]): void => {
    const shown = score(batch.map((index, k) => [index, marker(k)]));
    if (shown === null && batch.length > 1) {
      // A marker in the wrong global broke the game: try the halves.
      tryBatch(batch.slice(0, batch.length >> 1));
      tryBatch(batch.slice(batch.length >> 1));
      return;
    }
    batch.forEach((index, k) => {
      const found = shown === null ? undefined : markerRole(shown, marker(k));
      if (found) findings.push({ index, ...found });
    });
  };
  for (let i = 0; i < candidates.length; i += MARKER_BATCH) tryBatch(candidates.slice(i, i + MARKER_BATCH));
  const found: ScoreGlobals = {};
  for (const role of ['score', 'moves'] as const) {
    const [best] = findings
      .filter((f) => f.role === role)
      .sort((a, b) => b.strength - a.strength || a.position - b.position || a.index - b.index);
    if (best) found[role] = { kind: 'global', index: best.index, offset: 0, signed: true };
  }
  return found;
}

/** A copy of the story to poke, with a small instruction budget; undefined when even the largest is too small to start it. */
function scratchSession(target: SessionView): SessionView | undefined {
  // A binding of its own keeps the scratch session from probing in turn.
  const binding = GameBindingSchema.parse({ name: 'score search', md5: target.story.md5 });
  for (const blockBudget of SCRATCH_BUDGETS) {
    try {
      return target.scratch({ binding, blockBudget });
    } catch (err) {
      if (!(err instanceof InstructionBudgetError)) throw err;
    }
  }
  return undefined;
}

/**
 * Where SCORE does not tell the moves: the first global that counts the turns, one more after each
 * WAIT of three (Inform's `turns` comes early among its globals; a clock or a timer counts otherwise).
 * Runs on `target` and leaves it at `start`.
 */
export function findTurnCounter(target: SessionView, start: VmState): NumberSource | undefined {
  const wait = ['wait', 'z'].find((word) => target.dictionary.has(word));
  if (!wait) return undefined;
  const globalAddr = (index: number) => target.story.globals + 2 * index;
  const values = () =>
    Array.from({ length: GLOBALS }, (_, index) => (target.mem[globalAddr(index)] << 8) | target.mem[globalAddr(index) + 1]);
  try {
    target.restoreState(start);
    const before = values();
    let counting = before.map((_, index) => index);
    for (let turns = 1; turns <= 3 && counting.length; turns++) {
      target.restoreState(start);
      for (let i = 0; i < turns; i++) target.tryCommand(wait);
      const after = values();
      counting = counting.filter((index) => after[index] === before[index] + turns);
    }
    return counting.length ? { kind: 'global', index: counting[0], offset: 0, signed: true } : undefined;
  } catch {
    return undefined;
  } finally {
    target.restoreState(start);
  }
}

/**
 * What a marker is where it shows: in the SCORE response, as its words say; on the status line, only
 * where a label says so ("Score: N", "Moves: N"; an unlabelled number there is a clock or a counter).
 */
function markerRole(shown: Shown, marker: number): MarkerRole | undefined {
  const inResponse = roleIn(shown.response, marker);
  if (inResponse) return inResponse;
  const onStatusLine = roleIn(shown.statusLine, marker);
  return onStatusLine?.strength === 2 ? { ...onStatusLine, position: Number.MAX_SAFE_INTEGER } : undefined;
}

function roleIn(text: string, marker: number): MarkerRole | undefined {
  const at = new RegExp(`(?<![\\d-])${marker}(?!\\d)`).exec(text);
  if (!at) return undefined;
  const sentence =
    text
      .slice(0, at.index)
      .split(/[.!?\n]/)
      .pop() ?? '';
  const before = sentence.slice(-24);
  const end = at.index + String(marker).length;
  const after = text.slice(end, end + 12);
  const position = at.index;
  if (/^\s*(?:moves?|turns?)\b/i.test(after) || /(?:moves|turns)\s*:?\s*$/i.test(before)) return { role: 'moves', strength: 2, position };
  if (/(?:out of|possible|maximum|total of|\bof)\s*$/i.test(before)) return undefined;
  const said = /\bscor/i.test(sentence) || /^\s*points?\b/i.test(after);
  return { role: 'score', strength: said ? 2 : 1, position };
}
