/**
 * Go-Explore's "return", over rooms rather than world states. A world hash changes with every item
 * taken, so a state left with moves untried is rarely reachable again; the room it was in is. The
 * probe says which room each move leads to, so every room the episode stands in adds its exits to
 * a small map, and rooms left with moves that still open something up are kept as `open`. When
 * the moves where the player stands are spent, the agent walks the map to the nearest open room.
 */
import type { ActionOption } from '../schemas/game';
import { parseCell } from './cells';

/** Room id -> command -> the room it led to, as the probe last showed it from there. */
export type Exits = Record<string, Record<string, number>>;

/** The moves from `location` that lead to another room, by the probe's reckoning. */
export function exitsOf(location: number, options: readonly ActionOption[]): Record<string, number> {
  const exits: Record<string, number> = {};
  for (const option of options) {
    if (option.outcome !== 'continue') continue;
    const to = parseCell(option.resultCell).location;
    if (to !== location) exits[option.command] = to;
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
export function routeToOpen(exits: Exits, from: number, open: ReadonlySet<number>, usable: (command: string) => boolean, maxSteps = 30): Route | null {
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
