/**
 * Ground truth read from a running game's memory: score, moves, location, inventory and what
 * holds the player. A binding (per-game facts, kept as data) says where each lives; without one,
 * v3 games follow the standard's status-line globals and other games are read as well as the
 * status line and the probe's experiments on the opening allow (see bindings.ts for the modes).
 */
import type { GameBinding, GroundTruthMode, NumberSource } from './bindings';
import type { CellIds } from '../schemas/game';
import type { ObjectTable } from './objects';
import type { StoryInfo } from './story';

export interface Place {
  id: number;
  name: string;
}

export interface GroundTruthProbe {
  /** The player object, or undefined when no experiment told it apart. */
  playerObject?: number;
  /** How the player was found: it moved on every compass move, received what was taken, held what INVENTORY lists, or DROP ALL dropped. */
  playerFoundBy: 'movement' | 'take' | 'inventory' | 'drop' | 'none';
  /** Objects that move on commands that change nothing (daemons). */
  ignoreObjects: number[];
  /** Attributes that flip on commands that change nothing, on several objects. */
  ignoreAttributes: number[];
  /** [object, attribute] pairs that flip on commands that change nothing. */
  ignoreObjectAttributes: Array<[number, number]>;
  /** The global the SCORE command prints as the score, when the standard's status line does not hold it. */
  score?: NumberSource;
  /** The global the SCORE command prints as the moves or turns taken. */
  moves?: NumberSource;
  /** Commands run from the opening to find the player and what changes on its own (the score search runs more on a scratch copy). */
  commandsTried: number;
}

export interface GroundTruth {
  score: number;
  moves: number;
  location: Place;
  /** What the player is inside of or on, within the location (a bed, a car, a boat); absent when standing in the room itself. */
  within?: Place;
  inventory: Place[];
  done: boolean;
  victory: boolean;
  died: boolean;
  /** The game asked its final question (finalQuestion.ts): nothing typed now is a move. Absent until then. */
  ended?: true;
}

/** What the reader needs from the session: live memory, the story's tables and what the screen shows. */
export interface GroundTruthSource {
  readonly mem: Uint8Array;
  readonly story: StoryInfo;
  readonly objects: ObjectTable;
  readonly binding: GameBinding | undefined;
  readonly groundTruthMode: GroundTruthMode;
  readonly groundTruthProbe: GroundTruthProbe | undefined;
  readonly statusLine: string;
  readonly victory: boolean;
}

/** How a status line labels the score and the moves ("Score: 5  Moves: 12", "Turns: 3"). */
const STATUS_SCORE = /score:?\s*(-?\d+)/i;
const STATUS_MOVES = /(?:moves|turns):?\s*(\d+)/i;
/** Names the Inform library and Infocom give the player object. */
export const SELF_NAMES = /^(yourself|you|self|player|cretin|adventurer|\(self object\))$/i;
/** More children than this in an object with no parent: a folder of rooms (Infocom's ROOMS), not a room. */
export const ROOM_FOLDER = 24;
/** Deeper than any containment the reader climbs (a player in a chair on a boat in a room). */
const MAX_DEPTH = 16;

/** What the game shows: its status line, and whether it has printed its victory text. */
export interface Screen {
  statusLine: string;
  victory: boolean;
}

/** Read a number from memory or the screen as a binding or the probe describes it. */
export function readNumber(source: NumberSource, mem: Uint8Array, globals: number, screen: Screen): number {
  switch (source.kind) {
    case 'victory':
      return screen.victory ? source.value : 0;
    case 'status': {
      const m = new RegExp(source.pattern).exec(screen.statusLine);
      // + 0 turns a negated zero into a plain one.
      return m ? Number(m[1]) * source.scale + 0 : 0;
    }
    case 'byte': {
      const raw = mem[source.addr];
      if (!source.signed && isLowByteOfGlobal(source.addr, globals)) {
        // Jericho reads many scores as the low byte of a global, so a score gone below zero reads
        // 256 more than it is: Night's explorer lost 5 of its 4 points ("you scored -1 out of a
        // possible 10") and read 255. The global's whole word is the number the game prints; it
        // is read only when negative, so every other value stays Jericho's (a byte wraps at 256).
        const word = wordAt(mem, source.addr - 1, true);
        if (word < 0) return word + source.offset;
      }
      return (source.signed ? (raw << 24) >> 24 : raw) + source.offset;
    }
    default: {
      const addr = source.kind === 'global' ? globals + 2 * source.index : source.addr;
      return wordAt(mem, addr, source.signed) + source.offset;
    }
  }
}

/** The 16-bit word at `addr`, high byte first, as the Z-machine stores it. */
function wordAt(mem: Uint8Array, addr: number, signed: boolean): number {
  const raw = (mem[addr] << 8) | mem[addr + 1];
  return signed ? (raw << 16) >> 16 : raw;
}

/** `addr` is the second byte of one of the 240 global variables (a word, high byte first). */
function isLowByteOfGlobal(addr: number, globals: number): boolean {
  const offset = addr - 1 - globals;
  return offset >= 0 && offset < 480 && offset % 2 === 0;
}

/** A version-3 story whose status line shows the time (Flags 1 bit 1): globals 1 and 2 hold hours and minutes. */
export function isTimeGame(mem: Uint8Array, version: number): boolean {
  return version <= 3 && (mem[1] & 0x02) !== 0;
}

export class GroundTruthReader {
  private playerGuess: number | undefined;

  constructor(private readonly source: GroundTruthSource) {}

  private global(index: number): number {
    const { mem, story } = this.source;
    return (mem[story.globals + 2 * index] << 8) | mem[story.globals + 2 * index + 1];
  }

