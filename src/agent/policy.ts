/**
 * Oracle-free policies, and the parts of every policy that need no oracle. What they may use
 * depends on the assist level, which assist.ts decides; everything else is the agent's own
 * experience: the learned dynamics model, the states and cells it has been in, and a seeded RNG.
 * The LLM agent builds on these; they stay as baselines and as the fallback when the LLM is
 * unreachable.
 */
import type { PolicyName } from '../schemas/episode';
import type { ActionOption } from '../schemas/game';
import { assistFor } from './assist';
import { shortState } from './dynamics';
import { planToReward, planToState } from './planner';
import { placeStep } from './placeStep';
import { threatened } from './fights';
import { saysPitchDark } from './replyReading';
import { ExploreChoice, FALLBACK_COMMANDS, KnownChoice, MAX_TRIES, PolicyChoice, PolicyContext, steps, timesTried } from './policyContext';

export { FALLBACK_COMMANDS, MAX_RETURN_TRIES, MAX_TRIES, timesTried, triedKey } from './policyContext';
export type { ExploreChoice, KnownChoice, PolicyChoice, PolicyContext, RoomMemory } from './policyContext';
export type { StateSet } from './state';
export { safePool, probedMove } from './probed';
export { nextUntried, playerCommands } from './untried';

/** The commands this policy may consider now. */
export function candidates(ctx: PolicyContext): string[] {
  return assistFor(ctx.assist).candidates(ctx);
}

export function randomPolicy(ctx: PolicyContext): PolicyChoice {
  const commands = candidates(ctx);
  if (commands.length === 0) return { command: ctx.rng.pick(FALLBACK_COMMANDS), reason: 'fallback', why: 'no valid action found' };
  return { command: ctx.rng.pick(commands), reason: 'random', why: 'random' };
}

/** What knownMove found: the certain move, if any, and the options left to choose from (`probe`). */
export interface Known {
  pool: ActionOption[];
  choice: KnownChoice | null;
}

/**
 * The moves that need no oracle: what the probes make certain, else the first step of the shortest
 * learned path to a reward (the agent's own experience), else the first of two moves the probe's
 * look-ahead shows score, else Go-Explore's return across episodes and then within the episode.
 * The full agent skips its oracle query when there is one.
 */
export function knownMove(ctx: PolicyContext): Known {
  const assist = assistFor(ctx.assist);
  const certain = assist.certain(ctx);
  if (certain.choice) return certain;
  const pool = certain.pool;
  const starts = assist.planStarts(ctx, pool);
  const usable = (command: string) => (starts === null || starts.has(command)) && timesTried(ctx.tried, ctx.worldHash, command) < MAX_TRIES;
  const byPlace = assist.plansByPlace ? placeMove(ctx, usable) : null;
  if (byPlace) return { pool, choice: byPlace };
  const plan = planToReward(ctx.learned.dynamics, ctx.worldHash, usable);
  if (plan)
    return { pool, choice: { command: plan.action, reason: 'planned', why: `a learned path to +${plan.reward} in ${steps(plan.steps)}` } };
  const ahead = assist.aheadMove(ctx, pool);
  if (ahead) return { pool, choice: ahead };
  // Go-Explore's return across episodes: walk the learned graph to the oldest state from which an
  // earlier episode found a place or item nobody had reached and no later episode stood again,
  // then explore from it. A find is often one branch of several (9:05's car: "yes" to the office,
  // "no" drives on): from the branch point, a change no episode has seen ranks first.
  // Returned to by room instead (see returns.ts): a walk to an exact world state replays the
  // earlier episode's every change on the way (Zork I's went 36 steps through the dam's buttons).
  const byRoom = assist.plansByPlace && ctx.cells.frontierRooms !== undefined;
  const goals = byRoom ? [] : ctx.learned.frontier.filter((goal) => !ctx.visited.has(goal));
  const back = planToState(ctx.learned.dynamics, ctx.worldHash, goals, usable);
  if (back)
    return {
      pool,
      choice: {
        command: back.action,
        reason: 'return',
        why: `back to where an earlier episode found something new, ${steps(back.steps)} away`,
      },
    };
  return { pool, choice: assist.returnMove(ctx, pool) };
}

/**
 * A plan by place (see placePlans.ts), while no threat stands: the fight comes first (see
 * nextUntried), as a walk on under the troll's axe killed the player.
 */
function placeMove(ctx: PolicyContext, usable: (command: string) => boolean): KnownChoice | null {
  const planning = ctx.cells.placePlans;
  const here = ctx.rooms?.here;
  if (!planning || here === undefined) return null;
  if (ctx.cells.fightsBack && (ctx.cells.fought || threatened(ctx.observation))) return null;
  // In the pitch dark a light comes first (see nextUntried): Zork I's plan walked on and was eaten.
  if (saysPitchDark(ctx.observation)) return null;
  const step = placeStep(planning, here, new Set(ctx.commands), usable);
  return step ? { command: step.command, reason: 'planned', why: step.why } : null;
}

/** Exploration: with the probe, the best novelty tier of the cells the options lead to (see cells.ts); without, an untried command. */
export function explore(pool: ActionOption[], ctx: PolicyContext): ExploreChoice {
  return assistFor(ctx.assist).explore(ctx, pool);
}

/** The oracle-free explorer; `known` is knownMove's answer when the caller has it already. */
export function oracleFreePolicy(ctx: PolicyContext, known: Known = knownMove(ctx)): PolicyChoice {
  const { pool, choice } = known;
  if (choice) return choice;
  const replayable = assistFor(ctx.assist).replayable(ctx, pool);
  const remembered = ctx.learned.rewarding[shortState(ctx.worldHash)]?.filter(replayable) ?? [];
  if (remembered.length) return { command: remembered[0], reason: 'remembered', why: 'it scored here in an earlier episode' };
  return explore(pool, ctx);
}

export function choose(policy: Exclude<PolicyName, 'full'>, ctx: PolicyContext, known?: Known): PolicyChoice {
  return policy === 'random' ? randomPolicy(ctx) : oracleFreePolicy(ctx, known);
}
