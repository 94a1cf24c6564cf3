/**
 * Go-Explore-style novelty over cells (location, inventory, score; see `cellOf`) instead of exact
 * world hashes. Under the `probe` assist every valid action says which cell it leads to, so
 * exploration can rank moves by what they open up: a place or an item never seen before beats a
 * world state no episode has seen, which beats a new cell; undoing moves (close, drop, turn off, ...) and
 * known death traps come last. Cells seen in earlier episodes of a campaign travel in the learned
 * state, so a later episode pushes past where the earlier ones stopped.
 */
import type { Lighting } from './lighting';
import type { PlacePlanning } from './placePlans';
import type { Losses } from './losses';
import type { ActionOption } from '../schemas/game';

export interface Cell {
  location: number;
  /** What holds the player within the location (a bed, a car), if anything. */
  within?: number;
  inventory: number[];
  score: number;
}

export function parseCell(cell: string): Cell {
  const [place, inventory, score] = cell.split('/');
  const [location, within] = place.split('@');
  return {
    location: Number(location),
    ...(within ? { within: Number(within) } : {}),
    inventory: inventory ? inventory.split(',').map(Number) : [],
    score: Number(score),
  };
}

/** How many things the player carries in `cell`. */
export const carriedIn = (cell: string) => parseCell(cell).inventory.length;

/** Where the player is and what they carry, without the score: a death trap is a place, whatever the score. */
export const placeOf = (cell: string) => cell.slice(0, cell.lastIndexOf('/'));

/**
 * Commands whose usual effect undoes an earlier one. A new world state reached this way is rarely
 * progress, and these are what made hash novelty chase open/close toggles.
 */
const UNDOING = startsWithAny([
  'close',
  'shut',
  'drop',
  'discard',
  'put down',
  'turn off',
  'switch off',
  'extinguish',
  'blow out',
  'lock',
  'take off',
  'remove',
  'unwear',
  'doff',
  'get out',
  'exit',
  'climb out',
  'sit',
  'lie',
]);

/** A command that starts with one of these verbs (whole words). */
export function startsWithAny(verbs: readonly string[]): RegExp {
  return new RegExp(`^(${verbs.join('|')})\\b`);
}

export const isUndoing = (command: string) => UNDOING.test(command.trim().toLowerCase());

/** What is spent in a room (see spentIn in spent.ts). */
export interface SpentCommands {
  has(command: string): boolean;
  /** The room tired (ROOM_TIRES_AFTER): what is spent there but moves comes after its spent moves (see nextUntried). */
  tired?: boolean;
}

/** What the agent has seen: cells this episode, and cells earlier episodes reached. */
export interface CellMemory {
  here: string;
  /** Cells this episode has been in. */
  seen: ReadonlySet<string>;
  /** Cells earlier episodes reached. */
  seenBefore: ReadonlySet<string>;
  /** Places (see placeOf) an earlier episode died in. */
  deadly: ReadonlySet<string>;
  /** This episode's world states. */
  visited: { has(worldHash: string): boolean };
  /** World states earlier episodes reached (the learned dynamics model's). */
  known?: { has(worldHash: string): boolean };
  /** Under `valid`, threatened, the explorer fights back with what it carries first (see nextUntried). */
  fightsBack?: boolean;
  /** Threatened, armed fights that killed here in an earlier episode are fought again; with nothing to fight or light with, the player goes back the way it came (see nextUntried). */
  facesDanger?: boolean;
  /** The move that brought the player here (with facesDanger). */
  arrivedBy?: string | null;
  /** In the pitch dark a light comes first, and the way back only when the last command brought the player here (see nextUntried). */
  mindsPerils?: boolean;
  /** The last command was the move that brought the player here. */
  justArrived?: boolean;
  /** The last command was a blow with something in hand (isArmedFight): the fight goes on. */
  fought?: boolean;
  /** Under `valid`, what a plan by place reads: the visits that paid in earlier episodes, the room map (see placePlans.ts). */
  placePlans?: PlacePlanning;
  /** Rooms earlier episodes made a first in, not yet acted in this episode (see learned.frontierRooms); set from its patch. */
  frontierRooms?: ReadonlySet<number>;
  /** Under `valid`, the shapes that lost carried things here, and what is carried and lit (see losses.ts). */
  losses?: Losses;
  /** Under `valid`, what was lit and whether a dark room is known: taking and lighting go first (see lighting.ts). */
  lighting?: Lighting;
  /** Commands this episode already made where the player stands (whatever was carried then). */
  doneHere?: ReadonlySet<string>;
  /** Commands spent where the player stands: made so often there, or of a kind made so many ways (see spentIn). */
  spentHere?: SpentCommands;
  /** Moves the probe shows lower the score are left out while others remain (see safePool). */
  avoidLosses?: boolean;
  /** Under `probe`, a winning move that loses points is not taken as a win (see probedMove). */
  refusesLosingWins?: boolean;
  /** Commands that opened a menu this episode (the game then waited for a key): tried last (see nextUntried). */
  menuCommands?: ReadonlySet<string>;
  /**
   * The effects (ActionOption.effect) of the commands this episode made. With it, the probe ranks
   * a change already made, in any room, and a command that opened a menu, as repeats; absent in a
   * run started before it (see SPEND_EFFECTS_PATCH).
   */
  effectsDone?: ReadonlySet<string>;
  /**
   * How many distinct commands of each verb this episode made (see verbSpread.ts): where a tier's
   * moves only change things, the least used verbs go first. Absent in a run started before it
   * (see SPREAD_VERBS_PATCH).
   */
  verbUses?: ReadonlyMap<string, number>;
  /** Take the first of two moves that score together where no move scores now (see probedMove); absent before LOOK_AHEAD_PATCH. */
  looksAhead?: boolean;
  /** Moves the probe shows lead to a death a few idle turns later are left out while others remain (see safePool); absent before DOOM_PATCH. */
  avoidDoom?: boolean;
  /** Where everything was tried, a move the probe shows leaves the world as it is comes last (see withoutStill); absent before STILL_MOVES_PATCH. */
  leavesStill?: boolean;
}

