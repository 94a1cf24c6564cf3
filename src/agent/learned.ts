import { z } from 'zod';
import { DynamicsSchema } from './dynamics';
import { ReliabilitySchema } from './reliability';

/** Commands of a paying visit kept: the paying one and those made just before it in the room. */
export const VISIT_COMMANDS = 8;
/** Things lit and carried that a paying visit keeps. */
export const VISIT_LIGHTS = 4;
/** Paying visits and mapped rooms an agent carries across episodes. */
export const PAYING_VISITS = 30;
export const MAPPED_ROOMS = 80;
/** Losing moves (`room|shape`, see losses.ts) an agent carries across episodes. */
export const LOSING_MOVES = 50;

/** A visit to a room that scored: the commands made there, the paying one last, and what was lit and carried then (see placePlans.ts). */
export const PayingVisitSchema = z.object({
  room: z.number().int(),
  commands: z.array(z.string()).min(1).max(VISIT_COMMANDS),
  reward: z.number(),
  lit: z.array(z.string()).max(VISIT_LIGHTS),
});
export type PayingVisit = z.infer<typeof PayingVisitSchema>;

/**
 * What an agent learns across episodes: the dynamics model, the oracle's reliability, the goal
 * it inferred, and actions that paid off in a given world state. Bounded, because it travels
 * through every episode's input and result. No defaults: a workflow never fills in what its
 * caller left out (see `freshLearned`).
 */
export const LearnedStateSchema = z.object({
  episodes: z.number().int().nonnegative(),
  bestScore: z.number().int(),
  /** Short world hash -> commands that raised the score there. */
  rewarding: z.record(z.string(), z.array(z.string())),
  dynamics: DynamicsSchema,
  reliability: ReliabilitySchema,
  overallGoal: z.string(),
  /** Each memory module's state at the end of the last episode, by module name (see src/memory). */
  memory: z.record(z.string(), z.unknown()),
  /** Short world hashes of states from which a move killed the player, newest last. */
  deaths: z.array(z.string()).max(100),
  /** Go-Explore cells (see cellOf) earlier episodes reached, newest last. */
  cells: z.array(z.string()).max(400),
  /** Places (location and inventory, see placeOf) the player died in, newest last: later episodes keep out. */
  deadlyPlaces: z.array(z.string()).max(100),
  /**
   * Short world hashes of states from which an episode first reached a place or an item no
   * episode had reached, and which no later episode stood in again, oldest first: later episodes
   * walk back to the oldest they can (Go-Explore's return, across episodes) and try from there
   * what was not tried (the other branch of a choice) before what was.
   */
  frontier: z.array(z.string()).max(30).default([]),
  /**
   * `location id|command` for each move that killed the player, newest last. Without the probe
   * (the `valid` and `none` assists) this is how a later episode knows not to jump where jumping
   * killed, or to walk on in a dark attic.
   */
  deadlyMoves: z.array(z.string()).max(100).default([]),
  /**
   * Location ids of rooms a reply called dark, newest last: the game has dark places (see
   * lighting.ts). Absent until one is seen, so a run that saw none carries what it carried before.
   */
  darkRooms: z.array(z.string()).max(50).optional(),
  /**
   * Visits to rooms that scored, newest last, and the moves that led from room to room (room id ->
   * command -> room id), for plans by place (see placePlans.ts). Absent until an episode under
   * its patch learns one, so a run that learned none carries what it carried before.
   */
  payingVisits: z.array(PayingVisitSchema).max(PAYING_VISITS).optional(),
  roomMap: z.record(z.string(), z.record(z.string(), z.number().int())).optional(),
  /**
   * `room id|shape` where a command lost carried things (gone, and offered back by no listed
   * command; see losses.ts), newest last. Absent until an episode under its patch loses one.
   */
  losingMoves: z.array(z.string()).max(LOSING_MOVES).optional(),
  /**
   * Room ids in which an episode was the first to reach a place or an item, and which no later
   * episode made a command in again, oldest first: later episodes walk the room map back to them
   * (Go-Explore's return by room; see returns.ts). Absent until an episode under its patch finds one.
   */
  frontierRooms: z.array(z.number().int()).max(30).optional(),
});
export type LearnedState = z.infer<typeof LearnedStateSchema>;
export const MAX_LEARNED_STATES = 300;

export function freshLearned(): LearnedState {
  return {
    episodes: 0,
    bestScore: 0,
    rewarding: {},
    dynamics: { entries: {} },
    reliability: ReliabilitySchema.parse({}),
    overallGoal: 'unknown',
    memory: {},
    deaths: [],
    cells: [],
    deadlyPlaces: [],
    frontier: [],
    deadlyMoves: [],
  };
}
