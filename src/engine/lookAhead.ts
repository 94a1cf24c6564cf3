/**
 * Moves further than the probe: for each valid action, the most points a few moves after it make
 * (three at most). The probe shows a move's own points; points that take two moves ("open the
 * case", then "take all"; "move the rug", then "open the trap door" scoring on the way down) or
 * three ("west" to the cave, "open purse", "take coin") stayed invisible, and the explorer reached
 * them only by chance among the moves that merely change something.
 *
 * The follow-ups are the moves a player would make next from what is known now: this state's valid
 * commands, the story's compass words and "take all" (what an opened container holds is not among
 * this state's valid commands), and, on things the moves so far brought into reach, the verbs this
 * state's one-object commands use and "open" and "take". The search is breadth first over the world
 * states the moves make (a state reached twice is expanded once), every try restoring a snapshot
 * and running one command, a fraction of a millisecond in most games; the tries are capped so a
 * state with a hundred actions stays cheap, and the third move gets what the second left.
 */
import { createHash } from 'node:crypto';
import type { ValidAction } from './effectGroups';
import { scopeObjects } from './scope';
import type { GameSession, VmState } from './session';
import { runToEnd, runYielding, TRIES_PER_YIELD, YieldOptions } from './stepsRunner';
import { nounPhrases } from './vocabulary';

/** The move after an action on the way to the points, the points all the moves make together (more than the action alone), and how many moves that takes. */
export interface Ahead {
  command: string;
  scoreDelta: number;
  /** Moves to the points, the action's own included: 2 when absent. */
  moves?: number;
}

/** Single commands run in all (restore + step each): a few seconds where a try is slowest. */
export const MAX_LOOK_AHEAD_TRIES = 4000;

/** The most moves a look-ahead path makes, the action's own included. */
export const LOOK_AHEAD_DEPTH = 3;

/** Verbs tried on what the moves bring into reach, besides those of this state's one-object commands. */
const REACH_VERBS = ['open', 'take'];

/** The moves tried after each action (see the header). */
export function followUps(session: GameSession, actions: readonly ValidAction[]): string[] {
  const words = [...actions.map((a) => a.command), ...session.grammar.directions];
  if (session.dictionary.has('take') && session.dictionary.has('all')) words.push('take all');
  return [...new Set(words)];
}

/**
 * For each action that leaves the game going, the path with the most points over its moves, when
 * that is more than the action's own and more than any single move makes from here ("wait", then
 * "take egg", is no way to points "take egg" makes now; for two moves, more than the follow-up
 * alone). Of paths to as many points, only the shortest are kept. The session is left as it was.
 */
export function lookAhead(session: GameSession, actions: readonly ValidAction[], maxTries = MAX_LOOK_AHEAD_TRIES): Map<string, Ahead> {
  return runToEnd(lookAheadSteps(session, actions, maxTries));
}

/** lookAhead for an activity: the event loop gets the thread back every `yieldEveryMs`, and `onYield` heartbeats (see stepsRunner.ts). */
export function lookAheadYielding(
  session: GameSession,
  actions: readonly ValidAction[],
  options: YieldOptions & { maxTries?: number } = {},
): Promise<Map<string, Ahead>> {
  return runYielding(lookAheadSteps(session, actions, options.maxTries ?? MAX_LOOK_AHEAD_TRIES), options);
}

/** A state the search reached: the action it started with, the move after it, and how many moves in. */
interface Reached {
  action: ValidAction;
  second: string | null;
  moves: number;
  state: VmState;
  location: number;
}

