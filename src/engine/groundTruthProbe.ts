/**
 * Ground truth for a story grue has no binding for, found by experiment rather than by name.
 *
 * A binding tells grue which object is the player, where the score lives and which objects and
 * attributes change on their own (a wandering thief, a flag the parser flips while it reads).
 * Without one, the player used to be guessed by its printed name, and in Zork I that picks "you"
 * (a global object) rather than the adventurer: the inventory stayed empty and the daemons' and
 * parser's scratch changes looked like effects, so rejected commands were offered as valid actions.
 *
 * So, from the story's opening (past a title screen that waits for a key, and a yes/no question the
 * game keeps asking), with every command undone before the next:
 * - Commands that change nothing by definition — looking, the inventory, a word the dictionary
 *   lacks, examining or failing to take what is in the room — show what changes on its own.
 *   Objects that move on two or more of them are daemons (ignored, as Jericho's bindings do);
 *   an object's attribute that flips on two or more is scratch, and an attribute that is scratch
 *   on two or more objects is scratch everywhere.
 * - The player: the object that moves on every compass move that goes anywhere (what it carries
 *   moves with it, not in the tree). Taking things confirms it: a taken object's new parent is the
 *   player. Several objects may travel with it (scenery the game carries along): the one a take
 *   lands in wins, then the one a global variable points at (Inform's `player`, Infocom's WINNER),
 *   then one named like a player. Where nothing moves or can be taken, the object whose children
 *   the INVENTORY command lists is the player, or the one DROP ALL drops things from onto the
 *   floor; where that fails too, the name guess stays.
 * - Score and moves, where the standard does not place them (v4+ games, v3 games whose status line
 *   shows the time): the globals the SCORE command prints, found by setting candidate globals to
 *   marker values and reading which marker the command reports, and where in its sentence.
 *
 * Everything runs from one state with the RNG restored each time, so every session on the same
 * story (probe threads included) finds the same answer.
 */
import { type GroundTruthProbe, SELF_NAMES } from './groundTruth';

export type { GroundTruthProbe } from './groundTruth';
import type { WorldMask } from './objects';
import type { SessionView } from './sessionView';
import type { VmState } from './vmState';
import { findScoreGlobals, findTurnCounter, needsScoreSearch } from './scoreProbe';
import { nounPhrases } from './vocabulary';

const COMPASS = ['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw', 'u', 'd', 'in', 'out'];
/** Tried when no compass move goes anywhere: the player may start in a bed or a cot. */
const GET_UP = ['get up', 'stand up', 'stand'];
/** Commands that report and never act, in every library grue has met. */
const REPORTS = ['look', 'inventory'];
/** Seen this many times on commands that change nothing, a change is the game's own, not the command's. */
const REPEATS = 2;
/** Key presses, questions and title lines before the game proper (Anchorhead asks for three keys). */
const MAX_INTRO_STEPS = 6;
/** The banner a story prints once, when the game proper starts. */
const STORY_BANNER = /serial number|\bcopyright\b|\brelease \d/i;

const NOTHING_IGNORED: WorldMask = { ignoreObjects: new Set(), ignoreAttributes: new Set(), ignoreObjectAttributes: [] };

interface RawChange {
  moved: Map<number, number>;
  flipped: Array<[number, number]>;
  /** The game's response to the last command. */
  text: string;
}

