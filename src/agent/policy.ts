/**
 * Oracle-free policies, and the parts of every policy that need no oracle. What they may use
 * depends on the assist level (see AssistSchema): under `probe` each valid action says what it
 * would do (world state, cell, score change, death, victory); under `valid` only the list of valid
 * commands is known; under `none` the agent has the parser's reply and types what a player would.
 * Everything else is the agent's own experience: the learned dynamics model, the states and cells
 * it has been in, and a seeded RNG. The LLM agent builds on these; they stay as baselines and as
 * the fallback when the LLM is unreachable.
 */
import type { ActionOption, Assist } from '../schemas/game';
import type { PolicyName } from '../schemas/episode';
import type { LearnedState } from './learned';
import { carriedIn, CellMemory, exhausted, frontier, isUndoing, parseCell, placeOf, TIER_REASONS } from './cells';
import { shortState } from './dynamics';
import { planToReward, planToState } from './planner';
import { Exits, routeToOpen } from './rooms';
import type { Rng } from './rng';
import { moveAt, type StateSet } from './state';

export type { StateSet } from './state';

export interface RoomMemory {
  here: number;
  exits: Exits;
  open: ReadonlySet<number>;
}

export interface PolicyContext {
  assist: Assist;
  /** The probed valid actions (`probe`). */
  options: ActionOption[];
  /** The valid commands without outcomes (`valid`). */
  commands: string[];
  /** The game's last reply: under `none`, where a player finds what to type. */
  observation: string;
  worldHash: string;
  /** World states this episode has already been in. */
  visited: StateSet;
  /** Cells this episode and earlier ones reached, and where earlier ones died. */
  cells: CellMemory;
  learned: LearnedState;
  rng: Rng;
  /**
   * Times each state-action was taken this episode (keys from `triedKey`): a plan or a piece of
   * advice that keeps not working from one state is given up after MAX_TRIES.
   */
  tried: Readonly<Record<string, number>>;
  /** The rooms this episode mapped, and those it left with moves untried (`probe` only; see rooms.ts). */
  rooms?: RoomMemory;
}

export interface PolicyChoice {
  command: string;
  reason: 'won' | 'reward' | 'planned' | 'return' | 'remembered' | 'novel' | 'untried' | 'random' | 'fallback';
  /** Why, in a few words a person reads in the transcript and the progress line. */
  why: string;
}

/** How often a planned or recommended step may be retried from the same state in one episode. */
export const MAX_TRIES = 2;
/** Walking back through known corridors repeats steps by design, so a return may retry more. */
export const MAX_RETURN_TRIES = 6;

export const triedKey = (worldHash: string, command: string) => `${shortState(worldHash)}|${command}`;

export const timesTried = (tried: Readonly<Record<string, number>>, worldHash: string, command: string) => tried[triedKey(worldHash, command)] ?? 0;

/** When the engine finds nothing that changes the world, let time pass and look again. */
export const FALLBACK_COMMANDS = ['wait', 'look'];

const DIRECTIONS = ['north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest', 'up', 'down', 'in', 'out'];
const NOT_NOUNS = new Set(['way', 'end', 'side', 'rest', 'top', 'bottom', 'middle', 'distance', 'moment', 'time', 'game', 'story', 'lot', 'few', 'little', 'bit']);

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

/** The commands this policy may consider now. */
export function candidates(ctx: Pick<PolicyContext, 'assist' | 'options' | 'commands' | 'observation'>): string[] {
  if (ctx.assist === 'probe') return ctx.options.map((o) => o.command);
  if (ctx.assist === 'valid') return ctx.commands;
  return playerCommands(ctx.observation);
}

export function randomPolicy(ctx: PolicyContext): PolicyChoice {
  const commands = candidates(ctx);
  if (commands.length === 0) return { command: ctx.rng.pick(FALLBACK_COMMANDS), reason: 'fallback', why: 'no valid action found' };
  return { command: ctx.rng.pick(commands), reason: 'random', why: 'random' };
}

