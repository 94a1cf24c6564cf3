/**
 * Ground truth read from a running game's memory: score, moves, location, inventory and what
 * holds the player. A binding (per-game facts, kept as data) says where each lives; without one,
 * v3 games follow the standard's status-line globals and other games are read as well as the
 * status line and an experiment on the opening allow (see bindings.ts for the modes).
 */
import type { GameBinding, GroundTruthMode, NumberSource } from './bindings';
import type { GroundTruthProbe } from './groundTruthProbe';
import type { ObjectTable } from './objects';
import type { StoryInfo } from './story';

export interface Place {
  id: number;
  name: string;
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

export class GroundTruthReader {
  private playerGuess: number | undefined;

  constructor(private readonly source: GroundTruthSource) {}

  private global(index: number): number {
    const { mem, story } = this.source;
    return (mem[story.globals + 2 * index] << 8) | mem[story.globals + 2 * index + 1];
  }

  private readNumber(source: NumberSource): number {
    if (source.kind === 'victory') return this.source.victory ? source.value : 0;
    const mem = this.source.mem;
    const raw = source.kind === 'global' ? this.global(source.index) : (mem[source.addr] << 8) | mem[source.addr + 1];
    return ((raw << 16) >> 16) + source.offset;
  }

  get score(): number {
    const { binding, groundTruthMode } = this.source;
    if (binding) return this.readNumber(binding.score);
    if (groundTruthMode === 'degraded') return this.statusNumber(/score:?\s*(-?\d+)/i);
    return this.readNumber({ kind: 'global', index: 1, offset: 0 });
  }

  get moves(): number {
    const { binding, groundTruthMode } = this.source;
    if (binding) return this.readNumber(binding.moves);
    if (groundTruthMode === 'degraded') return this.statusNumber(/(?:moves|turns):?\s*(\d+)/i);
    return this.readNumber({ kind: 'global', index: 2, offset: 0 });
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
      // Names the Inform library and Infocom give the player object; it must be inside something.
      if (/^(yourself|you|self|player|cretin|adventurer|\(self object\))$/i.test(objects.name(mem, id).trim()) && objects.parent(mem, id)) found = id;
    }
    this.playerGuess = found ?? 0;
    return found;
  }

  get locationId(): number {
    const { binding, groundTruthMode, objects, mem } = this.source;
    const player = this.player;
    if (groundTruthMode === 'degraded' && !player) return this.statusLocationId();
    if (player && (binding?.location === 'playerParent' || groundTruthMode === 'degraded')) {
      // Climb out of vehicles and containers to the room.
      let at = objects.parent(mem, player);
      for (let guard = 0; guard < 8; guard++) {
        const up = objects.parent(mem, at);
        if (!up) break;
        at = up;
      }
      return at;
    }
    const g0 = this.global(0);
    return g0 > 0 && g0 <= objects.count ? g0 : 0;
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

  /** The object holding the player when that is not the location itself: a bed, a car, a boat. */
  get within(): Place | undefined {
    const { objects, mem } = this.source;
    const player = this.player;
    if (!player) return undefined;
    const holder = objects.parent(mem, player);
    if (!holder || holder === this.locationId) return undefined;
    return { id: holder, name: objects.name(mem, holder) };
  }
}
