/**
 * The `none` explorer with the story's lexicon: the most promising typed command not yet made in
 * this room (see typed.ts), and, once only unpromising ones are left, a walk over the rooms its
 * own moves mapped to the nearest room where a promising one is left — as under `valid`.
 */
import {
  ExploreChoice,
  FALLBACK_COMMANDS,
  KnownChoice,
  MAX_RETURN_TRIES,
  PolicyContext,
  SPENT_SHARE,
  steps,
  timesTried,
} from './policyContext';
import { routeToOpen } from './rooms';
import { AgentState, LIMITS } from './state';
import { doneIn } from './spent';
import { moveAt } from './remember';
import { readingOf } from './cellMemory';
import { keepNewest } from './newest';
import { TypedCommand, typedCommands, typedContext } from './typed';

/** The typed commands not made in this room yet, nor known to have killed the player here. */
export function freshTyped(
  typed: readonly TypedCommand[],
  ctx: Pick<PolicyContext, 'cells' | 'tried' | 'worldHash' | 'learned' | 'rooms'>,
) {
  const deadly = new Set(ctx.learned.deadlyMoves);
  const here = ctx.rooms?.here;
  return typed.filter(
    (c) =>
      (c.flee || ((c.again || !ctx.cells.doneHere?.has(c.command)) && timesTried(ctx.tried, ctx.worldHash, c.command) === 0)) &&
      (here === undefined || !deadly.has(moveAt(here, c.command))),
  );
}

const spentBelow = (state: Pick<AgentState, 'typing'>) => (state.typing?.unknownWorth ?? 0) * SPENT_SHARE;

export function exploreTyped(typed: readonly TypedCommand[], ctx: PolicyContext): ExploreChoice {
  const fresh = freshTyped(typed, ctx);
  if (fresh.length === 0) {
    if (typed.length === 0) return { command: ctx.rng.pick(FALLBACK_COMMANDS), reason: 'fallback', why: 'nothing to type' };
    return { command: ctx.rng.pick(typed).command, reason: 'random', why: 'everything here has been tried' };
  }
  const best = fresh[0].worth;
  const ties = fresh.filter((c) => c.worth >= best - 1e-9);
  const choice = ctx.rng.pick(ties);
  const why = choice.listed
    ? 'not yet tried here (the room lists it apart from its description)'
    : `not yet tried here ("${choice.shape}" often makes progress)`;
  return { command: choice.command, reason: 'untried', why };
}

/** When only unpromising commands are left here, the first step to the nearest mapped room where a promising one is left. */
export function returnTyped(typed: readonly TypedCommand[], ctx: PolicyContext, spentWorth: number): KnownChoice | null {
  const fresh = freshTyped(typed, ctx);
  if (fresh.length && fresh[0].worth >= spentWorth) return null;
  const rooms = ctx.rooms;
  if (!rooms?.open.size) return null;
  const usable = (command: string) => timesTried(ctx.tried, ctx.worldHash, command) < MAX_RETURN_TRIES;
  const route = routeToOpen(rooms.exits, rooms.here, rooms.open, usable);
  return route
    ? { command: route.command, reason: 'return', why: `back to a room with promising moves, ${steps(route.steps)} away` }
    : null;
}

/**
 * The room map under `none`: the move just made adds an exit when it changed rooms, and the room
 * left and the room reached are open while a promising typed command is untried in them.
 */
export function mappedByTyping(now: AgentState, before: AgentState): AgentState {
  const typing = now.typing;
  if (!typing) return now;
  const from = before.truth.location.id;
  const to = now.truth.location.id;
  let exits = now.exits;
  if (to !== from && !now.truth.died && now.lastCommand !== null) {
    const { [String(from)]: known = {}, ...others } = exits;
    exits = keepNewest<Record<string, number>>({ ...others, [from]: { ...known, [now.lastCommand]: to } }, LIMITS.rooms);
  }
  const carried = now.truth.inventory.map((item) => item.name);
  const opensUp = (room: number, replyNouns: readonly string[]) => {
    // A dark room keeps nothing open, so its done list is not read.
    if (now.readsExits && now.fleesDark && typing.darkRooms?.includes(room)) return false;
    const done = doneIn(now, room);
    const typed = typedCommands(typedContext(typing, replyNouns, room, carried, readingOf(now, room, done)));
    return typed.some((c) => !done.has(c.command) && c.worth >= spentBelow(now));
  };
  let open = now.open.filter((id) => id !== from && id !== to);
  if (to !== from && opensUp(from, [])) open = [...open, from];
  if (opensUp(to, now.nouns)) open = [...open, to];
  return { ...now, exits, open: open.slice(-LIMITS.rooms) };
}