/**
 * What the engine's probes make certain, for every policy that uses them: a winning move, else the
 * best immediate score gain; and the pool of options that neither kill the player, end the game
 * without a win nor lead where an earlier episode died (all of them if every option does).
 */
export type KnownChoice = PolicyChoice & { reason: 'won' | 'reward' | 'planned' | 'return' };

/** The options that neither kill, end the game without a win, nor lead where an earlier episode died (all of them if every option does). */
export function safePool(options: ActionOption[], deadly: ReadonlySet<string>): ActionOption[] {
  const alive = options.filter((o) => o.outcome !== 'died' && o.outcome !== 'ended');
  const safe = alive.filter((o) => !deadly.has(placeOf(o.resultCell)));
  return safe.length ? safe : alive.length ? alive : options;
}

export function probedMove(options: ActionOption[], rng: Rng, cells: Pick<CellMemory, 'deadly' | 'here'>): { pool: ActionOption[]; choice: KnownChoice | null } {
  const won = options.find((o) => o.outcome === 'won');
  if (won) return { pool: options, choice: { command: won.command, reason: 'won', why: 'the probe shows it wins' } };
  const pool = safePool(options, cells.deadly);
  const scoring = pool.filter((o) => o.scoreDelta > 0);
  if (scoring.length === 0) return { pool, choice: null };
  const best = cheapestGains(scoring, cells.here);
  const choice = rng.pick(best);
  return { pool, choice: { command: choice.command, reason: 'reward', why: `the probe shows +${choice.scoreDelta} points` } };
}

/**
 * The scoring moves with the most points per thing given up (those that give up nothing first),
 * then the biggest gain. "put all in trophy case" scores what the treasures put in one by one
 * score, but also shuts the lit lamp away: Zork I's agent then walked down into the dark cellar
 * and was eaten, episode after episode. Put one by one, the lamp stays in hand.
 */
function cheapestGains(scoring: ActionOption[], here: string): ActionOption[] {
  const carriedNow = carriedIn(here);
  const worth = (option: ActionOption) => {
    const givenUp = Math.max(0, carriedNow - carriedIn(option.resultCell));
    return givenUp === 0 ? Infinity : option.scoreDelta / givenUp;
  };
  const bestWorth = Math.max(...scoring.map(worth));
  const cheapest = scoring.filter((option) => worth(option) === bestWorth);
  const bestGain = Math.max(...cheapest.map((option) => option.scoreDelta));
  return cheapest.filter((option) => option.scoreDelta === bestGain);
}

/**
 * The moves that need no oracle: under `probe`, what the probes make certain; under any assist,
 * the first step of the shortest learned path to a reward (the agent's own experience). The full
 * agent skips its oracle query when there is one. `pool` is what may be chosen from (probe only).
 */
export function knownMove(ctx: PolicyContext): { pool: ActionOption[]; choice: KnownChoice | null } {
  let pool: ActionOption[] = [];
  if (ctx.assist === 'probe') {
    const probed = probedMove(ctx.options, ctx.rng, ctx.cells);
    if (probed.choice) return probed;
    pool = probed.pool;
  }
  const listed = ctx.assist === 'probe' ? new Set(pool.map((o) => o.command)) : ctx.assist === 'valid' ? new Set(ctx.commands) : null;
  const usable = (command: string) => (listed === null || listed.has(command)) && timesTried(ctx.tried, ctx.worldHash, command) < MAX_TRIES;
  const plan = planToReward(ctx.learned.dynamics, ctx.worldHash, usable);
  if (plan) return { pool, choice: { command: plan.action, reason: 'planned', why: `a learned path to +${plan.reward} in ${steps(plan.steps)}` } };
  // Go-Explore's return across episodes: walk the learned graph to the oldest state from which an
  // earlier episode found a place or item nobody had reached and no later episode stood again,
  // then explore from it. A find is often one branch of several (9:05's car: "yes" to the office,
  // "no" drives on): from the branch point, a change no episode has seen ranks first.
  const goals = ctx.learned.frontier.filter((goal) => !ctx.visited.has(goal));
  const back = planToState(ctx.learned.dynamics, ctx.worldHash, goals, usable);
  if (back) return { pool, choice: { command: back.action, reason: 'return', why: `back to where an earlier episode found something new, ${steps(back.steps)} away` } };
  return { pool, choice: ctx.assist === 'probe' ? returnMove(pool, ctx) : ctx.assist === 'valid' ? returnToUntried(ctx) : null };
}

