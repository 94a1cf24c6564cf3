/**
 * What the episode keeps of where it has been, and what `learned` keeps of it for later episodes:
 * the world states visited, the moves that killed, the cells reached and the commands that scored.
 */
import { shortState } from './dynamics';
import { type LearnedState, MAX_LEARNED_STATES } from './learned';
import { keepNewest, pushOnce } from './newest';
import { type AgentState, LIMITS, type StateSet } from './state';

/** The world states this episode stood in, asked by full hash (kept short, see markVisited). */
export function visitedSet(state: AgentState): StateSet {
  const set = new Set(state.visited);
  return { has: (hash) => set.has(shortState(hash)) };
}

/** The visited states after standing in `worldHash` (its short form, once, the newest kept). */
export function markVisited(visited: string[], worldHash: string): string[] {
  const short = shortState(worldHash);
  if (visited.includes(short)) return visited;
  return [...visited, short].slice(-LIMITS.visited);
}

/** The state a fatal move was made from, remembered for later episodes (the thoughtbox's "an earlier episode died here"). */
export function rememberDeath(learned: LearnedState, worldHash: string, deadlyPlace: string, deadlyMove: string): LearnedState {
  return {
    ...learned,
    deaths: pushOnce(learned.deaths, shortState(worldHash), LIMITS.deaths),
    deadlyPlaces: pushOnce(learned.deadlyPlaces, deadlyPlace, LIMITS.deadlyPlaces),
    deadlyMoves: pushOnce(learned.deadlyMoves, deadlyMove, LIMITS.deadlyMoves),
  };
}

/** The key of a move in `learned.deadlyMoves`. */
export const moveAt = (location: number, command: string) => `${location}|${command}`;

/** The cells of this episode join those of earlier ones, for the next episode's novelty. */
export function rememberCells(learned: LearnedState, cells: readonly string[]): LearnedState {
  let known = learned.cells;
  for (const cell of cells) known = pushOnce(known, cell, LIMITS.learnedCells);
  return { ...learned, cells: known };
}

/** `learned` after `command` scored from `worldHash` (see learned.rewarding). */
export function rememberReward(learned: LearnedState, worldHash: string, command: string): LearnedState {
  const state = shortState(worldHash);
  const known = learned.rewarding[state] ?? [];
  if (known.includes(command)) return learned;
  return { ...learned, rewarding: keepNewest({ ...learned.rewarding, [state]: [...known, command] }, MAX_LEARNED_STATES) };
}
