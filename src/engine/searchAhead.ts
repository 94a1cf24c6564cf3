/**
 * Further than two moves: where no pair of moves scores, a breadth-first search of the story as a
 * simulator, from each valid action on, for the shortest way to points. Past the first move only
 * the moves a player makes in a place not yet seen are tried: the story's compass words and
 * "take all" (a treasure taken, a place reached). States are told apart by their world hash, so a
 * place reached twice is searched once; deaths and endings are not gone through.
 *
 * Only bench:explore's `--searches-deeper` runs it: measured on the suite it found real ways but
 * moved the explorer's mean not at all, so the game activities do not (see leaderboard.md).
 */
import type { ValidAction } from './effectGroups';
import type { GameSession } from './session';
import { triedFrom, TRIES_PER_YIELD } from './stepsRunner';
import type { VmState } from './vmState';

/** The longest way searched, in moves. */
export const MAX_SEARCH_DEPTH = 8;

/** Single commands the search runs (restore + step each), past the two-move look-ahead's: about a second where a try is slowest. */
export const SEARCH_TRIES = 3000;

/** A way to points: the move after its first, the points the whole way makes, and its length in moves. */
export interface Way {
  command: string;
  scoreDelta: number;
  moves: number;
}

/** A state the search reached: the way's first move, and its second (null one move in). */
interface Node {
  state: VmState;
  first: string;
  second: string | null;
}

/** The moves tried past the first: the compass and "take all". */
export function searchMoves(session: GameSession): string[] {
  const words = [...session.grammar.directions];
  if (session.dictionary.has('take') && session.dictionary.has('all')) words.push('take all');
  return [...new Set(words)];
}

/**
 * The first moves of the shortest ways to points found (all of one length), each with the move
 * after it, the points the whole way makes and its length. Stops at `maxTries` with what it has.
 * The session is left anywhere: the caller restores it.
 */
export function* searchAheadSteps(
  session: GameSession,
  actions: readonly ValidAction[],
  start: VmState,
  maxTries: number,
): Generator<void, Map<string, Way>> {
  const found = new Map<string, Way>();
  const startScore = session.score;
  const moves = searchMoves(session);
  session.restoreState(start);
  const seen = new Set<string>([session.worldHash()]);
  let level: Node[] = [];
  let tries = 0;
  for (const action of actions) {
    if (action.endsGame || action.outcome !== 'continue' || seen.has(action.resultHash)) continue;
    seen.add(action.resultHash);
    if (!triedFrom(session, start, action.command) || session.isDone) continue;
    level.push({ state: session.captureState(), first: action.command, second: null });
  }
  for (let depth = 2; depth <= MAX_SEARCH_DEPTH && level.length > 0 && found.size === 0; depth++) {
    const next: Node[] = [];
    for (const node of level) {
      for (const command of moves) {
        if (++tries > maxTries) return found;
        if (tries % TRIES_PER_YIELD === 0) yield;
        if (!triedFrom(session, node.state, command)) continue;
        if (session.died || (session.isDone && !session.victory)) continue;
        const gained = session.score - startScore;
        const second = node.second ?? command;
        if (gained > 0) {
          const best = found.get(node.first);
          if (!best || gained > best.scoreDelta) found.set(node.first, { command: second, scoreDelta: gained, moves: depth });
          continue;
        }
        if (gained < 0 || session.isDone) continue;
        const hash = session.worldHash();
        if (seen.has(hash)) continue;
        seen.add(hash);
        next.push({ state: session.captureState(), first: node.first, second });
      }
    }
    level = next;
  }
  return found;
}