const steps = (count: number) => `${count} step${count === 1 ? '' : 's'}`;

/**
 * Go-Explore's return: when every move here is spent (only undoing, known or deadly ones left),
 * walk the mapped rooms to the nearest one this episode left with moves that still open
 * something up, instead of wandering or undoing what was done.
 */
function returnMove(pool: ActionOption[], ctx: PolicyContext): KnownChoice | null {
  const best = frontier(pool, { ...ctx.cells, visited: ctx.visited });
  if (best && !exhausted(best.tier)) return null;
  const usable = returnable(ctx, new Set(pool.map((o) => o.command)));
  // Inside something (in bed, in a car): none of the room's exits is valid from here, and what is
  // left to do in here is spent. Get out into the room, keeping what is carried, before anything else.
  const here = parseCell(ctx.cells.here);
  if (here.within !== undefined) {
    const out = pool.filter((o) => {
      const to = parseCell(o.resultCell);
      return to.location === here.location && to.within === undefined && to.inventory.length >= here.inventory.length && usable(o.command);
    });
    if (out.length) return { command: ctx.rng.pick(out).command, reason: 'return', why: "out of here, back to where the room's exits are" };
  }
  return toOpenRoom(ctx, usable);
}

/** A move a return may take: listed here, and not yet retried too often from this state. */
const returnable = (ctx: PolicyContext, listed: ReadonlySet<string>) => (command: string) =>
  listed.has(command) && timesTried(ctx.tried, ctx.worldHash, command) < MAX_RETURN_TRIES;

/** The first step to the nearest open room over the mapped rooms. */
function toOpenRoom(ctx: PolicyContext, usable: (command: string) => boolean): KnownChoice | null {
  const rooms = ctx.rooms;
  if (!rooms?.open.size) return null;
  const route = routeToOpen(rooms.exits, rooms.here, rooms.open, usable);
  return route ? { command: route.command, reason: 'return', why: `back to a room with untried moves, ${steps(route.steps)} away` } : null;
}

/**
 * The same return without the probe (`valid`): when nothing going places, taking or opening is
 * left untried here, walk the rooms the episode's own moves mapped to the nearest one left with
 * such moves, before undoing, repeating or jumping. Without it the explorer bounced between two
 * spent rooms (Zork I's Canyon Bottom and End of Rainbow) and, with only "jump" left untried at
 * Canyon View, jumped.
 */
function returnToUntried(ctx: PolicyContext): KnownChoice | null {
  if (nextUntried(ctx)?.opensUp) return null;
  return toOpenRoom(ctx, returnable(ctx, new Set(safeCommands(ctx))));
}

/**
 * Exploration. Under `probe`: the best novelty tier of the cells the options lead to (see
 * cells.ts). Otherwise: a command not yet tried from this state, else any.
 */
export type ExploreChoice = PolicyChoice & { reason: 'novel' | 'untried' | 'random' | 'fallback' };

export function explore(pool: ActionOption[], ctx: PolicyContext): ExploreChoice {
  if (ctx.assist === 'probe') {
    const best = frontier(pool, { ...ctx.cells, visited: ctx.visited });
    if (best) return { command: ctx.rng.pick(best.options).command, reason: best.tier === 'seen' ? 'random' : 'novel', why: TIER_REASONS[best.tier] };
    return { command: ctx.rng.pick(FALLBACK_COMMANDS), reason: 'fallback', why: 'no valid action found' };
  }
  const listed = candidates(ctx);
  if (listed.length === 0) return { command: ctx.rng.pick(FALLBACK_COMMANDS), reason: 'fallback', why: 'no valid action found' };
  const next = nextUntried(ctx);
  if (next) return { command: ctx.rng.pick(next.commands), reason: 'untried', why: next.risky ? 'not yet tried here (only risky moves are left)' : 'not yet tried here' };
  return { command: ctx.rng.pick(safeCommands(ctx)), reason: 'random', why: 'everything here has been tried' };
}