export function probeGroundTruth(target: SessionView): GroundTruthProbe {
  const opening = target.captureState();
  let commandsTried = 0;
  let start: VmState = opening;

  /** Run commands from the start state; the response to the last, or null when one faults or ends the game. */
  const respond = (commands: string[]): string | null => {
    commandsTried += commands.length;
    try {
      target.restoreState(start);
      let text = '';
      for (const command of commands) text = target.tryCommand(command);
      return text;
    } catch {
      // A command that faults or ends the game tells us nothing about the opening state.
      return null;
    }
  };

  try {
    try {
      start = pastTheTitle(target);
    } catch {
      // A title screen that faults or ends on a key press: experiment from the opening itself.
      target.restoreState(opening);
    }
    const before = target.objects.worldState(target.mem, 0, NOTHING_IGNORED);
    /** Run commands from the start and report what they moved (to where) and which attribute bits flipped. */
    const run = (...commands: string[]): RawChange | null => {
      const text = respond(commands);
      if (text === null) return null;
      const after = target.objects.worldState(target.mem, 0, NOTHING_IGNORED);
      const moved = new Map<number, number>();
      for (let id = 1; id < before.parents.length; id++) if (before.parents[id] !== after.parents[id]) moved.set(id, after.parents[id]);
      const flipped: Array<[number, number]> = [];
      for (let i = 0; i < before.attrs.length; i++) {
        const changed = before.attrs[i] ^ after.attrs[i];
        for (let bit = 0; changed && bit < 8; bit++) {
          if (changed & (0x80 >> bit)) flipped.push([Math.floor(i / before.attrBytes) + 1, (i % before.attrBytes) * 8 + bit]);
        }
      }
      return { moved, flipped, text };
    };
    const found = findPlayerAndDaemons(target, run, respond, start, before.parents);
    const numbers = needsScoreSearch(target) ? findScoreGlobals(target, start) : {};
    if (needsScoreSearch(target) && !numbers.moves) numbers.moves = findTurnCounter(target, start);
    return { ...found, ...numbers, commandsTried };
  } finally {
    try {
      target.restoreState(opening);
    } catch {
      // The opening state was captured from this very VM; if it cannot come back the caller's next restore reports it.
    }
  }
}

type Respond = (commands: string[]) => string | null;

/**
 * The state the game proper starts from: past a title screen waiting for a key, and past a
 * question the game asks again whatever it is told ("Would you like the tutorial?"), answered no.
 */
function pastTheTitle(target: SessionView): VmState {
  for (let step = 0; step < MAX_INTRO_STEPS; step++) {
    if (target.captureState().input?.type === 'char') {
      target.tryCommand('');
      continue;
    }
    if (!target.dictionary.has('look')) break;
    const titled = target.captureState();
    const here = locationGlobal(target);
    const looked = target.tryCommand('look').trim();
    // The line typed only ended the title: the story starts here (its location set, its banner shown).
    if (here !== locationGlobal(target) || STORY_BANNER.test(looked)) continue;
    target.restoreState(titled);
    const question = /\?\s*>?$/.test(looked) || /\byes or no\b/i.test(looked);
    if (!question || !target.dictionary.has('no')) break;
    target.tryCommand('no');
  }
  return target.captureState();
}

