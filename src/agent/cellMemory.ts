/**
 * What the policy reads of the agent's state besides the current options: the cells reached, the
 * commands done and spent where the player stands, the fight, the perils, the plans by place,
 * the losses and the lighting (see cells.ts for what each means to the explorer).
 */
import { cellOf } from '../schemas/game';
import type { CellMemory } from './cells';
import { knownStates, shortState } from './dynamics';
import { FIGHT_ROUNDS, isArmedFight, threatened } from './fights';
import { type Lighting, litBy } from './lighting';
import { type Losses, losingAnywhere } from './losses';
import { PAYING_VISITS } from './learned';
import { pushOnce } from './newest';
import { mergedMaps, nextOfVisit, type PlacePlanning, type RoomMap, visitKey } from './placePlans';
import { visitedSet } from './remember';
import { saysPitchDark } from './replyReading';
import { carriedNames, doneIn, spentIn } from './spent';
import { type AgentState, LIMITS } from './state';
import { type Reading, READING_FLAGS } from './typed';
import { verbUses } from './verbSpread';

/**
 * What the `none` explorer reads of a room when it reads named exits (see typedContext): how many
 * commands were made there (`done`: the caller's doneIn of the room, when it has it).
 */
export function readingOf(state: AgentState, room: number, done: ReadonlySet<string> = doneIn(state, room)): Required<Reading> | undefined {
  if (!state.readsExits) return undefined;
  const reading: Required<Reading> = { madeHere: done.size } as Required<Reading>;
  for (const flag of READING_FLAGS) reading[flag] = state[flag];
  return reading;
}

/** The last command was a blow, made fewer than FIGHT_ROUNDS times in this room: the fight goes on (see nextUntried). */
function fightGoesOn(state: AgentState): boolean {
  const last = state.lastCommand;
  return last !== null && isArmedFight(last) && (state.made[`${state.truth.location.id}|${last}`] ?? 0) < FIGHT_ROUNDS;
}

/**
 * A threat read in this room holds while the player stays (Zork I's troll, announced "brandishing
 * a bloody axe", then struck in words no cue reads: "The axe gets you right in the side"), for as
 * many blows in the room as a fight goes on without one (FIGHT_ROUNDS).
 */
function threatStands(state: AgentState): boolean {
  const here = state.truth.location.id;
  if (!state.facesDanger || state.threatenedIn !== here) return false;
  let blows = 0;
  for (const [key, times] of Object.entries(state.made)) {
    const bar = key.indexOf('|');
    if (key.slice(0, bar) === String(here) && isArmedFight(key.slice(bar + 1))) blows += times;
  }
  return blows < FIGHT_ROUNDS;
}

/**
 * A room left under a threat or in the dark is no room to return to while the player carries
 * nothing it did not carry then: Zork I's explorer went back from the troll with no sword, and the
 * walk back to the room's untried moves led straight in again, where the troll killed it.
 */
export function perilous(state: Pick<AgentState, 'perils' | 'truth'>, room: number): boolean {
  const peril = state.perils.find((left) => left.room === room);
  if (!peril) return false;
  const then = new Set(peril.carried);
  return carriedNames(state).every((name) => then.has(name));
}

/**
 * The perils after a move to `to`: the room left joins them when its last reply told of a threat
 * or of the dark (not a threat only held there: the foe may lie dead).
 */
export function perilsAfter(state: AgentState, to: number, died: boolean): AgentState['perils'] {
  const from = state.truth.location.id;
  if (from === to || died) return state.perils;
  if (!threatened(state.observation) && !saysPitchDark(state.observation)) return state.perils;
  const others = state.perils.filter((left) => left.room !== from);
  return [...others, { room: from, carried: carriedNames(state) }].slice(-LIMITS.perils);
}

/** The cells this episode and earlier ones reached (see cells.ts). */
export function cellMemory(state: AgentState): CellMemory {
  const known = knownStates(state.learned.dynamics);
  return {
    here: cellOf(state.truth),
    seen: new Set(state.cells),
    seenBefore: new Set(state.learned.cells),
    deadly: new Set(state.learned.deadlyPlaces),
    visited: visitedSet(state),
    known: { has: (hash) => known.has(shortState(hash)) },
    doneHere: doneIn(state, state.truth.location.id),
    spentHere: spentIn(state, state.truth.location.id, carriedNames(state)),
    avoidLosses: state.avoidsLosses,
    ...(state.refusesLosingWins ? { refusesLosingWins: true } : {}),
    menuCommands: new Set(state.menus),
    ...(state.spendsEffects ? { effectsDone: new Set(state.effects) } : {}),
    ...(state.spreadsVerbs ? { verbUses: verbUses(state.done) } : {}),
    ...(state.looksAhead ? { looksAhead: true } : {}),
    ...(state.avoidsDoom ? { avoidDoom: true } : {}),
    ...(state.leavesStill ? { leavesStill: true } : {}),
    ...(state.fightsBack
      ? {
          fightsBack: true,
          fought: fightGoesOn(state) || threatStands(state),
          ...(state.facesDanger ? { facesDanger: true, arrivedBy: state.arrivedBy } : {}),
          ...(state.mindsPerils
            ? { mindsPerils: true, justArrived: state.lastCommand !== null && state.lastCommand === state.arrivedBy }
            : {}),
        }
      : {}),
    ...(state.lightsFirst ? { lighting: lightingOf(state) } : {}),
    ...(state.plansByPlace ? { placePlans: placePlanningOf(state) } : {}),
    ...(state.mindsLosses ? { losses: lossesOf(state) } : {}),
    ...(state.returnsToFrontierRooms ? { frontierRooms: frontierRoomsOf(state) } : {}),
  };
}

