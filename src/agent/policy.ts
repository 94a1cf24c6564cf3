/**
 * Oracle-free policies: they choose among the valid actions the engine found, using only what
 * those probes revealed (the world hash each action leads to, its score change, whether it ends
 * the game), the learned dynamics model and a seeded RNG. The LLM agent builds on them; they
 * stay as baselines and as the fallback when the LLM is unreachable.
 */
import type { ActionOption } from '../schemas/game';
import type { LearnedState, PolicyName } from '../schemas/episode';
import { knownStates, shortState } from './dynamics';
import { planToReward } from './planner';
import type { Rng } from './rng';

/** World states seen before, by full or short hash (the episode keeps short ones to stay small). */
export interface StateSet {
  has(worldHash: string): boolean;
}

export interface PolicyContext {
  options: ActionOption[];
  worldHash: string;
  /** World states this episode has already been in. */
  visited: StateSet;
  learned: LearnedState;
  rng: Rng;
  /**
   * Times each state-action was taken this episode (keys from `triedKey`): a plan or a piece of
   * advice that keeps not working from one state is given up after MAX_TRIES.
   */
  tried: Readonly<Record<string, number>>;
}

export interface PolicyChoice {
  command: string;
  reason: 'won' | 'reward' | 'planned' | 'remembered' | 'novel' | 'random' | 'fallback';
}

/** How often a planned or recommended step may be retried from the same state in one episode. */
export const MAX_TRIES = 2;

export const triedKey = (worldHash: string, command: string) => `${shortState(worldHash)}|${command}`;

export const timesTried = (tried: Readonly<Record<string, number>>, worldHash: string, command: string) => tried[triedKey(worldHash, command)] ?? 0;

/** When the engine finds nothing that changes the world, let time pass and look again. */
export const FALLBACK_COMMANDS = ['wait', 'look'];

export function randomPolicy(ctx: PolicyContext): PolicyChoice {
  if (ctx.options.length === 0) return { command: ctx.rng.pick(FALLBACK_COMMANDS), reason: 'fallback' };
  return { command: ctx.rng.pick(ctx.options).command, reason: 'random' };
}

/**
 * What the engine's probes make certain, for every policy that uses them: a winning move, else the
 * best immediate score gain; and the pool of options that neither kill the player nor end the
 * game without a win (all of them if every option does).
 */
export function probedMove(options: ActionOption[], rng: Rng): { pool: ActionOption[]; choice: { command: string; reason: 'won' | 'reward' } | null } {
  const won = options.find((o) => o.outcome === 'won');
  if (won) return { pool: options, choice: { command: won.command, reason: 'won' } };
  const safe = options.filter((o) => o.outcome !== 'died' && o.outcome !== 'ended');
  const pool = safe.length ? safe : options;
  const best = Math.max(...pool.map((o) => o.scoreDelta));
  if (best > 0) return { pool, choice: { command: rng.pick(pool.filter((o) => o.scoreDelta === best)).command, reason: 'reward' } };
  return { pool, choice: null };
}

/**
 * The moves that need no oracle: what the probes make certain, else the first step of the
 * shortest learned path to a reward. The full agent skips its oracle query when there is one.
 */
export function knownMove(ctx: PolicyContext): { pool: ActionOption[]; choice: { command: string; reason: 'won' | 'reward' | 'planned' } | null } {
  const { pool, choice } = probedMove(ctx.options, ctx.rng);
  if (choice) return { pool, choice };
  const usable = (command: string) => pool.some((o) => o.command === command) && timesTried(ctx.tried, ctx.worldHash, command) < MAX_TRIES;
  const plan = planToReward(ctx.learned.dynamics, ctx.worldHash, usable);
  return { pool, choice: plan ? { command: plan.action, reason: 'planned' } : null };
}

/** Exploration order: states never seen in any episode, then states not seen in this one, then anything. */
export function explore(pool: ActionOption[], ctx: PolicyContext): PolicyChoice {
  const known = knownStates(ctx.learned.dynamics);
  const unseen = pool.filter((o) => !ctx.visited.has(o.resultHash) && !known.has(shortState(o.resultHash)));
  if (unseen.length) return { command: ctx.rng.pick(unseen).command, reason: 'novel' };
  const novel = pool.filter((o) => !ctx.visited.has(o.resultHash));
  if (novel.length) return { command: ctx.rng.pick(novel).command, reason: 'novel' };
  return { command: ctx.rng.pick(pool).command, reason: 'random' };
}

export function oracleFreePolicy(ctx: PolicyContext): PolicyChoice {
  const { options, rng } = ctx;
  if (options.length === 0) return { command: rng.pick(FALLBACK_COMMANDS), reason: 'fallback' };
  const { pool, choice } = knownMove(ctx);
  if (choice) return choice;
  const remembered = ctx.learned.rewarding[shortState(ctx.worldHash)]?.filter((c) => pool.some((o) => o.command === c)) ?? [];
  if (remembered.length) return { command: remembered[0], reason: 'remembered' };
  return explore(pool, ctx);
}

export function choose(policy: Exclude<PolicyName, 'full'>, ctx: PolicyContext): PolicyChoice {
  return policy === 'random' ? randomPolicy(ctx) : oracleFreePolicy(ctx);
}
