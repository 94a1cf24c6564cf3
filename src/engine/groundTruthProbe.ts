/**
 * Ground truth for a story grue has no binding for, found by experiment rather than by name.
 *
 * A binding tells grue which object is the player and which objects and attributes change on
 * their own (a wandering thief, a flag the parser flips while it reads). Without one, the player
 * used to be guessed by its printed name, and in Zork I that picks "you" (a global object) rather
 * than the adventurer: the inventory stayed empty and the daemons' and parser's scratch changes
 * looked like effects, so rejected commands were offered as valid actions.
 *
 * So, from the story's opening state (every command is undone before the next):
 * - Commands that change nothing by definition — looking, the inventory, a word the dictionary
 *   lacks, examining or failing to take what is in the room — show what changes on its own.
 *   Objects that move on two or more of them are daemons (ignored, as Jericho's bindings do);
 *   an object's attribute that flips on two or more is scratch, and an attribute that is scratch
 *   on two or more objects is scratch everywhere.
 * - Compass moves: the object that moves on every move that goes anywhere is the player (what it
 *   carries moves with it, not in the tree). Taking things confirms it: a taken object's new
 *   parent is the player. Where no move or take works from the opening, the name guess stays.
 *
 * Everything runs from one state with the RNG restored each time, so every session on the same
 * story (probe threads included) finds the same answer.
 */
import type { WorldMask } from './objects';
import type { GameSession } from './session';
import { nounPhrases } from './vocabulary';

export interface GroundTruthProbe {
  /** The player object, or undefined when no experiment told it apart. */
  playerObject?: number;
  /** How the player was found: it moved on every compass move, it received what was taken, or neither worked. */
  playerFoundBy: 'movement' | 'take' | 'none';
  /** Objects that move on commands that change nothing (daemons). */
  ignoreObjects: number[];
  /** Attributes that flip on commands that change nothing, on several objects. */
  ignoreAttributes: number[];
  /** [object, attribute] pairs that flip on commands that change nothing. */
  ignoreObjectAttributes: Array<[number, number]>;
  /** Commands run to find all this. */
  commandsTried: number;
}

const COMPASS = ['n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw', 'u', 'd', 'in', 'out'];
/** Commands that report and never act, in every library grue has met. */
const REPORTS = ['look', 'inventory'];
/** Seen this many times on commands that change nothing, a change is the game's own, not the command's. */
const REPEATS = 2;

const NOTHING_IGNORED: WorldMask = { ignoreObjects: new Set(), ignoreAttributes: new Set(), ignoreObjectAttributes: [] };

interface RawChange {
  moved: Map<number, number>;
  flipped: Array<[number, number]>;
}

export function probeGroundTruth(target: GameSession): GroundTruthProbe {
  const start = target.captureState();
  const before = target.objects.worldState(target.mem, 0, NOTHING_IGNORED);
  let commandsTried = 0;

  /** Run a command from the opening state and report what it moved (to where) and which attribute bits flipped. */
  const run = (...commands: string[]): RawChange | null => {
    commandsTried += commands.length;
    try {
      target.restoreState(start);
      for (const command of commands) target.tryCommand(command);
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
      return { moved, flipped };
    } catch {
      // A command that faults or ends the game tells us nothing about the opening state.
      return null;
    } finally {
      try {
        target.restoreState(start);
      } catch {
        // The opening state was captured from this very VM; if it cannot come back the caller's next restore reports it.
      }
    }
  };

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
  for (const command of [...REPORTS, ...(nonsense ? [nonsense] : [])]) if (target.dictionary.has(command) || command === nonsense) noteNothingCommand(run(command));
  const daemonsSoFar = () => new Set([...objectMoves].filter(([, n]) => n >= REPEATS).map(([id]) => id));

  // The player: whatever moves on every compass move that goes anywhere.
  let movers: Set<number> | undefined;
  for (const direction of COMPASS) {
    if (!target.dictionary.has(direction)) continue;
    const change = run(direction);
    if (!change) continue;
    const daemons = daemonsSoFar();
    const moved = [...change.moved.keys()].filter((id) => !daemons.has(id));
    if (moved.length === 0) continue;
    movers = movers ? new Set(moved.filter((id) => movers!.has(id))) : new Set(moved);
  }

  // The room, for what to examine and take: where a lone mover stands, else the location global
  // (v3 and Inform games keep it in global 0).
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
      target.restoreState(start);
    }
  }

  let playerObject: number | undefined;
  let playerFoundBy: GroundTruthProbe['playerFoundBy'] = 'none';
  const byReceived = (ids: number[]) => ids.sort((a, b) => (receivers.get(b) ?? 0) - (receivers.get(a) ?? 0) || a - b);
  if (movers?.size) {
    playerObject = byReceived([...movers])[0];
    playerFoundBy = 'movement';
  } else if (receivers.size) {
    playerObject = byReceived([...receivers.keys()])[0];
    playerFoundBy = 'take';
  }

  const ignoreObjects = [...daemonsSoFar()].filter((id) => id !== playerObject).sort((a, b) => a - b);
  const scratchPairs = [...pairFlips].filter(([, n]) => n >= REPEATS).map(([key]) => key.split('.').map(Number) as [number, number]);
  const objectsPerAttribute = new Map<number, number>();
  for (const [, attribute] of scratchPairs) objectsPerAttribute.set(attribute, (objectsPerAttribute.get(attribute) ?? 0) + 1);
  const ignoreAttributes = [...objectsPerAttribute].filter(([, n]) => n >= REPEATS).map(([a]) => a).sort((a, b) => a - b);
  const ignoreObjectAttributes = scratchPairs.filter(([, attribute]) => !ignoreAttributes.includes(attribute)).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
  return { playerObject, playerFoundBy, ignoreObjects, ignoreAttributes, ignoreObjectAttributes, commandsTried };
}

function locationGlobal(target: GameSession): number | undefined {
  const value = (target.mem[target.story.globals] << 8) | target.mem[target.story.globals + 1];
  return value > 0 && value <= target.objects.count ? value : undefined;
}
