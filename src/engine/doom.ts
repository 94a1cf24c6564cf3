/**
 * Deaths the probe cannot see: a move that kills a few turns later. Hitchhiker's player who walks
 * from the front of the house to the lane is hit by a brick as the house falls, lies dead for two
 * turns ("You keep out of this, you're dead"), and only then does the game end; the probe, which
 * runs each move once, shows the walk as a new place. So after each valid action the story's idle
 * command is run a few times from the state it leads to: a move after which idling ends the game
 * without a win, and no compass move out of where it led saves the player, is doomed, and how
 * soon is kept. Whether doomed moves are left out is the agent's call (see safePool): where
 * idling anywhere kills, every move is doomed and none is left out.
 */
import type { ValidAction } from './effectGroups';
import type { GameSession, VmState } from './session';
import { runToEnd, runYielding, triedFrom, TRIES_PER_YIELD, YieldOptions } from './stepsRunner';

/** Idle turns after a move within which a death counts as the move's doing. */
export const DOOM_TURNS = 4;

/** The story's command for letting a turn pass, if its dictionary has one. */
export function idleCommand(session: GameSession): string | null {
  return ['wait', 'z'].find((word) => session.dictionary.has(word)) ?? null;
}

/** For each action that leaves the game going but is followed by the end (not a win) within DOOM_TURNS idle turns: after how many. */
export function doomedMoves(session: GameSession, actions: readonly ValidAction[]): Map<string, number> {
  return runToEnd(doomSteps(session, actions));
}

/** doomedMoves for an activity: the thread is given back every `yieldEveryMs` and `onYield` heartbeats. */
export function doomedMovesYielding(
  session: GameSession,
  actions: readonly ValidAction[],
  options: YieldOptions = {},
): Promise<Map<string, number>> {
  return runYielding(doomSteps(session, actions), options);
}

function* doomSteps(session: GameSession, actions: readonly ValidAction[]): Generator<void, Map<string, number>> {
  const doomed = new Map<string, number>();
  const idle = idleCommand(session);
  if (idle === null || session.isDone) return doomed;
  const start = session.captureState();
  const ways = session.grammar.directions;
  let tries = 0;
  try {
    for (const action of actions) {
      if (action.endsGame || action.outcome !== 'continue') continue;
      if (++tries % TRIES_PER_YIELD === 0) yield;
      if (!ranFrom(session, start, action.command)) continue;
      const after = session.captureState();
      const turns = idleToDeath(session, idle, DOOM_TURNS);
      if (turns === null) continue;
      // A way out of where the move led is no doom: Zork I's troll kills a player who stands and
      // waits, but the room is the way on, and the cellar is a step back.
      let escapes = false;
      for (const way of ways) {
        if (++tries % TRIES_PER_YIELD === 0) yield;
        if (ranFrom(session, after, way) && idleToDeath(session, idle, DOOM_TURNS - 1) === null) {
          escapes = true;
          break;
        }
      }
      if (!escapes) doomed.set(action.command, turns);
    }
  } finally {
    session.restoreState(start);
  }
  return doomed;
}

/** Run a command from `from`; false when the VM could not, or the game ended on it (a state that says nothing of what follows). */
function ranFrom(session: GameSession, from: VmState, command: string): boolean {
  return triedFrom(session, from, command) && !session.isDone;
}

/** The idle turns from here until the game ends without a win (null: it goes on for `turns`, or ends in a win). */
function idleToDeath(session: GameSession, idle: string, turns: number): number | null {
  for (let turn = 1; turn <= turns; turn++) {
    try {
      session.tryCommand(idle);
    } catch {
      return null;
    }
    // The flags alone: ground truth walks the object tree, and this runs for every valid action.
    if (session.died || (session.isDone && !session.victory)) return turn;
    if (session.isDone) return null;
  }
  return null;
}
