/**
 * Go-Explore's "return", over rooms rather than world states. A world hash changes with every item
 * taken, so a state left with moves untried is rarely reachable again; the room it was in is. The
 * probe says which room each move leads to, so every room the episode stands in adds its exits to
 * a small map, and rooms left with moves that still open something up are kept as `open`. When
 * the moves where the player stands are spent, the agent walks the map to the nearest open room.
 */
import type { ActionOption } from '../schemas/game';
import { cellOf } from '../schemas/game';
import { exhausted, frontier, parseCell, tierOf } from './cells';
import type { Exits } from './policyContext';
import { safePool } from './probed';
import { AgentState, LIMITS } from './state';
import { carriedNames, doneIn, spentIn } from './spent';
import { cellMemory, lossesOf } from './cellMemory';
import { rememberCells } from './remember';
import { keepNewest } from './newest';
import { nextUntried } from './untried';

export type { Exits } from './policyContext';

/**
 * The room's exits as the map holds them, with what the probe shows now: its room-changing moves
 * added, (with `dropStale`) the moves it shows staying in the room taken out, and (with
 * `dropUnshown`) where some move leaves the room, the exits it does not show at all. A move that once
 * led away (every command in Adventureland's bog, while something carried the player off) may not
 * any more; kept, a walk back to a room would try it, stay, and try it again as the world changed
 * (the lamp lit, then put out, ten turns). Where no move leaves the room, a move the probe does
 * not show is kept: from inside something (a bed, a car) the room's exits are not valid, yet they
 * are the room's. Moves that kill or end the game are no exits.
 */
export function refreshedExits(
  known: Readonly<Record<string, number>> | undefined,
  location: number,
  options: readonly ActionOption[],
  dropStale: boolean,
  dropUnshown = false,
): Record<string, number> {
  const exits: Record<string, number> = { ...known };
  let leaves = false;
  for (const option of options) {
    if (option.outcome !== 'continue') continue;
    const to = parseCell(option.resultCell).location;
    if (to !== location) {
      exits[option.command] = to;
      leaves = true;
    } else if (dropStale) delete exits[option.command];
  }
  // Free to walk out (some move leaves the room), the player would have the room's other exits too:
  // one the probe no longer shows is closed now. Awaken's east side of the church lost its way
  // south, and the walk back to a room beyond it went northwest and east again for 80 turns.
  if (dropUnshown && leaves) {
    const shown = new Set(options.map((option) => option.command));
    for (const command of Object.keys(exits)) if (!shown.has(command)) delete exits[command];
  }
  return exits;
}

export interface Route {
  /** The first move, one of the usable ones where the player stands. */
  command: string;
  /** Moves to the open room. */
  steps: number;
  to: number;
}

/**
 * The shortest walk over the map from `from` to a room in `open` (not `from` itself). The first
 * move must be `usable` now (valid, safe, not retried too often); the rest follow the map.
 */
export function routeToOpen(
  exits: Exits,
  from: number,
  open: ReadonlySet<number>,
  usable: (command: string) => boolean,
  maxSteps = 30,
): Route | null {
  const first = new Map<number, string>([[from, '']]);
  let layer = [from];
  for (let steps = 1; steps <= maxSteps && layer.length; steps++) {
    const next: number[] = [];
    for (const room of layer) {
      for (const [command, to] of Object.entries(exits[room] ?? {})) {
        if (first.has(to) || (steps === 1 && !usable(command))) continue;
        const firstCommand = steps === 1 ? command : first.get(room)!;
        if (open.has(to)) return { command: firstCommand, steps, to };
        first.set(to, firstCommand);
        next.push(to);
      }
    }
    layer = next;
  }
  return null;
}

/**
 * The room map after a step, with the probe: the room left and the room reached add their exits as
 * the probe showed them there, and both are judged again with what is known now (the move just made
 * no longer opens anything), joining or leaving the open rooms.
 */
