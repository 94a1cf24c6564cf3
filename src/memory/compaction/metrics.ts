/**
 * How honest the world model is, measured against the engine (DESIGN: "ground truth keeps memory
 * honest"). Only what the engine can check is scored: rooms, exits, item locations, inventory.
 *
 * A CLAIM is one of these statements the model makes:
 *   - room:  each location in the model claims "the player has visited this room";
 *   - exit:  each exit with a destination claims "`command` from this room leads to `to`" (an exit
 *            with '' as its destination, seen but not taken, claims nothing);
 *   - item:  each item whose place is not 'unknown' claims "this item is carried" / "is in room R" /
 *            "is inside X" (carried claims are the inventory claims).
 * A claim is CONFIRMED when the truth says the same, CONTRADICTED when the truth says otherwise,
 * UNVERIFIABLE when the truth is silent:
 *   - room:  the truth lists every visited room, so a room claim is confirmed or contradicted;
 *   - exit:  checked against the last move observed from that room by that command; unverifiable
 *            when the player never made that move;
 *   - item:  the truth's place for an item is 'carried' when it is in the inventory, else its entry
 *            in itemLocations. A carried claim is contradicted by any other answer (the inventory is
 *            complete); a room/inside claim is confirmed when the place names match, contradicted
 *            when the truth names another place (or says carried), unverifiable when the truth has
 *            no entry for the item (never seen, or named differently).
 * A TRUTH FACT is a visited room, an observed exit (from, command), or an item's place (itemLocations
 * plus the inventory); the model HOLDS it when it has the room / the same exit destination / a
 * confirmed claim about the item.
 *
 *   precision         = confirmed / (confirmed + contradicted)   (1 when nothing is checkable)
 *   recall            = truth facts held / truth facts           (1 when the truth is empty)
 *   hallucinationRate = contradicted / claims                    (0 when there are no claims)
 *
 * Names match by nameKey (case, punctuation and the articles "the", "a", "an" ignored) after the
 * same cleaning and length cap the model stores them with; commands match by their stored exit
 * command ("n", "go north" and "north" are one).
 */
import { z } from 'zod';
import { ObservedExitSchema, roomName } from './facts';
import { exitCommand, LIMITS, WorldModel } from './models';
import { cleanText, nameKey } from './names';

export const GroundTruthFactsSchema = z.object({
  /** Every room the player has visited. */
  rooms: z.array(z.string()),
  /** Moves observed to change the room, oldest first. */
  exits: z.array(ObservedExitSchema),
  /** Item name → the room it is in, 'carried', or the container it is in: items the player has seen. */
  itemLocations: z.record(z.string(), z.string()),
  /** Names of the carried objects. */
  inventory: z.array(z.string()),
});
export type GroundTruthFacts = z.infer<typeof GroundTruthFactsSchema>;

export const CLAIM_KINDS = ['room', 'exit', 'item'] as const;
export type ClaimKind = (typeof CLAIM_KINDS)[number];

export interface ClaimCounts {
  claims: number;
  confirmed: number;
  contradicted: number;
  unverifiable: number;
  truthFacts: number;
  held: number;
}

export interface ModelScore extends ClaimCounts {
  precision: number;
  recall: number;
  hallucinationRate: number;
  byKind: Record<ClaimKind, ClaimCounts>;
  /** The first contradicted claims, for a person to read. */
  contradictions: string[];
}

const MAX_CONTRADICTIONS_LISTED = 20;
const CARRIED = 'carried';

type Verdict = 'confirmed' | 'contradicted' | 'unverifiable';

const compare = (claimed: string, truth: string | undefined): Verdict =>
  truth === undefined ? 'unverifiable' : nameKey(claimed) === nameKey(truth) ? 'confirmed' : 'contradicted';

const roomKey = (name: string) => nameKey(roomName(name));
const itemKey = (name: string) => nameKey(cleanText(name, LIMITS.itemName));
const placeKey = (name: string) => nameKey(cleanText(name, LIMITS.placeName));
const exitId = (from: string, command: string) => `${roomKey(from)}|${exitCommand(command)}`;

/** The truth, keyed the way the model's claims are. */
function indexTruth(truth: GroundTruthFacts) {
  const rooms = new Set(truth.rooms.map(roomKey).filter(Boolean));
  const exits = new Map<string, string>();
  for (const exit of truth.exits)
    if (roomKey(exit.from) && exitCommand(exit.command)) exits.set(exitId(exit.from, exit.command), roomKey(exit.to));
  const places = new Map<string, string>();
  for (const [item, place] of Object.entries(truth.itemLocations)) if (itemKey(item)) places.set(itemKey(item), placeKey(place));
  for (const item of truth.inventory) if (itemKey(item)) places.set(itemKey(item), CARRIED);
  return { rooms, exits, places };
}

function emptyCounts(): ClaimCounts {
  return { claims: 0, confirmed: 0, contradicted: 0, unverifiable: 0, truthFacts: 0, held: 0 };
}

