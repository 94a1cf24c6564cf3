/**
 * A light before the dark, under `valid`: once the game has shown a dark room (this episode or an
 * earlier one, see `learned.darkRooms`) or, with `heedsDarkAhead`, told of a way into one ("a rickety
 * staircase descending into darkness"), a listed command that lights something ("light brass
 * lantern", "turn on torch") goes before the other untried commands, and a thing the episode lit
 * is taken before anything else. Without it the explorer lit Zork I's lantern on the living-room
 * floor, left it there and went down the trap door: "You have moved into a dark place", then a
 * grue, episode after episode, or (with the moves there learned deadly) fifty turns of "again".
 * Which things give light is not known without the probe; what the list offers to light is.
 */
const LIGHT = /^(?:turn on|switch on|light|activate|ignite)\s+(.+?)(?:\s+(?:with|using|from)\s+.+)?$/;
const TAKE = /^(?:take|get|pick up)\s+(.+)$/;
/**
 * A reply saying something now gives light ("The brass lantern is now on.", Inform's "You switch
 * the lamp on."). The list also offers lighting what cannot be lit where the parser touched it on
 * the way (Cutthroat's "turn on note": "You can't turn that on."): that lights nothing.
 */
const LIT_REPLY =
  /\b(?:is now (?:on|lit|burning|glowing|shining)|you (?:switch|turn) (?:[a-z'-]+ ){1,4}on\b|(?:is|are) (?:now )?(?:lit|alight|burning)\b|(?:lights?|flares?|glows?|shines?) (?:up|brightly)|begins? to (?:glow|shine|burn))/;
const ALL = 'all';

/** What a command lights ("turn on brass lantern with sword": "brass lantern"), or null for any other command. */
export function litBy(command: string): string | null {
  return LIGHT.exec(command.trim().toLowerCase())?.[1] ?? null;
}

/** What a command takes ("pick up brass lantern": "brass lantern"), or null for any other command. */
export function takenBy(command: string): string | null {
  return TAKE.exec(command.trim().toLowerCase())?.[1] ?? null;
}

/** What a command lit, given its reply: null unless it is a lighting command and the reply says it worked. */
export function litThing(command: string, reply: string): string | null {
  const thing = litBy(command);
  return thing !== null && LIT_REPLY.test(reply.toLowerCase()) ? thing : null;
}

export interface Lighting {
  /** The game has shown a dark room, or (with `heedsDarkAhead`) told of a way into one. */
  darkKnown: boolean;
  /** What this episode's commands lit (the reply said so). */
  lit: ReadonlySet<string>;
  /** What this episode's commands tried to light, lit or not: tried first once at most. */
  triedToLight: ReadonlySet<string>;
  /** The names of the things carried (the ground truth's). */
  carried: ReadonlySet<string>;
}

/**
 * Of the untried commands, those that go first: taking a thing this episode lit and left behind
 * (by name, else "take all": the list names a group by one of its commands, and "take all" stands
 * for "take brass lantern" when that is all there is to take), else (once a dark room is known)
 * lighting something not yet tried this episode. Empty when neither is listed.
 */
export function lightingFirst(untried: readonly string[], lighting: Lighting): string[] {
  const left = new Set([...lighting.lit].filter((thing) => !lighting.carried.has(thing)));
  if (left.size) {
    const byName = untried.filter((command) => left.has(takenBy(command) ?? ''));
    if (byName.length) return byName;
    const all = untried.filter((command) => takenBy(command) === ALL);
    if (all.length) return all;
  }
  if (!lighting.darkKnown) return [];
  return untried.filter((command) => {
    const thing = litBy(command);
    return thing !== null && !lighting.triedToLight.has(thing);
  });
}