function* lookAheadSteps(session: GameSession, actions: readonly ValidAction[], maxTries: number): Generator<void, Map<string, Ahead>> {
  const found = new Map<string, Ahead>();
  if (session.isDone) return found;
  const start = session.captureState();
  const startScore = session.score;
  const startLocation = session.locationId;
  const next = followUps(session, actions);
  const direct = new Map(actions.map((a) => [a.command, a.scoreDelta]));
  const bestDirect = Math.max(0, ...actions.map((a) => a.scoreDelta));
  const inReach = new Set(scopeObjects(session).all);
  const verbs = objectVerbs(session, actions, inReach);
  const seen = new Set([memoryHash(session)]);
  let tries = 0;
  const record = (from: Reached, command: string, gained: number) => {
    const moves = from.moves + 1;
    const known = found.get(from.action.command);
    if (known && (known.scoreDelta > gained || (known.scoreDelta === gained && (known.moves ?? 2) <= moves))) return;
    found.set(from.action.command, { command: from.second ?? command, scoreDelta: gained, ...(moves > 2 ? { moves } : {}) });
  };
  // One move from `from`: a path to points is recorded, a new state kept for the move after.
  const tryMove = (from: Reached, command: string, deeper: Reached[]) => {
    session.restoreState(from.state);
    try {
      session.tryCommand(command);
    } catch {
      return;
    }
    // The flags alone: ground truth walks the object tree, and this runs thousands of times a turn.
    if (session.died || (session.isDone && !session.victory)) return;
    const gained = session.score - startScore;
    const without =
      from.moves === 1 ? Math.max(0, from.action.scoreDelta, direct.get(command) ?? 0) : Math.max(bestDirect, from.action.scoreDelta);
    if (gained > without) record(from, command, gained);
    else if (from.moves + 1 < LOOK_AHEAD_DEPTH && !session.isDone) {
      const hash = memoryHash(session);
      if (seen.has(hash)) return;
      seen.add(hash);
      deeper.push({
        action: from.action,
        second: from.second ?? command,
        moves: from.moves + 1,
        state: session.captureState(),
        location: session.locationId,
      });
    }
  };
  try {
    const first: Reached[] = [];
    for (const action of actions) {
      if (action.endsGame || action.outcome !== 'continue') continue;
      session.restoreState(start);
      try {
        session.tryCommand(action.command);
      } catch {
        continue;
      }
      if (session.isDone) continue;
      seen.add(memoryHash(session));
      first.push({ action, second: null, moves: 1, state: session.captureState(), location: session.locationId });
    }
    // The budget goes first to the second move from this state's commands (as far as it reaches,
    // what a two-move look-ahead alone finds), then to the second move on things brought into
    // reach, then to a third move, from new places first.
    const second: Reached[] = [];
    const phases: Array<[Reached[], (from: Reached) => string[]]> = [
      [first, () => next],
      [first, (from) => reachMoves(session, from, verbs, inReach)],
      [second, (from) => [...new Set([...next, ...reachMoves(session, from, verbs, inReach)])]],
    ];
    for (const [index, [nodes, movesFrom]] of phases.entries()) {
      const ordered =
        index < 2 ? nodes : [...nodes.filter((r) => r.location !== startLocation), ...nodes.filter((r) => r.location === startLocation)];
      let spent = false;
      for (const from of ordered) {
        const moveList = movesFrom(from);
        if (tries + moveList.length > maxTries) {
          spent = true;
          break;
        }
        for (const command of moveList) {
          tries++;
          // Between tries the session may be anywhere; each try puts it back where it starts.
          if (tries % TRIES_PER_YIELD === 0) yield;
          tryMove(from, command, second);
        }
      }
      if (spent) break;
    }
  } finally {
    session.restoreState(start);
  }
  return shortestPaths(found);
}

/** Of paths to as many points or fewer, those that take more moves than another are dropped: the agent goes the short way. */
function shortestPaths(found: Map<string, Ahead>): Map<string, Ahead> {
  const paths = [...found.values()];
  const kept = new Map<string, Ahead>();
  for (const [command, ahead] of found) {
    const moves = ahead.moves ?? 2;
    if (!paths.some((other) => (other.moves ?? 2) < moves && other.scoreDelta >= ahead.scoreDelta)) kept.set(command, ahead);
  }
  return kept;
}

/** The verbs of this state's one-object commands ("open" of "open mailbox"), and REACH_VERBS where the story knows them. */
function objectVerbs(session: GameSession, actions: readonly ValidAction[], inReach: Set<number>): string[] {
  const phrases = [...nounPhrases(session, [...inReach]).values()];
  const verbs = new Set<string>();
  for (const { command } of actions) {
    for (const phrase of phrases) {
      if (!command.endsWith(` ${phrase}`)) continue;
      const verb = command.slice(0, -phrase.length - 1);
      // Not a two-object command's first part ("put coin in" of "put coin in basket").
      if (!phrases.some((other) => ` ${verb} `.includes(` ${other} `))) verbs.add(verb);
    }
  }
  for (const verb of REACH_VERBS) if (session.dictionary.has(verb)) verbs.add(verb);
  return [...verbs];
}

/** The verbs on each thing in reach where `from` stands that was not at the start. */
function reachMoves(session: GameSession, from: { state: VmState }, verbs: string[], inReach: Set<number>): string[] {
  session.restoreState(from.state);
  const fresh = scopeObjects(session).all.filter((id) => !inReach.has(id));
  if (fresh.length === 0) return [];
  const phrases = nounPhrases(session, fresh);
  return [...phrases.values()].flatMap((phrase) => verbs.map((verb) => `${verb} ${phrase}`));
}

/** The story's dynamic memory, hashed: two moves that leave it the same reached the same state. */
function memoryHash(session: GameSession): string {
  return createHash('md5').update(session.mem.subarray(0, session.story.staticBase)).digest('hex');
}