/** The rooms earlier episodes made a first in that this episode has made no command in yet (its `done` entries' rooms), oldest first. */
export function frontierRoomsNotActedIn(state: Pick<AgentState, 'done' | 'learned'>): number[] {
  const actedIn = new Set(state.done.map((entry) => Number(entry.slice(0, entry.indexOf('|')))));
  return (state.learned.frontierRooms ?? []).filter((room) => !actedIn.has(room));
}

/** The frontier rooms a return may walk to now: not acted in this episode, and not rooms to keep out of (see returns.ts). */
function frontierRoomsOf(state: AgentState): Set<number> {
  return new Set(frontierRoomsNotActedIn(state).filter((room) => !perilous(state, room)));
}

/** What minding losses reads (see losses.ts). */
export function lossesOf(state: AgentState): Losses {
  return {
    room: state.truth.location.id,
    losing: new Set(state.learned.losingMoves ?? []),
    losingAnywhere: losingAnywhere(state.learned.losingMoves ?? []),
    carried: carriedNames(state),
    lit: litCarried(state),
  };
}

/** The names of the things carried, lower case, as placePlans.ts compares them with what was lit. */
export const carriedLower = (state: Pick<AgentState, 'truth'>) => new Set(carriedNames(state).map((name) => name.toLowerCase()));

/** What this episode lit that the player still carries, lower case (see lighting.ts). */
function litCarried(state: Pick<AgentState, 'truth' | 'lit'>): string[] {
  const carried = carriedLower(state);
  return state.lit.filter((thing) => carried.has(thing));
}

/** The visits given up after a step: those whose room the player stands in with nothing of theirs offered now (see placePlans.ts). */
export function plansGivenUpAfter(state: AgentState): string[] {
  const planning = placePlanningOf(state);
  const listed = new Set(state.commands);
  let givenUp = state.plansGivenUp;
  for (const visit of planning.pending)
    if (visit.room === state.truth.location.id && nextOfVisit(visit, listed, state.visit, planning.lit) === null)
      givenUp = pushOnce(givenUp, visitKey(visit), PAYING_VISITS);
  return givenUp;
}

/** What a plan by place reads (see placePlans.ts): the visits not paid, given up or in a room to keep out of, and the map less the moves into such rooms or that killed. */
function placePlanningOf(state: AgentState): PlacePlanning {
  const done = new Set(state.done);
  const givenUp = new Set(state.plansGivenUp);
  const deadly = new Set(state.learned.deadlyMoves);
  const keepOut = (room: number) => perilous(state, room);
  const pending = (state.learned.payingVisits ?? []).filter(
    (visit) => !done.has(visitKey(visit)) && !givenUp.has(visitKey(visit)) && !keepOut(visit.room),
  );
  const map = mergedMaps(state.learned.roomMap ?? {}, state.exits);
  const exits: RoomMap = {};
  for (const [from, moves] of Object.entries(map)) {
    const closed = state.closedMoves[from] ?? [];
    const kept = Object.entries(moves).filter(
      ([command, to]) => !keepOut(to) && !deadly.has(`${from}|${command}`) && !closed.includes(command),
    );
    if (kept.length) exits[from] = Object.fromEntries(kept);
  }
  const here = state.truth.location.id;
  return {
    pending,
    visit: state.visit,
    lit: new Set(litCarried(state)),
    exits,
    madeHere: (command) => state.made[`${here}|${command}`] ?? 0,
  };
}

/** What the episode lit and tried to light (its commands' `room|command` entries), and whether the game has shown a dark room or told of one. */
function lightingOf(state: AgentState): Lighting {
  const triedToLight = new Set<string>();
  for (const entry of state.done) {
    const thing = litBy(entry.slice(entry.indexOf('|') + 1));
    if (thing) triedToLight.add(thing);
  }
  return {
    darkKnown: (state.learned.darkRooms?.length ?? 0) > 0 || state.toldOfDark,
    lit: new Set(state.lit),
    triedToLight,
    carried: carriedLower(state),
  };
}