function findPlayerAndDaemons(
  target: SessionView,
  run: (...commands: string[]) => RawChange | null,
  respond: Respond,
  start: VmState,
  startParents: Uint16Array,
) {
  const objectMoves = new Map<number, number>();
  const pairFlips = new Map<string, number>();
  const noteNothingCommand = (change: RawChange | null, exceptObject?: number) => {
    if (!change) return;
    for (const id of change.moved.keys()) if (id !== exceptObject) objectMoves.set(id, (objectMoves.get(id) ?? 0) + 1);
    for (const [object, attribute] of change.flipped) {
      const key = `${object}.${attribute}`;
      pairFlips.set(key, (pairFlips.get(key) ?? 0) + 1);
    }
  };

  const nonsense = ['qzxv', 'zqxj', 'xqzw'].find((w) => !target.dictionary.has(w));
  for (const command of [...REPORTS, ...(nonsense ? [nonsense] : [])]) {
    if (target.dictionary.has(command) || command === nonsense) noteNothingCommand(run(command));
  }
  const daemonsSoFar = () => new Set([...objectMoves].filter(([, n]) => n >= REPEATS).map(([id]) => id));

  // The player: whatever moves on every compass move that goes somewhere: to another room by the
  // location global where a move changes it (v3 games, Inform's `location`), else to an object the
  // response names on a line of its own, as games head a new room's description. Not a watch a
  // passer-by takes while the player lies on the floor.
  const here = locationGlobal(target);
  const trips: Trip[] = [];
  for (const direction of COMPASS) {
    if (!target.dictionary.has(direction)) continue;
    const change = run(direction);
    if (change) trips.push({ ...change, there: locationGlobal(target) });
  }
  const tracked = trips.some((trip) => trip.there !== undefined && trip.there !== here);
  const arrived = (trip: Trip) => (tracked ? trip.there !== here : true);
  const landed = (trip: Trip, to: number) =>
    tracked ? to === trip.there : headsResponse(target, to, trip.text) || isNamelessRoom(target, to);
  let movers = commonMovers(daemonsSoFar(), trips.filter(arrived), landed);
  // No way out of the first room: the player may start in a bed or a cot, and get up out of it.
  const outOf = (from: number, to: number) => {
    for (let at = startParents[from], depth = 0; at && depth < 16; at = startParents[at], depth++) if (at === to) return true;
    return false;
  };
  for (const command of GET_UP) {
    if (movers?.size || !command.split(' ').every((word) => target.dictionary.has(word))) continue;
    const change = run(command);
    if (change) movers = commonMovers(daemonsSoFar(), [change], (_, to, id) => outOf(id, to));
  }

  // The room, for what to examine and take: where a lone mover stands, else the location global
  // (v3 and Inform games keep it in global 0).
  target.restoreState(start);
  const lone = movers?.size === 1 ? [...movers][0] : undefined;
  const room = lone ? target.objects.parent(target.mem, lone) : locationGlobal(target);
  const inRoom = room ? target.objects.descendants(target.mem, room, 2).filter((id) => !movers?.has(id)) : [];
  const phrases = nounPhrases(target, inRoom);

  const receivers = new Map<number, number>();
  const tryTake = (id: number, phrase: string, first: string[]) => {
    const take = run(...first, `take ${phrase}`);
    const to = take?.moved.get(id);
    if (to !== undefined && to !== room) receivers.set(to, (receivers.get(to) ?? 0) + 1);
    // A take that moved nothing was refused: the rest of what it changed is the game's own doing.
    else if (take && to === undefined && first.length === 0) noteNothingCommand(take);
  };
  for (const [id, phrase] of phrases) {
    noteNothingCommand(run(`examine ${phrase}`));
    tryTake(id, phrase, []);
  }
  // Nothing to take in the open: look inside what opens (a closed chest on the shore).
  if (!movers?.size && receivers.size === 0) {
    for (const [id, phrase] of phrases) {
      const opened = run(`open ${phrase}`);
      if (!opened?.flipped.some(([object]) => object === id)) continue;
      target.restoreState(start);
      target.tryCommand(`open ${phrase}`);
      const inside = target.objects.descendants(target.mem, id, 1);
      for (const [child, childPhrase] of nounPhrases(target, inside)) tryTake(child, childPhrase, [`open ${phrase}`]);
    }
  }

  target.restoreState(start);
  const pointedAt = globalValues(target);
  const rank = (ids: number[]) =>
    ids.sort(
      (a, b) =>
        (receivers.get(b) ?? 0) - (receivers.get(a) ?? 0) ||
        Number(pointedAt.has(b)) - Number(pointedAt.has(a)) ||
        Number(SELF_NAMES.test(target.objects.name(target.mem, b))) - Number(SELF_NAMES.test(target.objects.name(target.mem, a))) ||
        a - b,
    );
  let playerObject: number | undefined;
  let playerFoundBy: GroundTruthProbe['playerFoundBy'] = 'none';
  if (movers?.size) {
    playerObject = rank([...movers])[0];
    playerFoundBy = 'movement';
  } else if (receivers.size) {
    playerObject = rank([...receivers.keys()])[0];
    playerFoundBy = 'take';
  } else {
    // What the game lists as carried, or drops from the player's hands to the floor.
    const listing = target.dictionary.has('inventory') ? respond(['inventory']) : null;
    target.restoreState(start);
    playerObject = holderListedBy(target, listing, rank);
    if (playerObject) playerFoundBy = 'inventory';
    else if (target.dictionary.has('drop') && target.dictionary.has('all')) {
      const dropped = new Map<number, number>();
      for (const [id, to] of run('drop all')?.moved ?? []) {
        // Onto the floor where the holder stands, or onto something there (a table the game puts it on).
        const from = startParents[id];
        if (from && (to === startParents[from] || startParents[to] === startParents[from])) dropped.set(from, (dropped.get(from) ?? 0) + 1);
      }
      const most = Math.max(0, ...dropped.values());
      playerObject = rank([...dropped].filter(([, n]) => n === most).map(([id]) => id))[0];
      if (playerObject) playerFoundBy = 'drop';
    }
  }

  const ignoreObjects = [...daemonsSoFar()].filter((id) => id !== playerObject).sort((a, b) => a - b);
  const scratchPairs = [...pairFlips].filter(([, n]) => n >= REPEATS).map(([key]) => key.split('.').map(Number) as [number, number]);
  const objectsPerAttribute = new Map<number, number>();
  for (const [, attribute] of scratchPairs) objectsPerAttribute.set(attribute, (objectsPerAttribute.get(attribute) ?? 0) + 1);
  const ignoreAttributes = [...objectsPerAttribute]
    .filter(([, n]) => n >= REPEATS)
    .map(([a]) => a)
    .sort((a, b) => a - b);
  const ignoreObjectAttributes = scratchPairs
    .filter(([, attribute]) => !ignoreAttributes.includes(attribute))
    .sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { playerObject, playerFoundBy, ignoreObjects, ignoreAttributes, ignoreObjectAttributes };
}

