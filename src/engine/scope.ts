/**
 * The objects a command can name at the current state, found from the object tree: the location's
 * contents, what the player carries, and Infocom's globals where the room or its description
 * brings them into scope, and Inform's compass directions where the room's description names them.
 */
import { DEMONSTRATIVES, OBJECT_PRONOUNS, PERSONS } from './englishWords';
import { STANDARD_DIRECTIONS } from './grammar';
import type { GameSession } from './session';
import { hasListedNouns, objectVocabulary } from './vocabulary';

/**
 * A property's data read as object numbers: bytes up to version 3; after, words (more than 255
 * objects) and bytes too, since some later Infocom stories keep their rooms' global lists in bytes
 * (Sherlock's street lists its front door, window, house and streetlight as four bytes).
 */
function objectLists(session: GameSession, data: Uint8Array): number[][] {
  const bytes = Array.from(data);
  if (session.story.version <= 3) return [bytes];
  const words: number[] = [];
  if (data.length % 2 === 0) for (let i = 0; i < data.length; i += 2) words.push((data[i] << 8) | data[i + 1]);
  return [words, bytes];
}

/**
 * Infocom rooms list their "local globals" (a house seen from outside, a window, a forest) in a
 * property whose entries are objects that all live under one container other than the rooms'
 * own parent (ZIL's LOCAL-GLOBALS), and may name another room too (Sherlock's street lists the
 * house, a room the player can enter). Those are in scope in the room without being in its
 * subtree. Of the properties that read so, the one with the most such objects, then the fewest
 * rooms: a number can read as one such object (Cutthroat's room has `[0, 2]`, and object 2, a
 * coin, lives in LOCAL-GLOBALS), and taking it first left the room's door out of scope, so "open
 * door" was never offered; an exit through a door reads as that room and that door.
 */
function localGlobals(session: GameSession, room: number): { ids: number[]; container: number } | null {
  const { objects, mem } = session;
  if (session.story.inform) return null;
  const roomParent = objects.parent(mem, room);
  // LOCAL-GLOBALS hangs outside every room (under GLOBAL-OBJECTS): a routine's address read as
  // two objects, one of them in the mailbox, is no such list.
  const inARoom = (id: number) => {
    for (let at = id, hops = 0; at !== 0 && hops < 64; at = objects.parent(mem, at), hops++)
      if (objects.parent(mem, at) === roomParent) return true;
    return false;
  };
  let best: { ids: number[]; container: number; members: number } | null = null;
  for (const { data } of objects.properties(mem, room)) {
    for (const read of objectLists(session, data)) {
      const ids = read.filter((id) => id !== 0);
      if (ids.length === 0 || ids.some((id) => id > objects.count)) continue;
      const members = ids.filter((id) => objects.parent(mem, id) !== roomParent);
      const container = members.length > 0 ? objects.parent(mem, members[0]) : 0;
      if (container === 0 || inARoom(container)) continue;
      if (members.some((id) => objects.parent(mem, id) !== container)) continue;
      // A room among them only in a list of several globals: a routine's address reads as two bytes.
      const rooms = ids.length - members.length;
      if (rooms > 0 && members.length < Math.max(2, rooms + 1)) continue;
      const better = !best || members.length > best.members || (members.length === best.members && ids.length < best.ids.length);
      if (better) best = { ids, container, members: members.length };
    }
  }
  return best && { ids: best.ids, container: best.container };
}

/** Words that stand for another object (ZIL's IT is a global object named "it" and "them"). */
const PRONOUNS = new Set<string>([...OBJECT_PRONOUNS, ...PERSONS, ...DEMONSTRATIVES]);

/**
 * A text's words as the dictionary stores them, pronouns aside. An apostrophe splits a word as
 * Jericho's tokenizer splits it ("agent's" gives "agent" and "s", which Inform's compass reads as
 * south): the objects in scope are the ones Jericho would find.
 */
function wordsOf(session: GameSession, text: string): Set<string> {
  const resolution = session.dictionary.resolution;
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9-]+/)
      .filter((w) => w && !PRONOUNS.has(w))
      .map((w) => w.slice(0, resolution)),
  );
}

/**
 * Inform's compass: an object at the root of the tree whose children are the direction objects
 * ("north wall" named n, north; "floor" named d, down, floor, ground), which the parser keeps in
 * scope in every room, so "examine floor" and "put the box on the floor" are commands anywhere.
 * Found by its children's names, most of which are compass words.
 */
function informCompass(session: GameSession): number[] {
  const { objects, mem } = session;
  if (!session.story.inform) return [];
  const compassWords = new Set(STANDARD_DIRECTIONS.map((w) => w.slice(0, session.dictionary.resolution)));
  for (let id = 1; id <= objects.count; id++) {
    if (objects.parent(mem, id) !== 0) continue;
    const children = objects.children(mem, id);
    if (children.length < 8) continue;
    const directions = children.filter((child) => objectVocabulary(session, child).nouns.some((noun) => compassWords.has(noun)));
    if (directions.length >= 8) return directions;
  }
  return [];
}

/**
 * The compass directions the room's description names, as Jericho finds them ("the office lies to
 * the east"), each by a word of its own: "wall", which names all eight walls, names none (Jericho
 * would try the one word, which the parser cannot resolve).
 */
