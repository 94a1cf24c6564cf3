/**
 * Oracle-free policies: they choose among the valid actions the engine found, using only what
 * those probes revealed (the world hash each action leads to, its score change, whether it ends
 * the game) and a seeded RNG. The LLM agent replaces them; they stay as baselines and as the
 * fallback when the LLM is unreachable.
 */
import type { ActionOption } from '../schemas/game';
import type { LearnedState, PolicyName } from '../schemas/episode';
import type { Rng } from './rng';

export interface PolicyContext {
  options: ActionOption[];
  worldHash: string;
  /** World hashes this episode has already been in. */
  visited: ReadonlySet<string>;
  learned: LearnedState;
  rng: Rng;
}

export interface PolicyChoice {
  command: string;
  reason: 'won' | 'reward' | 'remembered' | 'novel' | 'random' | 'fallback';
}

/** When the engine finds nothing that changes the world, let time pass and look again. */
export const FALLBACK_COMMANDS = ['wait', 'look'];

export function randomPolicy(ctx: PolicyContext): PolicyChoice {
  if (ctx.options.length === 0) return { command: ctx.rng.pick(FALLBACK_COMMANDS), reason: 'fallback' };
  return { command: ctx.rng.pick(ctx.options).command, reason: 'random' };
}

/**
 * What the engine's probes make certain, for every policy that uses them: a winning move, else the
 * best immediate score gain; and the pool of options that do not kill the player (all of them if
 * every option does).
 */
export function probedMove(options: ActionOption[], rng: Rng): { pool: ActionOption[]; choice: { command: string; reason: 'won' | 'reward' } | null } {
  const won = options.find((o) => o.outcome === 'won');
  if (won) return { pool: options, choice: { command: won.command, reason: 'won' } };
  const safe = options.filter((o) => o.outcome !== 'died');
  const pool = safe.length ? safe : options;
  const best = Math.max(...pool.map((o) => o.scoreDelta));
  if (best > 0) return { pool, choice: { command: rng.pick(pool.filter((o) => o.scoreDelta === best)).command, reason: 'reward' } };
  return { pool, choice: null };
}

export function oracleFreePolicy(ctx: PolicyContext): PolicyChoice {
  const { options, rng } = ctx;
  if (options.length === 0) return { command: rng.pick(FALLBACK_COMMANDS), reason: 'fallback' };
  const { pool, choice } = probedMove(options, rng);
  if (choice) return choice;
  const remembered = ctx.learned.rewarding[ctx.worldHash]?.filter((c) => pool.some((o) => o.command === c)) ?? [];
  if (remembered.length) return { command: remembered[0], reason: 'remembered' };
  const novel = pool.filter((o) => !ctx.visited.has(o.resultHash));
  if (novel.length) return { command: rng.pick(novel).command, reason: 'novel' };
  return { command: rng.pick(pool).command, reason: 'random' };
}

export function choose(policy: PolicyName, ctx: PolicyContext): PolicyChoice {
  return policy === 'random' ? randomPolicy(ctx) : oracleFreePolicy(ctx);
}