/** Whether being in `cell` is being somewhere, or holding something, that no episode had reached yet. */
export function isFirstEver(cell: string, memory: Pick<CellMemory, 'seen' | 'seenBefore'>): boolean {
  const next = parseCell(cell);
  const known = [...memory.seen, ...memory.seenBefore].map(parseCell);
  return !known.some((c) => c.location === next.location) || next.inventory.some((item) => !known.some((c) => c.inventory.includes(item)));
}

/** Novelty tiers, best first. */
// A merely new cell (a known place with other things carried) ranks below a world state no episode
// has seen: every item taken makes every known place a new cell, and ranking those first sent
// Zork I's explorer walking its known forest again after each pickup.
// A command already made in this room that neither moves nor gains anything (getting into bed,
// eating, putting one thing on another) reaches a "new" world state only because something else
// is carried now: ranking those as new kept 9:05's explorer climbing in and out of bed.
// A change no episode has seen ranks above a place or item only new to this episode: past the
// frontier an earlier episode reached, the known branch (9:05's "yes" to the office) would
// otherwise always win over the untried one ("no", driving on).
export const TIERS = [
  'new-ever',
  'new-state-ever',
  'new-here',
  'new-cell',
  'new-state',
  'undoing',
  'repeat',
  'seen',
  'menu',
  'deadly',
] as const;
export type Tier = (typeof TIERS)[number];

/** Tiers whose moves reach a place, an item or a cell: what they open up is the point, not how they do it. */
export const REACHES = new Set<Tier>(['new-ever', 'new-here', 'new-cell']);

/** Nothing here opens anything up: only undoing moves, repeated or known ones, or death traps are left. */
export const exhausted = (tier: Tier) => TIERS.indexOf(tier) >= TIERS.indexOf('undoing');

