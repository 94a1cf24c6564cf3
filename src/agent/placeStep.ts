/**
 * The next step of a plan by place (see placePlans.ts): a visit's next command where the player
 * stands, else the first move of a walk over the mapped rooms to the next visit to pay.
 */
import { type PlacePlanning, nextOfVisit, ready } from './placePlans';
import { routeToOpen } from './rooms';

/** A move made this often in one room this episode is no way to route through it any more (a door that stays shut). */
const ROUTE_MOVES_MADE = 6;

/**
 * The next step of a plan by place: the first visit not yet paid, in the order earlier episodes
 * paid them, that can be paid from here. In its room, its next command; elsewhere, the first move
 * of the shortest mapped walk to its room, when the things it had lit are lit now or its own
 * commands name them (the lantern is taken in the room whose stairs it lights). In that order, not the
 * nearest first: Zork I's trap door shuts behind the player, and the egg up the tree, paid first,
 * is out of reach below. Null when no visit can be.
 */
export function placeStep(
  planning: PlacePlanning,
  here: number,
  listed: ReadonlySet<string>,
  usable: (command: string) => boolean,
): { command: string; why: string } | null {
  const walkable = (command: string) => usable(command) && planning.madeHere(command) < ROUTE_MOVES_MADE;
  for (const visit of planning.pending) {
    if (visit.room === here) {
      const command = nextOfVisit(visit, listed, planning.visit, planning.lit);
      if (command) return { command, why: `where an earlier episode scored +${visit.reward}` };
      continue;
    }
    const lightInReach = visit.lit.every((thing) => visit.commands.some((command) => command.includes(thing)));
    if (!ready(visit, planning.lit) && !lightInReach) continue;
    const route = routeToOpen(planning.exits, here, new Set([visit.room]), walkable);
    if (route)
      return {
        command: route.command,
        why: `to where an earlier episode scored +${visit.reward}, ${route.steps} step${route.steps === 1 ? '' : 's'} away`,
      };
  }
  return null;
}