  private read(source: NumberSource): number {
    return readNumber(source, this.source.mem, this.source.story.globals, this.source);
  }

  /**
   * Without a binding: the global the probe saw the SCORE command print; else, in a v3 game, the
   * standard's global 1 (but not in a time game, where it is the hour: no score, 0); else the
   * number the status line labels as the score (0 when it shows none).
   */
  get score(): number {
    const { binding, groundTruthMode, groundTruthProbe } = this.source;
    if (binding) return this.read(binding.score);
    if (groundTruthProbe?.score) return this.read(groundTruthProbe.score);
    if (groundTruthMode === 'status-line') return this.timeGame ? 0 : this.read({ kind: 'global', index: 1, offset: 0, signed: true });
    return this.statusNumber(STATUS_SCORE);
  }

  /** As the score: the probe's global, the standard's global 2 (not the minutes of a time game), or the status line. */
  get moves(): number {
    const { binding, groundTruthMode, groundTruthProbe } = this.source;
    if (binding) return this.read(binding.moves);
    if (groundTruthProbe?.moves) return this.read(groundTruthProbe.moves);
    if (groundTruthMode === 'status-line') return this.timeGame ? 0 : this.read({ kind: 'global', index: 2, offset: 0, signed: true });
    return this.statusNumber(STATUS_MOVES);
  }

  private get timeGame(): boolean {
    return isTimeGame(this.source.mem, this.source.story.version);
  }

  private statusNumber(re: RegExp): number {
    const m = re.exec(this.source.statusLine);
    return m ? Number(m[1]) : 0;
  }

  get maxScore(): number | undefined {
    return this.source.binding?.maxScore;
  }

  /** The player object: from the binding, else found by experiment, else guessed by its name. */
  get player(): number | undefined {
    const { binding, groundTruthProbe, objects, mem } = this.source;
    if (binding?.playerObject) return binding.playerObject;
    if (groundTruthProbe?.playerObject) return groundTruthProbe.playerObject;
    if (this.playerGuess !== undefined) return this.playerGuess || undefined;
    let found: number | undefined;
    for (let id = 1; id <= objects.count && !found; id++) {
      // It must be inside something.
      if (SELF_NAMES.test(objects.name(mem, id).trim()) && objects.parent(mem, id)) found = id;
    }
    this.playerGuess = found ?? 0;
    return found;
  }

  get locationId(): number {
    const { binding, groundTruthMode, objects } = this.source;
    const player = this.player;
    if (groundTruthMode === 'degraded' && !player) return this.statusLocationId();
    if (player && (binding?.location === 'playerParent' || groundTruthMode === 'degraded')) return this.roomHolding(player);
    const g0 = this.global(0);
    return g0 > 0 && g0 <= objects.count ? g0 : 0;
  }

  /**
   * The room the player is in: climb out of vehicles and containers until the game's location
   * global (Inform's `location`, Infocom's HERE, both global 0), an object with no parent (an
   * Inform room), or one inside a folder of rooms (Infocom keeps its rooms in one object). In the
   * dark Inform sets `location` to a stand-in object, and the climb goes on to the room.
   */
  private roomHolding(player: number): number {
    const { objects, mem } = this.source;
    const here = this.global(0);
    let at = objects.parent(mem, player);
    for (let depth = 0; at && at !== here && depth < MAX_DEPTH; depth++) {
      const up = objects.parent(mem, at);
      if (!up || (!objects.parent(mem, up) && objects.children(mem, up).length > ROOM_FOLDER)) break;
      at = up;
    }
    return at;
  }

  get location(): Place {
    const { groundTruthMode, objects, mem, statusLine } = this.source;
    const id = this.locationId;
    if (!id && groundTruthMode === 'degraded') return { id: 0, name: statusLine.split(/\s{2,}/)[0]?.trim() ?? '' };
    return { id, name: id ? objects.name(mem, id) : '' };
  }

  /** Degraded mode without a player object: the object named like the status line's room. */
  private statusLocationId(): number {
    const { objects, mem, statusLine } = this.source;
    const name = statusLine.split(/\s{2,}/)[0]?.trim();
    if (!name) return 0;
    for (let id = 1; id <= objects.count; id++) if (objects.name(mem, id) === name) return id;
    return 0;
  }

  get inventory(): Place[] {
    const { objects, mem } = this.source;
    const player = this.player;
    if (!player) return [];
    return objects.children(mem, player).map((id) => ({ id, name: objects.name(mem, id) }));
  }

  /**
   * The ids a cell is made of (cellOf), without the names a ground truth decodes: the valid-action
   * search reads a cell after every command that changed something, and names were most of it.
   */
  cellIds(): Omit<CellIds, 'score'> {
    const { objects, mem } = this.source;
    const location = { id: this.locationId };
    const player = this.player;
    if (!player) return { location, inventory: [] };
    const holder = this.holderOf(player, location.id);
    const inventory = objects.children(mem, player).map((id) => ({ id }));
    return holder ? { location, within: { id: holder }, inventory } : { location, inventory };
  }

  /** The object holding the player when that is not the location itself: a bed, a car, a boat. */
  get within(): Place | undefined {
    const { objects, mem } = this.source;
    const player = this.player;
    const holder = player ? this.holderOf(player, this.locationId) : undefined;
    return holder ? { id: holder, name: objects.name(mem, holder) } : undefined;
  }

  private holderOf(player: number, locationId: number): number | undefined {
    const holder = this.source.objects.parent(this.source.mem, player);
    return holder && holder !== locationId ? holder : undefined;
  }
}