/** What a move would open up, from the engine's probe of it. */
export function tierOf(option: ActionOption, memory: CellMemory): Tier {
  if (memory.deadly.has(placeOf(option.resultCell))) return 'deadly';
  // A menu leaves the world as it was, but each visit leaves a new world state behind (its
  // counters): ranked by state, night's explorer opened its hints menus thirty times, and ranked
  // with the repeats it still did once nothing new was left.
  if (memory.effectsDone && memory.menuCommands?.has(option.command)) return 'menu';
  if (!memory.visited.has(option.resultHash)) {
    const here = parseCell(memory.here);
    const next = parseCell(option.resultCell);
    const gained = next.inventory.filter((item) => !here.inventory.includes(item));
    // Getting into or out of a bed or a car is a move: from inside, the room's exits are not valid.
    const moved = next.location !== here.location || next.within !== here.within;
    const undoing = isUndoing(option.command) || (!moved && gained.length === 0 && next.inventory.length < here.inventory.length);
    if (!undoing && (moved || gained.length)) {
      const cells = [...memory.seen].map(parseCell);
      const earlier = [...memory.seenBefore].map(parseCell);
      const placeNew = (list: Cell[]) => moved && !list.some((c) => c.location === next.location);
      const itemNew = (list: Cell[]) => gained.some((item) => !list.some((c) => c.inventory.includes(item)));
      if (placeNew([...cells, ...earlier]) || itemNew([...cells, ...earlier])) return 'new-ever';
      if (placeNew(cells) || itemNew(cells)) return 'new-here';
      // Taking back, where it stands, something this episode already carried: with other things
      // put down meanwhile the cell is new, but picking things up and putting them down again
      // kept 9:05's explorer in its bedroom for 30 turns.
      // Walking somewhere already stood in this episode carrying less than then opens nothing that
      // was not open before: touring every room after each thing put down kept 9:05's explorer
      // away from the one room (the bathroom) where putting things down leads somewhere.
      // Empty-handed is the exception: some places take only a player carrying nothing (9:05's
      // shower, Zork I's chimney), so the first empty-handed visit of a place is a new cell.
      const lighter = cells.some(
        (c) => c.location === next.location && c.within === next.within && next.inventory.every((item) => c.inventory.includes(item)),
      );
      const emptyHanded =
        next.inventory.length === 0 &&
        !cells.some((c) => c.location === next.location && c.within === next.within && c.inventory.length === 0);
      if (moved && !memory.seen.has(option.resultCell) && (!lighter || emptyHanded)) return 'new-cell';
      // Back in a cell this episode was in (walking back, or taking back what was put down): the
      // world state is new only because of something done before, which was seen when it was done.
      return 'repeat';
    }
    // A one-word command (an answer, "yes" or "no") is a move in a scene, not a thing done to
    // something: answering "no" again to the next question goes on; it is no repeat.
    const oneWord = !option.command.trim().includes(' ');
    // So is a change this episode already made elsewhere: wearing the watch again in the next room
    // is a new world state only because the player stands somewhere else.
    // (A scene's move keeps its exemption; a direction that goes nowhere has none: Dragon's "in",
    // "You can't go that way" while the witch's clock runs, was typed thirty times.)
    const madeBefore = memory.doneHere?.has(option.command) && !oneWord;
    const changeMadeBefore = option.effect !== undefined && memory.effectsDone?.has(option.effect) && !option.scene;
    if ((madeBefore || changeMadeBefore) && !moved && gained.length === 0) return 'repeat';
    if (undoing) return 'undoing';
    return memory.known?.has(option.resultHash) ? 'new-state' : 'new-state-ever';
  }
  return 'seen';
}

/**
 * The options in the best tier that has any, and that tier. Undoing moves that strip the most come
 * first ("take off all", then "drop all"): when undoing is all that is left, being empty-handed
 * is the one undone state worth reaching, and one move there beats one per thing carried.
 */
export function frontier(options: ActionOption[], memory: CellMemory): { tier: Tier; options: ActionOption[] } | null {
  let best: { tier: Tier; options: ActionOption[] } | null = null;
  for (const option of options) {
    const tier = tierOf(option, memory);
    if (!best || TIERS.indexOf(tier) < TIERS.indexOf(best.tier)) best = { tier, options: [option] };
    else if (tier === best.tier) best.options.push(option);
  }
  if (best?.tier === 'undoing') {
    const least = Math.min(...best.options.map((option) => carriedIn(option.resultCell)));
    const lightest = best.options.filter((option) => carriedIn(option.resultCell) === least);
    const whole = lightest.filter((option) => /\ball\b/.test(option.command));
    best = { tier: 'undoing', options: whole.length ? whole : lightest };
  }
  return best;
}

/**
 * The options that change something, when some do: a move the probe shows leaves the world state
 * exactly as it is (`resultHash` equal to the state's own) does nothing that can be built on.
 * Inhumane's desert, once the way back is lost, offers only "west" (back to the camp) and
 * "north", which leaves the desert as it was; picked at random among moves already tried, "north"
 * came up and, the next state being the same, came up 75 turns running.
 */
export function withoutStill(options: ActionOption[], worldHash: string): ActionOption[] {
  const moving = options.filter((option) => option.resultHash !== worldHash);
  return moving.length ? moving : options;
}

/** Why a tier's move was chosen, for the transcript and the progress line. */
export const TIER_REASONS: Record<Tier, string> = {
  'new-ever': 'a place or item no episode has reached',
  'new-here': 'a place or item new to this episode',
  'new-cell': 'somewhere new with what is carried now',
  'new-state-ever': 'changes the world in a way no episode has seen',
  'new-state': 'changes the world in a way new to this episode',
  undoing: 'only undoing moves are left',
  repeat: 'only moves already made, or back to where it has been, are left',
  seen: 'everything here has been tried',
  menu: 'only commands that open a menu are left',
  deadly: 'every move leads where an earlier episode died',
};