function mentionedDirections(session: GameSession): number[] {
  const compass = informCompass(session);
  if (compass.length === 0) return [];
  const nouns = new Map(compass.map((id) => [id, objectVocabulary(session, id).nouns]));
  const count = new Map<string, number>();
  for (const list of nouns.values()) for (const noun of new Set(list)) count.set(noun, (count.get(noun) ?? 0) + 1);
  const words = wordsOf(session, lookText(session));
  return compass.filter((id) => nouns.get(id)!.some((noun) => count.get(noun) === 1 && words.has(noun)));
}

/**
 * ZIL keeps LOCAL-GLOBALS inside GLOBAL-OBJECTS, whose other children (a door, the ground, your
 * hands) the parser finds from every room. There are dozens, so only those the room's
 * description names are taken: what Jericho finds by reading "look" for nouns.
 */
function mentionedGlobals(session: GameSession, localContainer: number, description: string): number[] {
  const words = wordsOf(session, description);
  return everyGlobal(session, localContainer).filter((id) => objectVocabulary(session, id).nouns.some((noun) => words.has(noun)));
}

/**
 * Every child of GLOBAL-OBJECTS but the local globals' container and the pronouns (ZIL's IT, whose
 * one word would name whatever the parser last heard of): what the parser finds from anywhere.
 */
function everyGlobal(session: GameSession, localContainer: number): number[] {
  const { objects, mem } = session;
  const globals = objects.parent(mem, localContainer);
  if (globals === 0) return [];
  const named = (id: number) => objectVocabulary(session, id).nouns.some((noun) => !PRONOUNS.has(noun));
  return objects.descendants(mem, globals, 1).filter((id) => id !== localContainer && named(id));
}

/** Objects the last reply may bring into scope from outside the tree's reach, at most. */
const MAX_NAMED_IN_REPLY = 4;

/**
 * Objects outside the room and the inventory that the last reply names by a word naming nothing
 * else in the story: a game can keep things in scope by a routine grue does not run (Balances
 * keeps the spells the player has memorised in a "memory" object, and "You commit the bozbar
 * spell to memory" is the only sign of it). Jericho reads the reply's nouns the same way. Rooms
 * (the location's siblings) are left out: a reply naming a place does not bring it into reach.
 */
function namedInReply(session: GameSession, reply: string, inScope: Set<number>): number[] {
  const { objects, mem } = session;
  const words = wordsOf(session, reply);
  const rooms = objects.parent(mem, session.locationId);
  const owners = new Map<string, number[]>();
  for (let id = 1; id <= objects.count; id++)
    for (const noun of new Set(objectVocabulary(session, id).nouns))
      if (words.has(noun)) owners.set(noun, [...(owners.get(noun) ?? []), id]);
  const found: number[] = [];
  for (const ids of owners.values()) {
    const [id] = ids;
    if (ids.length !== 1 || inScope.has(id) || found.includes(id) || objects.parent(mem, id) === rooms) continue;
    found.push(id);
    if (found.length >= MAX_NAMED_IN_REPLY) break;
  }
  return found;
}

/** The room's description as "look" prints it (nothing where the story faults on it); the session is left where it was. */
function lookText(session: GameSession): string {
  return session.replyOrFault('look') ?? '';
}

/**
 * Objects the player can plausibly refer to, in tree order: the location's contents (at any depth,
 * as Jericho takes them: a stud on a panel on a slab), its local globals and the globals or compass
 * directions its description names, the inventory, then the player. `namedByReply`: those of them
 * only the last reply brought in (see namedInReply), which the candidates screen (see outOfReach.ts).
 * `allGlobals`: every Infocom global, named or not (the widened search of validActions.ts).
 */
export function scopeObjects(
  session: GameSession,
  depth = 8,
  reply = '',
  allGlobals = false,
): { all: number[]; held: number[]; namedByReply: number[] } {
  const room = session.locationId;
  const player = session.player;
  const held = player ? session.objects.descendants(session.mem, player, depth) : [];
  const around: number[] = [];
  const namedByReply: number[] = [];
  const roomNamed = room !== 0 && !session.story.inform && hasListedNouns(session, room);
  if (room) {
    around.push(...session.objects.descendants(session.mem, room, depth));
    const local = localGlobals(session, room);
    if (local)
      around.push(
        ...local.ids,
        ...(allGlobals ? everyGlobal(session, local.container) : mentionedGlobals(session, local.container, lookText(session))),
      );
    around.push(...mentionedDirections(session));
    // An Infocom room with words of its own is one the parser finds where the player stands
    // (Sherlock: "examine street"); Inform's rooms list words the parser answers "not needed" to.
    if (roomNamed) around.push(room);
    if (reply) namedByReply.push(...namedInReply(session, reply, new Set([room, ...around, ...held])));
    around.push(...namedByReply);
  }
  const seen = new Set<number>();
  const all: number[] = [];
  // The player last: "examine me", "hit myself" are commands too.
  for (const id of [...around, ...held, ...(player ? [player] : [])]) {
    if (seen.has(id) || (id === room && !roomNamed)) continue;
    seen.add(id);
    all.push(id);
  }
  return { all, held: held.filter((id) => id !== player), namedByReply };
}
