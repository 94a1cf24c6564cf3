/**
 * When a command is spent in a room: made there so often, or of a kind made there so many ways, or
 * in a room that has tired, that the explorer tries it only once nothing unspent is left (see
 * nextUntried). Read from the episode's `made` counts; each rule is set from its patch.
 */
import { isUndoing, type SpentCommands } from './cells';
import { isMove } from './directions';
import { keepNewest } from './newest';
import { spentAnywhere } from './spentAnywhere';
import { type AgentState, LIMITS } from './state';
import { pairKindOf, thingWordsOf, verbOf } from './verbSpread';

/** The commands this episode made in a room. */
export function doneIn(state: AgentState, room: number): Set<string> {
  const prefix = `${room}|`;
  return new Set(state.done.filter((entry) => entry.startsWith(prefix)).map((entry) => entry.slice(prefix.length)));
}

/**
 * A command made this many times in one room is spent there, whatever the world state: a game
 * whose clock or counters change every turn makes each state new, so "untried from this state"
 * alone lets the explorer repeat one command all game (acorncourt: "take acorn from self" 31
 * times in a row; 9:05: "look under bed" 14 times).
 */
export const SPENT_AFTER = 3;

/**
 * A kind of two-thing command made this many ways in one room is spent there. Two carried things
 * and three containers make a dozen "put X in Y" and "push X to Y", and every thing moved makes
 * the world state new, so each stays untried: karn's explorer moved its things between toolkit,
 * pouch and slot for 60 of 100 turns in its first room, never leaving it.
 */
export const PAIRS_SPENT_AFTER = 3;

/**
 * A room where the episode made this many commands tires: a command there whose verb was used
 * there and that names only things already named there is spent. Taking and dropping things one
 * at a time makes each state new, as moving them between containers did (temple's explorer, its
 * pairs spent, took and dropped its things for 40 turns in one room). A thing brought in since (a
 * treasure for the case, a key for the door) is new, so its commands are not; nor a verb new there
 * (snacktime's "kiss pet" after pushing and pulling it); nor are moves. With `triesNewPairings`,
 * nor are things never named together there: snacktime's explorer gave the pet a sock and took the
 * can in the sitting room, and "give pet can", which scores, was spent before it was tried.
 * With `undoingNamesNothing`, a thing named there only by undoing commands (isUndoing) is not yet
 * named: 9:05's explorer closed the bedroom door in the tired bedroom, and "open door" was spent
 * ("open" used on the dresser, "door" named by closing it), so the way east stayed shut.
 */
export const ROOM_TIRES_AFTER = 15;

/**
 * The commands spent in `room`: made SPENT_AFTER times or more there; with `spendsMoves` a move
 * (isMove) made there once; with `spendsPairs` every command of a two-thing kind (pairKindOf)
 * made PAIRS_SPENT_AFTER distinct ways there. A move leads where it led the first time, whatever
 * else changed since: every item taken makes each world state new, so untried-from-this-state
 * sent Zork I's explorer round the forest's exits again after each find (60 of 100 turns
 * outdoors). A move that is not made from the room now is not listed, so a door opened since
 * brings its way back as new. With `tiresRooms`, a room tires (ROOM_TIRES_AFTER). With
 * `spendsEchoes`, a command answered with an echo is spent everywhere (see echoes.ts).
 */
export function spentIn(
  state: Pick<AgentState, 'made'> &
    Partial<
      Pick<
        AgentState,
        | 'spendsMoves'
        | 'spendsPairs'
        | 'tiresRooms'
        | 'triesNewPairings'
        | 'undoingNamesNothing'
        | 'spendsAnywhere'
        | 'spendsEchoes'
        | 'echoes'
      >
    >,
  room: number,
  carried: readonly string[] = [],
): SpentCommands {
  const prefix = `${room}|`;
  const commands = new Set<string>();
  const waysOfKind = new Map<string, number>();
  const madeHere: string[] = [];
  let timesMadeHere = 0;
  for (const [entry, count] of Object.entries(state.made)) {
    if (!entry.startsWith(prefix)) continue;
    const command = entry.slice(prefix.length);
    madeHere.push(command);
    timesMadeHere += count;
    if (count >= SPENT_AFTER || (state.spendsMoves && isMove(command))) commands.add(command);
    const kind = state.spendsPairs ? pairKindOf(command) : null;
    if (kind) waysOfKind.set(kind, (waysOfKind.get(kind) ?? 0) + 1);
  }
  const kinds = new Set([...waysOfKind].filter(([, ways]) => ways >= PAIRS_SPENT_AFTER).map(([kind]) => kind));
  const isTired = Boolean(state.tiresRooms) && timesMadeHere >= ROOM_TIRES_AFTER;
  const thingsOfMade = isTired ? madeHere.map((made) => new Set(thingWordsOf(made))) : [];
  const naming = thingsOfMade.filter((_, index) => !state.undoingNamesNothing || !isUndoing(madeHere[index]));
  const named = new Set(naming.flatMap((things) => [...things]));
  const verbs = new Set(isTired ? madeHere.map(verbOf) : []);
  const namedTogether = (words: string[]) => words.length < 2 || thingsOfMade.some((things) => words.every((word) => things.has(word)));
  const tired = (command: string) => {
    if (!isTired || isMove(command) || !verbs.has(verbOf(command))) return false;
    const things = thingWordsOf(command);
    return things.every((word) => named.has(word)) && (!state.triesNewPairings || namedTogether(things));
  };
  const everywhere = state.spendsAnywhere ? spentAnywhere(state.made, carried) : () => false;
  const echoed = new Set(state.spendsEchoes ? (state.echoes?.spent ?? []) : []);
  return {
    has: (command) =>
      commands.has(command) ||
      (kinds.size > 0 && kinds.has(pairKindOf(command) ?? '')) ||
      tired(command) ||
      everywhere(command) ||
      (echoed.size > 0 && echoed.has(command.trim().toLowerCase())),
    tired: isTired,
  };
}

/** The names of what the player carries, as spentIn reads them. */
export const carriedNames = (state: Pick<AgentState, 'truth'>) => state.truth.inventory.map((item) => item.name);

/** `made` after one more `command` in `room` (the newest entries kept). */
export function countMade(made: Record<string, number>, room: number, command: string): Record<string, number> {
  const key = `${room}|${command}`;
  const { [key]: count = 0, ...others } = made;
  return keepNewest({ ...others, [key]: count + 1 }, LIMITS.done);
}