export function mappedByProbe(now: AgentState, before: AgentState): AgentState {
  const memory = cellMemory(now);
  let exits = now.exits;
  let open = now.open;
  let spent = now.spent;
  for (const judged of [before, now]) {
    const id = judged.truth.location.id;
    exits = keepNewest<Record<string, number>>(
      { ...withoutKey(exits, String(id)), [id]: refreshedExits(exits[id], id, judged.options, now.dropsStaleExits, now.dropsUnshownExits) },
      LIMITS.rooms,
    );
    open = open.filter((other) => other !== id);
    const best = frontier(safePool(judged.options, memory), {
      ...memory,
      here: cellOf(judged.truth),
      doneHere: doneIn(now, id),
    });
    const opensSomething = best !== null && !exhausted(best.tier);
    if (opensSomething) open = [...open, id].slice(-LIMITS.rooms);
    // The room just left, as it was left: spent or not.
    if (judged === before && id !== now.truth.location.id)
      spent = opensSomething ? spent.filter((other) => other !== id) : [...spent.filter((other) => other !== id), id].slice(-LIMITS.rooms);
  }
  return { ...now, exits, open, spent };
}

/**
 * The room map without the probe (`valid`): only the moves made show where they lead. The move
 * just made adds an exit when it changed rooms; the room left and the room reached are open while
 * a move going places, taking or opening is untried in them (see nextUntried).
 */
export function mappedByMoves(now: AgentState, before: AgentState): AgentState {
  const from = before.truth.location.id;
  const to = now.truth.location.id;
  let exits = now.exits;
  if (to !== from && !now.truth.died && now.lastCommand !== null) {
    exits = keepNewest<Record<string, number>>(
      { ...withoutKey(exits, String(from)), [from]: { ...exits[from], [now.lastCommand]: to } },
      LIMITS.rooms,
    );
  }
  let open = now.open.filter((id) => id !== from && id !== to);
  const opensUp = (judged: AgentState) =>
    nextUntried(judged.commands, {
      worldHash: judged.worldHash,
      tried: now.tried,
      learned: now.learned,
      rooms: { here: judged.truth.location.id, exits, open: new Set() },
      cells: {
        spentHere: spentIn(now, judged.truth.location.id, carriedNames(judged)),
        menuCommands: new Set(now.menus),
        // What nextUntried leaves out as losing is not a move that keeps a room open.
        ...(now.mindsLosses ? { losses: lossesOf({ ...judged, learned: now.learned }) } : {}),
      },
    })?.opensUp ?? false;
  for (const judged of to === from ? [now] : [before, now]) if (opensUp(judged)) open = [...open, judged.truth.location.id];
  return { ...now, exits, open: open.slice(-LIMITS.rooms) };
}

/**
 * A breakthrough: the world changed in a way new to this episode in a room the episode had left
 * with nothing more to do there. Something hidden had to be undone or brought there first (9:05's
 * shower takes a player who has put everything down; its clean clothes go on only after it), so
 * what was judged done elsewhere may not be: every mapped room is open again, and cells and
 * items count as new to the episode again (earlier episodes' novelty is kept). A novel change
 * made on a first visit, or in a room left with moves untried, is ordinary exploration.
 */
export function afterBreakthrough(next: AgentState, state: AgentState, command: string): AgentState {
  const room = state.truth.location.id;
  if (!state.spent.includes(room)) return next;
  const taken = state.options.find((option) => option.command === command);
  if (!taken) return next;
  const tier = tierOf(taken, cellMemory(state));
  if (tier !== 'new-state-ever' && tier !== 'new-state') return next;
  const rooms = Object.keys(next.exits)
    .map(Number)
    .filter((id) => id !== next.truth.location.id);
  return {
    ...next,
    learned: rememberCells(next.learned, state.cells),
    cells: [cellOf(next.truth)],
    open: rooms.slice(-LIMITS.rooms),
    spent: [],
  };
}

const withoutKey = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  const { [key]: _dropped, ...rest } = record;
  return rest;
};
