/**
 * Choosing without outcomes (the `valid` and `none` assists): what a player would type from the
 * game's reply alone, and which untried command to try next, by what such commands usually do.
 */
import { type CellMemory, isUndoing, startsWithAny } from './cells';
import type { PolicyContext } from './policyContext';
import { timesTried } from './policyContext';
import { DIRECTIONS, isMove, wayBackAmong } from './directions';
import { moveAt } from './remember';
import { isArmedFight, threatened } from './fights';
import { lightingFirst, litBy } from './lighting';
import { saysPitchDark } from './replyReading';
import { losesHere, risksLight } from './losses';

const NOT_NOUNS = new Set([
  'way',
  'end',
  'side',
  'rest',
  'top',
  'bottom',
  'middle',
  'distance',
  'moment',
  'time',
  'game',
  'story',
  'lot',
  'few',
  'little',
  'bit',
]);

/**
 * What a player would try with nothing but the game's reply (the `none` assist): the compass, a
 * look and the inventory, and the things the reply names ("a wooden chest" → examine, take and
 * open the chest).
 */
export function playerCommands(observation: string): string[] {
  const nouns = new Set<string>();
  for (const match of observation.toLowerCase().matchAll(/\b(?:a|an|the|some|your)\s+(?:[a-z]+\s+)?([a-z]{3,})\b/g)) {
    if (!NOT_NOUNS.has(match[1])) nouns.add(match[1]);
  }
  const things = [...nouns].slice(0, 8).flatMap((noun) => [`take ${noun}`, `open ${noun}`, `examine ${noun}`]);
  return [...DIRECTIONS, 'take all', ...things, 'look', 'inventory'];
}

/** What nextUntried reads: the state, what was tried and what killed before, and what is spent in this room. */
export type UntriedContext = Pick<PolicyContext, 'worldHash' | 'tried' | 'learned' | 'rooms' | 'enabled'> &
  Partial<Pick<PolicyContext, 'observation'>> & {
    cells?: Pick<
      CellMemory,
      | 'spentHere'
      | 'menuCommands'
      | 'fightsBack'
      | 'fought'
      | 'facesDanger'
      | 'arrivedBy'
      | 'mindsPerils'
      | 'justArrived'
      | 'lighting'
      | 'losses'
    >;
  };

export interface Untried {
  commands: string[];
  /** Only risky moves (jumping, throwing, fighting) are left untried. */
  risky: boolean;
  /** Something not undoing nor risky is still untried, and not spent in this room nor a menu. */
  opensUp: boolean;
  /** Of those, something going places, taking or opening (the forward kind). */
  forward: boolean;
  /** Every command left is spent in this room (made there SPENT_AFTER times, from other states). */
  spent: boolean;
  /** Only commands that opened a menu before (and risky ones) are left. */
  menu: boolean;
  /** The reply says the player is attacked or something armed is there, or the last command was a blow: these are fights with something in hand. */
  fight?: boolean;
}

/**
 * Without outcomes, the commands to try next: those of `candidates` not yet tried from this
 * state, of the least risky kind left (see riskOf), leaving out moves that killed the player here
 * in an earlier episode, and those spent in this room (see SPENT_AFTER) while anything else but
 * risky moves is left. Null when every command has been tried. Under `valid` the oracle's
 * advice is taken only from these: followed anywhere in the list, the 270M model's "jump" at
 * Zork I's Canyon View killed the full agent while forward moves were still untried. A command
 * that opened a menu this episode comes after spent ones, and keeps no room open. Of the kind
 * left, what the last command made possible (`enabled`) goes first: a player who opens a window
 * climbs through it, one who opens a mailbox takes what is inside, before walking on. With
 * `fightsBack`, a threatened player's armed fights come first, tried or not (see fights.ts), and
 * with `facesDanger` even those that killed here before; with `lighting`, then taking what was
 * lit and, once the game has shown a dark room, lighting things (see lighting.ts). With
 * `facesDanger`, a player threatened with nothing to fight with, or in the dark with nothing to
 * light, then goes back the way it came, once from each state (Zork I's explorer walked on into
 * the dark attic's grue, and typed "enter bloody axe" under the troll's blows with no sword).
 */
