/**
 * One move further than the probe: for each valid action, what the best single move after it
 * scores. The probe shows a move's own points; points that take two moves ("open the case", then
 * "take all"; "move the rug", then "open the trap door" scoring on the way down) stayed invisible,
 * and the explorer reached them only by chance among the moves that merely change something.
 *
 * The follow-ups are the moves a player would make next from what is known now: this state's valid
 * commands, the story's compass words and "take all" (what an opened container holds is not among
 * this state's valid commands). Each try restores a snapshot and runs one command, a fraction of a
 * millisecond in most games; the tries are capped so a state with a hundred actions stays cheap.
 */
import type { ValidAction } from './effectGroups';
import type { GameSession } from './session';
import { searchAheadSteps, searchMoves } from './searchAhead';
import { runToEnd, runYielding, triedFrom, TRIES_PER_YIELD, YieldOptions } from './stepsRunner';

/**
 * The best move after an action and the points the way makes (more than the action alone): two
 * moves, or `moves` where the search went further (see searchAhead.ts).
 */
export interface Ahead {
  command: string;
  scoreDelta: number;
  moves?: number;
}

/** Single commands run in all (restore + step each): about a second where a try is slowest. */
export const MAX_LOOK_AHEAD_TRIES = 3000;

/** How far the look-ahead goes: its tries, and those of the search past two moves (none unless asked). */
export interface LookAheadLimits {
  maxTries?: number;
  searchTries?: number;
}

/** The moves tried after each action (see the header). */
export function followUps(session: GameSession, actions: readonly ValidAction[]): string[] {
  return [...new Set([...actions.map((a) => a.command), ...searchMoves(session)])];
}

/**
 * For each action that leaves the game going, the follow-up with the most points over both moves,
 * when that is more than the action's own and more than the follow-up makes alone from here ("wait",
 * then "take egg", is no way to points "take egg" makes now). Where no two moves score and
 * `searchTries` allows, the first moves of the shortest longer ways (searchAhead.ts). The session
 * is left as it was.
 */
export function lookAhead(session: GameSession, actions: readonly ValidAction[], limits: LookAheadLimits = {}): Map<string, Ahead> {
  return runToEnd(lookAheadSteps(session, actions, limits));
}

/** lookAhead for an activity: the event loop gets the thread back every `yieldEveryMs`, and `onYield` heartbeats (see stepsRunner.ts). */
export function lookAheadYielding(
  session: GameSession,
  actions: readonly ValidAction[],
  options: YieldOptions & LookAheadLimits = {},
): Promise<Map<string, Ahead>> {
  return runYielding(lookAheadSteps(session, actions, options), options);
}

function* lookAheadSteps(
  session: GameSession,
  actions: readonly ValidAction[],
  limits: LookAheadLimits,
): Generator<void, Map<string, Ahead>> {
  const { maxTries = MAX_LOOK_AHEAD_TRIES, searchTries = 0 } = limits;
  const found = new Map<string, Ahead>();
  if (session.isDone) return found;
  const start = session.captureState();
  const startScore = session.score;
  const next = followUps(session, actions);
  const direct = new Map(actions.map((a) => [a.command, a.scoreDelta]));
  let tries = 0;
  try {
    for (const action of actions) {
      if (action.endsGame || action.outcome !== 'continue') continue;
      if (tries + next.length > maxTries) break;
      if (!triedFrom(session, start, action.command) || session.isDone) continue;
      const after = session.captureState();
      let best: Ahead | null = null;
      for (const command of next) {
        tries++;
        if (tries % TRIES_PER_YIELD === 0) {
          // Between tries the session may be anywhere; it is put back before the next one runs.
          yield;
        }
        if (!triedFrom(session, after, command)) continue;
        // The flags alone: ground truth walks the object tree, and this runs thousands of times a turn.
        if (session.died || (session.isDone && !session.victory)) continue;
        const gained = session.score - startScore;
        const without = Math.max(0, action.scoreDelta, direct.get(command) ?? 0);
        if (gained > without && (!best || gained > best.scoreDelta)) best = { command, scoreDelta: gained };
      }
      if (best) found.set(action.command, best);
    }
    if (found.size === 0 && searchTries > 0) {
      for (const [command, ahead] of yield* searchAheadSteps(session, actions, start, searchTries)) found.set(command, ahead);
    }
  } finally {
    session.restoreState(start);
  }
  return found;
}
