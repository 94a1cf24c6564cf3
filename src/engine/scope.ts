/**
 * The objects a command can name at the current state, found from the object tree: the location's
 * contents, what the player carries, and Infocom's globals where the room or its description
 * brings them into scope.
 */
import type { GameSession } from './session';
import { objectVocabulary } from './vocabulary';

/** Object numbers in a property's data: bytes up to version 3, words after (more than 255 objects). */
function objectList(session: GameSession, data: Uint8Array): number[] {
  const ids: number[] = [];
  if (session.story.version <= 3) ids.push(...data);
  else if (data.length % 2 === 0) for (let i = 0; i < data.length; i += 2) ids.push((data[i] << 8) | data[i + 1]);
  return ids.filter((id) => id !== 0);
}

/**
 * Infocom rooms list their "local globals" (a house seen from outside, a window, a forest) in a
 * property whose entries are objects that all live under one container other than the rooms'
 * own parent (ZIL's LOCAL-GLOBALS). Those are in scope in the room without being in its subtree.
 */
function localGlobals(session: GameSession, room: number): { ids: number[]; container: number } | null {
  const { objects, mem } = session;
  if (session.story.inform) return null;
  const roomParent = objects.parent(mem, room);
  for (const { data } of objects.properties(mem, room)) {
    const ids = objectList(session, data);
    if (ids.length === 0 || ids.some((id) => id > objects.count)) continue;
    const parent = objects.parent(mem, ids[0]);
    if (parent === 0 || parent === roomParent || ids.some((id) => objects.parent(mem, id) !== parent)) continue;
    return { ids, container: parent };
  }
  return null;
}

/** Words that stand for another object (ZIL's IT is a global object named "it" and "them"). */
const PRONOUNS = new Set(['it', 'them', 'him', 'her', 'me', 'myself', 'you', 'yourself', 'us', 'this', 'that', 'these', 'those']);

/**
 * ZIL keeps LOCAL-GLOBALS inside GLOBAL-OBJECTS, whose other children (a door, the ground, your
 * hands) the parser finds from every room. There are dozens, so only those the room's
 * description names are taken: what Jericho finds by reading "look" for nouns.
 */
function mentionedGlobals(session: GameSession, localContainer: number, description: string): number[] {
  const { objects, mem } = session;
  const globals = objects.parent(mem, localContainer);
  if (globals === 0) return [];
  const resolution = session.dictionary.resolution;
  const words = new Set(
    description
      .toLowerCase()
      .split(/[^a-z0-9'-]+/)
      .filter((w) => w && !PRONOUNS.has(w))
      .map((w) => w.slice(0, resolution)),
  );
  const named = (id: number) => objectVocabulary(session, id).nouns.some((noun) => words.has(noun));
  return objects.descendants(mem, globals, 1).filter((id) => id !== localContainer && named(id));
}

/** The room's description as "look" prints it; the session is left where it was. */
function lookText(session: GameSession): string {
  const state = session.captureState();
  try {
    return session.tryCommand('look');
  } catch {
    return '';
  } finally {
    session.restoreState(state);
  }
}

/**
 * Objects the player can plausibly refer to, in tree order: the location's contents (at any depth,
 * as Jericho takes them: a stud on a panel on a slab), its local globals and the globals its
 * description names, the inventory, then the player.
 */
export function scopeObjects(session: GameSession, depth = 8): { all: number[]; held: number[] } {
  const room = session.locationId;
  const player = session.player;
  const held = player ? session.objects.descendants(session.mem, player, depth) : [];
  const around: number[] = [];
  if (room) {
    around.push(...session.objects.descendants(session.mem, room, depth));
    const local = localGlobals(session, room);
    if (local) around.push(...local.ids, ...mentionedGlobals(session, local.container, lookText(session)));
  }
  const seen = new Set<number>();
  const all: number[] = [];
  // The player last: "examine me", "hit myself" are commands too.
  for (const id of [...around, ...held, ...(player ? [player] : [])]) {
    if (id === room || seen.has(id)) continue;
    seen.add(id);
    all.push(id);
  }
  return { all, held: held.filter((id) => id !== player) };
}
