/**
 * Commands whose outcome does not depend on the room, spent for the episode wherever they were
 * made (spentIn spends the rest room by room). Zork I's explorer under `valid`, once it carried
 * the brown sack, put the leaflet, the lantern and the bottle in it and took them out again in
 * every room it reached (each move makes the world state new, so each stayed untried), and waited
 * once in every room before walking back: some 30 of its last 40 turns.
 */
import { isMove } from './directions';
import { thingWordsOf } from './verbSpread';

/** The joining words of a command that puts one thing in or on another. */
const INTO = new Set(['in', 'into', 'on', 'onto', 'inside']);

/**
 * Ways of putting things into carried things (the sack, the nest, the egg), made anywhere, after
 * which that kind is spent: moving things between the hands and what they hold changes the world
 * state and nothing else, wherever it is done.
 */
export const SHUFFLES_SPENT_AFTER = 2;

/** Verbs whose one-word command does depend on where it is made (a look, the inventory, taking all). */
const ROOM_VERBS = /^(?:take|get|drop|put|open|close|look|l|examine|x|read|search|inventory|i|listen|smell)\b/;

/**
 * The kind of a command that puts something into a carried thing ("put _ in (carried)"), or
 * null: `carried` are the names of what the player holds, lower-case.
 */
export function shuffleKindOf(command: string, carried: readonly string[]): string | null {
  const words = command.trim().toLowerCase().split(/\s+/);
  const join = words.findIndex((word, index) => index >= 2 && index < words.length - 1 && INTO.has(word));
  if (join < 0) return null;
  const target = words.slice(join + 1).join(' ');
  const held = carried.some((name) => name === target || name.endsWith(` ${target}`));
  return held ? `${words[0]} _ ${words[join]} (carried)` : null;
}

/** A command with no thing named that is not a move and does not look at or handle the room ("wait", "pray", "sing"). */
export function isIdle(command: string): boolean {
  const text = command.trim().toLowerCase();
  return !isMove(text) && !ROOM_VERBS.test(text) && thingWordsOf(text).length === 0;
}

/**
 * What is spent everywhere, from the commands the episode made (`made`: `room|command` keys) and
 * what the player carries now: idle commands made once, and a kind of shuffle made
 * SHUFFLES_SPENT_AFTER ways (into whatever carried things).
 */
export function spentAnywhere(made: Readonly<Record<string, number>>, carried: readonly string[]): (command: string) => boolean {
  const names = carried.map((name) => name.toLowerCase());
  const idle = new Set<string>();
  const ways = new Map<string, number>();
  for (const entry of Object.keys(made)) {
    const command = entry.slice(entry.indexOf('|') + 1);
    if (isIdle(command)) idle.add(command);
    const kind = shuffleKindOf(command, names);
    if (kind) ways.set(kind, (ways.get(kind) ?? 0) + 1);
  }
  const kinds = new Set([...ways].filter(([, count]) => count >= SHUFFLES_SPENT_AFTER).map(([kind]) => kind));
  return (command) => idle.has(command) || (kinds.size > 0 && kinds.has(shuffleKindOf(command, names) ?? ''));
}
