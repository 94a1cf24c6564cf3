/**
 * What the workflow knows cheaply from the engine every turn, and the lookups the merge needs
 * from it. These facts are ground truth: the merge lets them win over anything a model claims.
 */
import { z } from 'zod';
import { exitCommand, LIMITS } from './models';
import { cleanText, nameKey } from './names';

/** A move the player made that changed the room: `command` run in `from` led to `to`. */
export const ObservedExitSchema = z.object({ from: z.string(), command: z.string(), to: z.string() });
export type ObservedExit = z.infer<typeof ObservedExitSchema>;

export const EngineFactsSchema = z.object({
  turn: z.number().int().min(0),
  /** The room the player is in ('' when the engine cannot tell). */
  location: z.string(),
  /** Names of the objects the player carries. */
  inventory: z.array(z.string()),
  score: z.number().int(),
  /** Every room the player has been in this episode (the map module's rooms). */
  visitedRooms: z.array(z.string()),
  /** Moves seen to change the room, oldest first (a later move from the same room by the same command wins). */
  exits: z.array(ObservedExitSchema),
});
export type EngineFacts = z.infer<typeof EngineFactsSchema>;

/** The facts cleaned to the model's text rules, with lookups by key. */
export interface KnownFacts {
  turn: number;
  score: number;
  /** The current room's name ('' unknown). */
  here: string;
  inventory: string[];
  /** nameKey → room name, for every visited room, both ends of every observed move and the current room. */
  rooms: Map<string, string>;
  /** `exitKey(from, command)` → the latest move observed from that room by that command. */
  exits: Map<string, ObservedExit>;
}

export const exitKey = (from: string, command: string): string => `${nameKey(from)}|${exitCommand(command)}`;

export const roomName = (name: string): string => cleanText(name, LIMITS.roomName);
export const itemName = (name: string): string => cleanText(name, LIMITS.itemName);

export function knownFacts(facts: EngineFacts): KnownFacts {
  const here = roomName(facts.location);
  const rooms = new Map<string, string>();
  for (const room of [...facts.visitedRooms, here].map(roomName)) if (nameKey(room)) rooms.set(nameKey(room), room);
  const exits = new Map<string, ObservedExit>();
  for (const exit of facts.exits) {
    const move = { from: roomName(exit.from), command: exitCommand(exit.command), to: roomName(exit.to) };
    if (!nameKey(move.from) || !move.command || !nameKey(move.to)) continue;
    // Re-inserted so that iteration order follows the latest observation.
    exits.delete(exitKey(move.from, move.command));
    exits.set(exitKey(move.from, move.command), move);
    // Both ends of a move were visited, whatever the visited list says.
    for (const room of [move.from, move.to]) if (!rooms.has(nameKey(room))) rooms.set(nameKey(room), room);
  }
  const inventory = facts.inventory.map(itemName).filter((name) => nameKey(name));
  return { turn: facts.turn, score: facts.score, here: nameKey(here) ? here : '', inventory, rooms, exits };
}
