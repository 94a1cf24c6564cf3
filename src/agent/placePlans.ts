/**
 * Plans by place, under `valid`: an earlier episode's scoring, replayed by room rather than by
 * world state. The learned dynamics model plans over exact world states, so a later episode could
 * only reach a reward by the very states the first one passed through: Zork I's campaign walked
 * 54 turns of the first episode's detours (eating the lunch, shaking the sack, putting things in
 * the grating) to the 44 points a walk of some 25 takes, and had half its turns left for
 * anything new. Here each score is kept as a paying visit (the room, the commands made there in
 * the visit that paid, the thing lit and carried then), the rooms as a map of the moves that led
 * from one to another in any episode, and a later episode walks that map to the first visit not
 * yet paid, in the order the visits were paid, and makes its commands again, those the list
 * offers, in order.
 */
import { MAPPED_ROOMS, type PayingVisit, PAYING_VISITS } from './learned';
import { litBy, takenBy } from './lighting';
import { withNewestEntry } from './newest';

/** Room id -> command -> the room it led to (the shape of policyContext's Exits, declared here so that the state, which policyContext reads, need not import it). */
export type RoomMap = Record<string, Record<string, number>>;

/** What a plan by place reads: the visits not yet paid this episode, and where the player stands. */
export interface PlacePlanning {
  /** Paying visits this episode has neither paid nor given up, in safe rooms. */
  pending: readonly PayingVisit[];
  /** Commands made since the player came into the room it stands in. */
  visit: readonly string[];
  /** The things this episode lit that the player carries, lower case (see lighting.ts). */
  lit: ReadonlySet<string>;
  /** The rooms' moves this episode and earlier ones mapped, less those into rooms to keep out of. */
  exits: RoomMap;
  /** How often this episode made a command where the player stands. */
  madeHere: (command: string) => number;
}

/** The key of a paying visit: its room and its paying command. */
export const visitKey = (visit: Pick<PayingVisit, 'room' | 'commands'>) => `${visit.room}|${visit.commands[visit.commands.length - 1]}`;

/** The things the visit had lit are lit now (`lit`: lit this episode and carried): its paying command may be made (Zork I's cellar is dark without the lantern). */
export const ready = (visit: PayingVisit, lit: ReadonlySet<string>) => visit.lit.every((thing) => lit.has(thing));

/**
 * The visit's next command where its room is: the first of its commands not made since the player
 * came in and offered now, the paying one only when `ready`. Null when none is.
 */
export function nextOfVisit(
  visit: PayingVisit,
  listed: ReadonlySet<string>,
  made: readonly string[],
  lit: ReadonlySet<string>,
): string | null {
  const last = visit.commands.length - 1;
  for (const [index, command] of visit.commands.entries()) {
    if (made.includes(command) || !listed.has(command)) continue;
    if (index < last || ready(visit, lit)) return command;
    // Its light first: the list offers to light what is not lit, or to take it.
    const missing = new Set(visit.lit.filter((thing) => !lit.has(thing)));
    const offered = [...listed].filter((other) => !made.includes(other));
    return offered.find((other) => missing.has(litBy(other) ?? '')) ?? offered.find((other) => missing.has(takenBy(other) ?? '')) ?? null;
  }
  return null;
}

/**
 * The paying visits after a step that scored: the visit made in `room` (`commands`, the paying one
 * last) joins them, newest last, or takes the place of a longer one with the same room and paying
 * command.
 */
export function withPayingVisit(visits: readonly PayingVisit[], paid: PayingVisit): PayingVisit[] {
  const key = visitKey(paid);
  const known = visits.find((visit) => visitKey(visit) === key);
  if (!known) return [...visits, paid].slice(-PAYING_VISITS);
  // In its place: the order visits were paid in is the order plans take them (see placeStep).
  return visits.map((visit) => (visit === known && paid.commands.length < known.commands.length ? paid : visit));
}

/** The room map after a move from `from` to `to`: the move leads there (the newest rooms kept). */
export function withMappedMove(map: RoomMap, from: number, command: string, to: number): RoomMap {
  const key = String(from);
  if (map[key]?.[command] === to) return map;
  return withNewestEntry(map, key, { ...map[key], [command]: to }, MAPPED_ROOMS);
}

/** Two room maps as one; `newer`'s move wins where both map it. */
export function mergedMaps(older: RoomMap, newer: RoomMap): RoomMap {
  let map = older;
  for (const [from, moves] of Object.entries(newer))
    for (const [command, to] of Object.entries(moves)) map = withMappedMove(map, Number(from), command, to);
  return map;
}
