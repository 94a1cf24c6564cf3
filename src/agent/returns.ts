/**
 * Go-Explore's return within an episode: when every move where the player stands is spent, walk
 * the mapped rooms (see rooms.ts) to the nearest one left with moves that still open something up,
 * instead of wandering or undoing what was done.
 */
import type { ActionOption } from '../schemas/game';
import { exhausted, frontier, parseCell } from './cells';
import { KnownChoice, MAX_RETURN_TRIES, PolicyContext, steps, timesTried } from './policyContext';
import { routeToOpen } from './rooms';
import { nextUntried, safeCommands } from './untried';

/**
 * With the probe: when only undoing, known or deadly moves are left here. From inside something
 * (in bed, in a car) none of the room's exits is valid and what is left to do in here is spent:
 * get out into the room, keeping what is carried, before anything else.
 */
export function returnWithProbe(pool: ActionOption[], ctx: PolicyContext): KnownChoice | null {
  const best = frontier(pool, { ...ctx.cells, visited: ctx.visited });
  if (best && !exhausted(best.tier)) return null;
  const usable = returnable(ctx, new Set(pool.map((o) => o.command)));
  const here = parseCell(ctx.cells.here);
  if (here.within !== undefined) {
    const out = pool.filter((o) => {
      const to = parseCell(o.resultCell);
      return to.location === here.location && to.within === undefined && to.inventory.length >= here.inventory.length && usable(o.command);
    });
    if (out.length) return { command: ctx.rng.pick(out).command, reason: 'return', why: "out of here, back to where the room's exits are" };
  }
  return toOpenRoom(ctx, usable);
}

/**
 * Without the probe (`valid`): when nothing going places, taking or opening is left untried here,
 * walk the rooms the episode's own moves mapped to the nearest one left with such moves, before
 * undoing, repeating or jumping. Without it the explorer bounced between two spent rooms (Zork I's
 * Canyon Bottom and End of Rainbow) and, with only "jump" left untried at Canyon View, jumped.
 */
export function returnWithoutProbe(candidates: readonly string[], ctx: PolicyContext): KnownChoice | null {
  if (nextUntried(candidates, ctx)?.opensUp) return null;
  const usable = returnable(ctx, new Set(safeCommands(candidates, ctx)));
  return toFrontierRoom(ctx, usable) ?? toOpenRoom(ctx, usable);
}

/** A move a return may take: listed here, and not yet retried too often from this state. */
const returnable = (ctx: PolicyContext, listed: ReadonlySet<string>) => (command: string) =>
  listed.has(command) && timesTried(ctx.tried, ctx.worldHash, command) < MAX_RETURN_TRIES;

/**
 * Go-Explore's return across episodes, by room: the first step to the nearest room an earlier
 * episode made a first in and this one has not acted in, over the rooms every episode mapped.
 */
function toFrontierRoom(ctx: PolicyContext, usable: (command: string) => boolean): KnownChoice | null {
  const goals = ctx.cells.frontierRooms;
  const map = ctx.cells.placePlans?.exits;
  const here = ctx.rooms?.here;
  if (!goals?.size || !map || here === undefined) return null;
  const route = routeToOpen(map, here, goals, usable);
  return route
    ? { command: route.command, reason: 'return', why: `back to where an earlier episode found something new, ${steps(route.steps)} away` }
    : null;
}

/** The first step to the nearest open room over the mapped rooms. */
function toOpenRoom(ctx: PolicyContext, usable: (command: string) => boolean): KnownChoice | null {
  const rooms = ctx.rooms;
  if (!rooms?.open.size) return null;
  const route = routeToOpen(rooms.exits, rooms.here, rooms.open, usable);
  return route ? { command: route.command, reason: 'return', why: `back to a room with untried moves, ${steps(route.steps)} away` } : null;
}