interface Trip extends RawChange {
  /** The location global after the command, when it holds an object. */
  there?: number;
}

/** Objects that moved on every trip, to where the trip went. */
function commonMovers(daemons: Set<number>, trips: Trip[], landed: (trip: Trip, to: number, id: number) => boolean) {
  let movers: Set<number> | undefined;
  for (const trip of trips) {
    const arrivals = [...trip.moved].filter(([id, to]) => !daemons.has(id) && landed(trip, to, id)).map(([id]) => id);
    if (arrivals.length) movers = movers ? new Set(arrivals.filter((id) => movers!.has(id))) : new Set(arrivals);
  }
  return movers;
}

/** The response has a line that is just the object's name: the heading of a room's description. */
function headsResponse(target: SessionView, id: number, text: string): boolean {
  const name = target.objects.name(target.mem, id).trim().toLowerCase();
  return !!name && text.split('\n').some((line) => line.trim().toLowerCase() === name);
}

/** A room whose name the game prints from code (Inform 7's printed names): no short name, no parent. */
function isNamelessRoom(target: SessionView, id: number): boolean {
  return !target.objects.name(target.mem, id).trim() && !target.objects.parent(target.mem, id);
}

/**
 * The object whose children the INVENTORY command lists: every child's name appears in the
 * response, and the most children do (a pig farmer's torch and pants, not a room's one torch).
 */
function holderListedBy(target: SessionView, response: string | null, rank: (ids: number[]) => number[]): number | undefined {
  if (!response) return undefined;
  const text = ` ${response.toLowerCase().replace(/[^a-z0-9']+/g, ' ')} `;
  const { objects, mem } = target;
  const here = locationGlobal(target);
  const listed = new Map<number, number>();
  for (let id = 1; id <= objects.count; id++) {
    const children = objects.children(mem, id);
    const names = children.map((child) =>
      objects
        .name(mem, child)
        .toLowerCase()
        .replace(/[^a-z0-9']+/g, ' ')
        .trim(),
    );
    if (!names.length || !names.every((name) => name.length > 2 && text.includes(` ${name} `))) continue;
    // The player stands somewhere in the room the game says it is in.
    if (here === undefined || isInside(target, id, here)) listed.set(id, names.length);
  }
  const most = Math.max(0, ...listed.values());
  return rank([...listed].filter(([, n]) => n === most).map(([id]) => id))[0];
}

function isInside(target: SessionView, id: number, ancestor: number): boolean {
  let at = target.objects.parent(target.mem, id);
  for (let depth = 0; at && depth < 16; depth++, at = target.objects.parent(target.mem, at)) if (at === ancestor) return true;
  return false;
}

/** Object numbers some global variable holds (Inform's `player`, Infocom's WINNER and PLAYER among them). */
function globalValues(target: SessionView): Set<number> {
  const values = new Set<number>();
  for (let i = 0; i < 240; i++) {
    const value = (target.mem[target.story.globals + 2 * i] << 8) | target.mem[target.story.globals + 2 * i + 1];
    if (value > 0 && value <= target.objects.count) values.add(value);
  }
  return values;
}

function locationGlobal(target: SessionView): number | undefined {
  const value = (target.mem[target.story.globals] << 8) | target.mem[target.story.globals + 1];
  return value > 0 && value <= target.objects.count ? value : undefined;
}