/**
 * Without outcomes, the commands to try next: those not yet tried from this state, of the least
 * risky kind left (see riskOf), leaving out moves that killed the player here in an earlier
 * episode. Null when every command has been tried. Under `valid` the oracle's advice is taken
 * only from these: followed anywhere in the list, the 270M model's "jump" at Zork I's Canyon
 * View killed the full agent while forward moves were still untried.
 */
export function nextUntried(ctx: UntriedContext): { commands: string[]; risky: boolean; opensUp: boolean } | null {
  const untried = safeCommands(ctx).filter((command) => timesTried(ctx.tried, ctx.worldHash, command) === 0);
  if (untried.length === 0) return null;
  const least = Math.min(...untried.map(riskOf));
  return { commands: untried.filter((command) => riskOf(command) === least), risky: least === RISK.risky, opensUp: least <= RISK.other };
}

/** What nextUntried reads: the state, its commands, what was tried and what killed before. */
export type UntriedContext = Pick<PolicyContext, 'assist' | 'options' | 'commands' | 'observation' | 'worldHash' | 'tried' | 'learned' | 'rooms'>;

/** The candidates less the moves that killed the player here in an earlier episode (all of them if every one did). */
function safeCommands(ctx: UntriedContext): string[] {
  const listed = candidates(ctx);
  const here = ctx.rooms?.here;
  const deadly = new Set(ctx.learned.deadlyMoves);
  const safe = here === undefined ? listed : listed.filter((command) => !deadly.has(moveAt(here, command)));
  return safe.length ? safe : listed;
}

/**
 * Without outcomes, what a command usually does decides the order untried ones are tried in:
 * going places and taking or opening things, then the rest, then undoing what was done, and last
 * what tends to kill or destroy (jumping, throwing, fighting). Holding back undoing moves alone
 * (Zork I under `valid`) made throwing things at the lamp and jumping come sooner.
 */
const RISK = { forward: 0, other: 1, undoing: 2, risky: 3 } as const;
const FORWARD = /^(north|south|east|west|northeast|northwest|southeast|southwest|up|down|in|out|enter|climb|go|take|get|pick up|open|unlock|turn on|light|switch on|move|push|pull|read|examine|look|search|wear)\b/;
const RISKY = /^(jump|throw|attack|kill|break|destroy|burn|hit|smash|cut|stab|wreck|fight|punch|kick|pour|empty|swim|dive)\b/;

function riskOf(command: string): number {
  const c = command.trim().toLowerCase();
  if (RISKY.test(c)) return RISK.risky;
  if (isUndoing(c)) return RISK.undoing;
  if (FORWARD.test(c)) return RISK.forward;
  return RISK.other;
}

export function oracleFreePolicy(ctx: PolicyContext): PolicyChoice {
  const { pool, choice } = knownMove(ctx);
  if (choice) return choice;
  const usable = ctx.assist === 'probe' ? pool.map((o) => o.command) : candidates(ctx);
  const remembered = ctx.learned.rewarding[shortState(ctx.worldHash)]?.filter((c) => ctx.assist === 'none' || usable.includes(c)) ?? [];
  if (remembered.length) return { command: remembered[0], reason: 'remembered', why: 'it scored here in an earlier episode' };
  return explore(pool, ctx);
}

export function choose(policy: Exclude<PolicyName, 'full'>, ctx: PolicyContext): PolicyChoice {
  return policy === 'random' ? randomPolicy(ctx) : oracleFreePolicy(ctx);
}