export function nextUntried(candidates: readonly string[], ctx: UntriedContext): Untried | null {
  const safe = safeCommands(candidates, ctx);
  const cells = ctx.cells;
  // A blow that misses leaves the world as it was, so a fight goes on from the same state. A blow
  // that killed here before lost to the dice; threatened, walking away is no safer.
  const threat = Boolean(cells?.fightsBack && (cells.fought || (ctx.observation && threatened(ctx.observation))));
  const fights = threat
    ? (cells?.facesDanger ? candidates : safe).filter(
        (command) => isArmedFight(command) && timesTried(ctx.tried, ctx.worldHash, command) < FIGHT_TRIES,
      )
    : [];
  if (fights.length) return { commands: fights, risky: false, opensUp: true, forward: true, spent: false, menu: false, fight: true };
  // Minding losses, in the pitch dark a light comes first even where lighting was tried from this
  // state (the explorer had put its lantern out there), twice at most.
  if (cells?.losses && cells.mindsPerils && saysPitchDark(ctx.observation ?? '')) {
    const relight = safe.filter((command) => litBy(command) !== null && timesTried(ctx.tried, ctx.worldHash, command) < RELIGHT_TRIES);
    if (relight.length) return { commands: relight, risky: false, opensUp: true, forward: true, spent: false, menu: false };
  }
  const untried = safe.filter((command) => timesTried(ctx.tried, ctx.worldHash, command) === 0);
  if (untried.length === 0) return null;
  const lightingFirstHere = ctx.cells?.lighting ? lightingFirst(untried, ctx.cells.lighting) : [];
  if (lightingFirstHere.length)
    return { commands: lightingFirstHere, risky: false, opensUp: true, forward: true, spent: false, menu: false };
  const pitchDark = saysPitchDark(ctx.observation ?? '');
  // Zork I's explorer put its lantern out in the cellar, and the way back led into the dark too.
  const lights = cells?.mindsPerils && pitchDark ? untried.filter((command) => litBy(command) !== null) : [];
  if (lights.length) return { commands: lights, risky: false, opensUp: true, forward: true, spent: false, menu: false };
  const endangered = threat || (pitchDark && (!cells?.mindsPerils || cells.justArrived));
  const retreat = cells?.facesDanger && cells.arrivedBy && endangered ? wayBackAmong(cells.arrivedBy, untried) : null;
  if (retreat) return { commands: [retreat], risky: false, opensUp: true, forward: true, spent: false, menu: false };
  const spentHere = ctx.cells?.spentHere;
  const menus = ctx.cells?.menuCommands;
  // Risky moves after spent ones: not a jump into the chasm to avoid a fourth "look under bed".
  const rank = (command: string) => {
    const risk = riskOf(command);
    if (risk === RISK.risky) return RISKY_RANK;
    if (menus?.has(command)) return MENU_RANK;
    if (!spentHere?.has(command)) return risk;
    return (spentHere.tired && !isMove(command) ? TIRED_RANK : SPENT_RANK) + risk;
  };
  const best = Math.min(...untried.map(rank));
  const onlySpent = best >= SPENT_RANK && best < MENU_RANK;
  const menu = best === MENU_RANK;
  const least = best === RISKY_RANK ? RISK.risky : best % SPENT_RANK;
  const kind = untried.filter((command) => rank(command) === best);
  const followUps = ctx.enabled ? kind.filter((command) => ctx.enabled!.has(command)) : [];
  return {
    commands: followUps.length ? followUps : kind,
    risky: least === RISK.risky,
    opensUp: !onlySpent && !menu && least <= RISK.other,
    forward: !onlySpent && !menu && least === RISK.forward,
    spent: onlySpent,
    menu,
  };
}

/** The candidates less the commands that opened a menu this episode (all of them if every one did). */
export function withoutMenus(candidates: readonly string[], ctx: Pick<UntriedContext, 'cells'>): string[] {
  const menus = ctx.cells?.menuCommands;
  const kept = menus?.size ? candidates.filter((command) => !menus.has(command)) : [...candidates];
  return kept.length ? kept : [...candidates];
}

/**
 * The candidates less the moves that killed the player here in an earlier episode, and (minding
 * losses) those of a shape that lost carried things here and risky ones made with the light (see
 * losses.ts); all of them if every one did.
 */
export function safeCommands(candidates: readonly string[], ctx: UntriedContext): string[] {
  const here = ctx.rooms?.here;
  const deadly = new Set(ctx.learned.deadlyMoves);
  const losses = ctx.cells?.losses;
  const losing = (command: string) =>
    losses !== undefined && (losesHere(losses, command) || risksLight(losses, command, riskOf(command) === RISK.risky));
  const safe =
    here === undefined ? [...candidates] : candidates.filter((command) => !deadly.has(moveAt(here, command)) && !losing(command));
  return safe.length ? safe : [...candidates];
}

/**
 * Without outcomes, what a command usually does decides the order untried ones are tried in:
 * going places and taking or opening things, then the rest, then undoing what was done, and last
 * what tends to kill or destroy (jumping, throwing, fighting). Holding back undoing moves alone
 * (Zork I under `valid`) made throwing things at the lamp and jumping come sooner.
 */
const RISK = { forward: 0, other: 1, undoing: 2, risky: 3 } as const;
/**
 * nextUntried's order: a spent command after every unspent one of any kind but risky, then a
 * command that opened a menu before (night's "hints": the explorer kept opening it and leaving
 * with "q", two turns each time, some 25 turns of 100), risky last.
 */
const SPENT_RANK = 10;
/**
 * In a tired room (ROOM_TIRES_AFTER) a spent command but a move comes after the spent moves: once
 * everything there is spent the explorer leaves by a way it knows rather than pick among what it
 * handled there (the ferry's cave: take and drop bread, coin and purse for 12 turns, the way east
 * one pick among them).
 */
const TIRED_RANK = 20;
const MENU_RANK = 50;
const RISKY_RANK = 100;
const FORWARD = startsWithAny([
  'north',
  'south',
  'east',
  'west',
  'northeast',
  'northwest',
  'southeast',
  'southwest',
  'up',
  'down',
  'in',
  'out',
  'enter',
  'climb',
  'go',
  'take',
  'get',
  'pick up',
  'open',
  'unlock',
  'turn on',
  'light',
  'switch on',
  'move',
  'push',
  'pull',
  'read',
  'examine',
  'look',
  'search',
  'wear',
]);
const RISKY = startsWithAny([
  'jump',
  'throw',
  'attack',
  'kill',
  'break',
  'destroy',
  'burn',
  'hit',
  'smash',
  'cut',
  'stab',
  'wreck',
  'fight',
  'punch',
  'kick',
  'pour',
  'empty',
  'swim',
  'dive',
]);

/** Lighting commands made from one pitch-dark world state before the explorer gives the light up there (see nextUntried). */
const RELIGHT_TRIES = 2;
/** Blows tried from one world state before the explorer gives the fight up there (nothing it does changes the fight). */
const FIGHT_TRIES = 4;

function riskOf(command: string): number {
  const c = command.trim().toLowerCase();
  if (RISKY.test(c)) return RISK.risky;
  if (isUndoing(c)) return RISK.undoing;
  if (FORWARD.test(c)) return RISK.forward;
  return RISK.other;
}