export function scoreModel(model: WorldModel, truth: GroundTruthFacts): ModelScore {
  const index = indexTruth(truth);
  const byKind: Record<ClaimKind, ClaimCounts> = { room: emptyCounts(), exit: emptyCounts(), item: emptyCounts() };
  const contradictions: string[] = [];
  const heldExits = new Set<string>();
  const heldItems = new Set<string>();
  const count = (kind: ClaimKind, verdict: Verdict, claim: string) => {
    byKind[kind].claims++;
    byKind[kind][verdict]++;
    if (verdict === 'contradicted' && contradictions.length < MAX_CONTRADICTIONS_LISTED) contradictions.push(claim);
  };

  for (const location of model.locations) {
    count('room', index.rooms.has(roomKey(location.name)) ? 'confirmed' : 'contradicted', `visited ${location.name}`);
    for (const [command, to] of Object.entries(location.exits)) {
      if (!nameKey(to)) continue;
      const id = exitId(location.name, command);
      const verdict = compare(to, index.exits.get(id));
      if (verdict === 'confirmed') heldExits.add(id);
      count('exit', verdict, `${exitCommand(command)} from ${location.name} leads to ${to}`);
    }
  }

  for (const item of model.items) {
    if (item.where.kind === 'unknown') continue;
    const truthPlace = index.places.get(itemKey(item.name));
    let verdict: Verdict;
    if (item.where.kind === 'carried') verdict = truthPlace === CARRIED ? 'confirmed' : 'contradicted';
    else verdict = compare(item.where.name, truthPlace);
    if (verdict === 'confirmed') heldItems.add(itemKey(item.name));
    count(
      'item',
      verdict,
      item.where.kind === 'carried'
        ? `${item.name} is carried`
        : `${item.name} is ${item.where.kind === 'room' ? 'in' : 'inside'} ${item.where.name}`,
    );
  }

  const modelRooms = new Set(model.locations.map((location) => roomKey(location.name)));
  byKind.room.truthFacts = index.rooms.size;
  byKind.room.held = [...index.rooms].filter((room) => modelRooms.has(room)).length;
  byKind.exit.truthFacts = index.exits.size;
  byKind.exit.held = heldExits.size;
  byKind.item.truthFacts = index.places.size;
  byKind.item.held = heldItems.size;

  const total = CLAIM_KINDS.reduce((sum, kind) => {
    for (const field of Object.keys(sum) as Array<keyof ClaimCounts>) sum[field] += byKind[kind][field];
    return sum;
  }, emptyCounts());
  const checkable = total.confirmed + total.contradicted;
  return {
    ...total,
    precision: checkable ? total.confirmed / checkable : 1,
    recall: total.truthFacts ? total.held / total.truthFacts : 1,
    hallucinationRate: total.claims ? total.contradicted / total.claims : 0,
    byKind,
    contradictions,
  };
}

/** The fields of an engine object this needs (src/engine/objects.ts ZObject has them). */
export interface TreeObject {
  id: number;
  name: string;
  parent: number;
}

/**
 * itemLocations from the engine's object tree: for each object whose room is one the player has
 * visited (or that the player carries), its immediate place — 'carried' when the player holds it,
 * the room's name when it lies in a room, else the name of the object it is in or on. Rooms, the
 * player and objects outside any visited room are left out; so is a name two objects share in
 * different places (the truth would be ambiguous). `seen`, when given, keeps only those names:
 * something in a closed box in a visited room has not been seen.
 */
export function itemLocationsFromTree(
  objects: readonly TreeObject[],
  options: { playerId: number; visitedRooms: readonly string[]; seen?: readonly string[] },
): Record<string, string> {
  const byId = new Map(objects.map((object) => [object.id, object]));
  const visited = new Set(options.visitedRooms.map(nameKey));
  const seen = options.seen ? new Set(options.seen.map(nameKey)) : null;
  const isRoom = (object: TreeObject) => visited.has(nameKey(object.name));
  /** Whether the object sits (at any depth) in a visited room or on the player. */
  const reachable = (object: TreeObject): boolean => {
    let current = byId.get(object.parent);
    for (let depth = 0; current && depth < 16; depth++) {
      if (current.id === options.playerId || isRoom(current)) return true;
      current = byId.get(current.parent);
    }
    return false;
  };
  const places = new Map<string, { name: string; place: string } | null>();
  for (const object of objects) {
    const key = nameKey(object.name);
    if (!key || object.id === options.playerId || isRoom(object) || !reachable(object)) continue;
    if (seen && !seen.has(key)) continue;
    const parent = byId.get(object.parent)!;
    const place = parent.id === options.playerId ? CARRIED : parent.name;
    const known = places.get(key);
    if (known === undefined) places.set(key, { name: object.name, place });
    else if (known && nameKey(known.place) !== nameKey(place)) places.set(key, null);
  }
  const result: Record<string, string> = {};
  for (const entry of places.values()) if (entry) result[entry.name] = entry.place;
  return result;
}
