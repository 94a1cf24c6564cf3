/**
 * Things lost, under `valid`: a command after which carried things are gone and no listed command
 * names them again. Inhumane's explorer dropped two things in the desert ("It falls and is lost
 * forever in the sands"), then "drop all" there lost its torch, and the dark killed it; Zork I's
 * "put all in river" sent the lantern downstream. What a command dropped where it can be picked up
 * again is offered back by the list ("take torch"), so the list, not the reply's words, tells a
 * loss from a drop. Where the command put things somewhere (a drop, or a shape naming where:
 * "put $ in river"), the room and its shape with the carried things left out are remembered
 * (`room|shape`, in learned.losingMoves: "7|drop $", "12|put $ in river"), and no command of that
 * shape is made there again, in this episode or a later one; a shape naming where is not made
 * anywhere (Zork I's river runs past two beaches). What is eaten is gone too, but eating another
 * thing loses nothing more, so it is not remembered. And the light is kept: no risky command (a
 * throw, a blow) is made with the thing that lights the way, nor is it put out. Zork I's explorer,
 * with nothing else left in the studio, threw the egg with its lit lantern and smashed it; with
 * everything tried it put the lantern out; and walked into a grue each time.
 */
import type { GroundTruthData } from '../schemas/game';

type Place = GroundTruthData['location'];

/** Words of a thing's name that say nothing of which thing it is. */
const NOT_NAMES = new Set(['the', 'a', 'an', 'of', 'some', 'pair', 'set', 'piece']);
/** Commands that leave a thing where the player stands: a loss there says the place swallows things. */
const DROPPING = new Set(['drop $', 'put down $', 'put $ down', 'discard $', 'throw $', 'throw away $', 'toss $', 'leave $']);
/** A listed command that takes back whatever lies about: with it, nothing tells what is lost. */
const TAKING_ALL = /^(?:take|get|pick up|remove)\b.*\ball\b/;
/** Commands that put a light out. */
const PUTTING_OUT = /^(?:extinguish|turn off|switch off|blow out|put out|douse|unlight)\b/;
/** Words that stand for carried things in a command ("drop all", "drop two"). */
const FOR_THINGS = new Set([
  'all',
  'everything',
  'both',
  'it',
  'them',
  'two',
  'three',
  'four',
  'five',
  'six',
  'seven',
  'eight',
  'nine',
  'ten',
]);

const nameWords = (name: string) => (name.toLowerCase().match(/[a-z][a-z-]*[a-z]/g) ?? []).filter((word) => !NOT_NAMES.has(word));

/** What minding losses reads: where the player stands, the losing moves, what is carried and lit. */
export interface Losses {
  room: number;
  /** learned.losingMoves (`room|shape`). */
  losing: ReadonlySet<string>;
  /** The shapes of those that name where things went ("put $ in river"): losing anywhere. */
  losingAnywhere: ReadonlySet<string>;
  /** The names of the things carried. */
  carried: readonly string[];
  /** Of those, what this episode lit, lower case (see lighting.ts). */
  lit: readonly string[];
}

/** A command's shape with the carried things (and words standing for them) as `$`: "put all in river" → "put $ in river". */
export function lossShape(command: string, carried: readonly string[]): string {
  const things = new Set(carried.flatMap(nameWords));
  const words = command.trim().toLowerCase().split(/\s+/);
  const shaped = words.map((word) => (things.has(word) || FOR_THINGS.has(word) ? '$' : word));
  return shaped.filter((word, index) => word !== '$' || shaped[index - 1] !== '$').join(' ');
}

/** A shape that names where things go, after them ("put $ in river"). */
const namesWhere = (shape: string) => /\$ \S/.test(shape);

/** Whether a loss by a command of `shape` is remembered: it left things somewhere (see DROPPING), not ate them. */
export const placesThings = (shape: string) => DROPPING.has(shape) || namesWhere(shape);

/** The shapes of `losing` entries that name where things went (see Losses.losingAnywhere). */
export const losingAnywhere = (losing: readonly string[]) =>
  new Set(losing.map((entry) => entry.slice(entry.indexOf('|') + 1)).filter(namesWhere));

/** The key of a losing move in learned.losingMoves. */
export const lossAt = (room: number, command: string, carried: readonly string[]) => `${room}|${lossShape(command, carried)}`;

/**
 * The names of the things carried `before` and not `after` that no command of `listed` names by
 * any word of theirs: gone where they cannot be taken back. Empty without a list (the game ended,
 * a menu) or with one that offers to take all: nothing tells a loss then.
 */
export function lostThings(before: readonly Place[], after: readonly Place[], listed: readonly string[]): string[] {
  // "take all" may stand for taking back what was put down (the list names a group by one of its commands).
  if (listed.length === 0 || listed.some((command) => TAKING_ALL.test(command.toLowerCase()))) return [];
  const kept = new Set(after.map((thing) => thing.id));
  const words = new Set(listed.flatMap((command) => command.toLowerCase().split(/\s+/)));
  return before
    .filter((thing) => !kept.has(thing.id))
    .filter((thing) => !nameWords(thing.name).some((word) => words.has(word)))
    .map((thing) => thing.name);
}

/** Whether `command` would lose things here: of a shape that lost things here before, or anywhere where it names where. */
export function losesHere(losses: Losses, command: string): boolean {
  const shape = lossShape(command, losses.carried);
  return losses.losing.has(`${losses.room}|${shape}`) || losses.losingAnywhere.has(shape);
}

/** Whether `command` names a thing carried and lit (by every word of its name). */
function namesLit(losses: Losses, command: string): boolean {
  const words = new Set(command.toLowerCase().split(/\s+/));
  return losses.lit.some((thing) => nameWords(thing).every((word) => words.has(word)));
}

/** Whether `command` risks the light: a risky one (`risky`: a throw, a blow) made with it, or putting it out. */
export const risksLight = (losses: Losses, command: string, risky: boolean) =>
  (risky || PUTTING_OUT.test(command.trim().toLowerCase())) && namesLit(losses, command);
