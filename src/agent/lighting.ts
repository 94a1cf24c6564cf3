/**
 * A light before the dark, under `valid`: once the game has shown a dark room (this episode or an
 * earlier one, see `learned.darkRooms`), a listed command that lights something ("light brass
 * lantern", "turn on torch") goes before the other untried commands, and a thing the episode lit
 * is taken before anything else. Without it the explorer lit Zork I's lantern on the living-room
 * floor, left it there and went down the trap door: "You have moved into a dark place", then a
 * grue, episode after episode, or (with the moves there learned deadly) fifty turns of "again".
 * Which things give light is not known without the probe; what the list offers to light is.
 */
import { DARK } from './replyReading';

const LIGHT = /^(?:turn on|switch on|light|activate|ignite)\s+(.+?)(?:\s+(?:with|using|from)\s+.+)?$/;
const TAKE = /^(?:take|get|pick up)\s+(.+)$/;
const ALL = 'all';

/** What a command lights ("turn on brass lantern with sword": "brass lantern"), or null for any other command. */
export function litBy(command: string): string | null {
  return LIGHT.exec(command.trim().toLowerCase())?.[1] ?? null;
}

/** Whether a reply says the player stands in the dark. */
export const saysDark = (reply: string) => DARK.test(reply.toLowerCase());

export interface Lighting {
  /** The game has shown a dark room. */
  darkKnown: boolean;
  /** What this episode's commands lit. */
  lit: ReadonlySet<string>;
  /** The names of the things carried (the ground truth's). */
  carried: ReadonlySet<string>;
}

/**
 * Of the untried commands, those that go first: taking a thing this episode lit and left behind
 * (by name, else "take all": the list names a group by one of its commands, and "take all" stands
 * for "take brass lantern" when that is all there is to take), else (once a dark room is known)
 * lighting something. Empty when neither is listed.
 */
export function lightingFirst(untried: readonly string[], lighting: Lighting): string[] {
  const left = new Set([...lighting.lit].filter((thing) => !lighting.carried.has(thing)));
  if (left.size) {
    const taken = (command: string) => TAKE.exec(command.trim().toLowerCase())?.[1];
    const byName = untried.filter((command) => left.has(taken(command) ?? ''));
    if (byName.length) return byName;
    const all = untried.filter((command) => taken(command) === ALL);
    if (all.length) return all;
  }
  return lighting.darkKnown ? untried.filter((command) => litBy(command) !== null) : [];
}
