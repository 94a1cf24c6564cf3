/**
 * Model-based exploitation of the dynamics model (seed 004: "exploit the dynamics model"), over
 * more than one step: a breadth-first search of the learned transition graph from the current
 * world state to the nearest state-action that paid a reward in an earlier episode. It lets an
 * episode replay what earlier episodes found (e.g. Zork's window, then the trap door) and spend
 * its remaining turns beyond it, without asking the oracle on the way.
 *
 * Score is part of the world hash, so a reward once collected is not found again: states before
 * it are unreachable afterwards.
 */
import type { Dynamics } from './dynamics';
import { shortState } from './dynamics';

export interface Plan {
  /** The first action of the shortest known path. */
  action: string;
  /** Steps to the rewarding action, including it. */
  steps: number;
  reward: number;
}

interface Edge {
  action: string;
  next: string;
  reward: number;
}

/** The learned graph: for each state, each action's most likely next state and mean reward. */
function graph(d: Dynamics): Map<string, Edge[]> {
  const out = new Map<string, Edge[]>();
  for (const [k, e] of Object.entries(d.entries)) {
    const bar = k.indexOf('|');
    const state = k.slice(0, bar);
    const action = k.slice(bar + 1);
    let next = '';
    let best = 0;
    for (const [s, n] of Object.entries(e.next)) if (n > best) [next, best] = [s, n];
    if (next === state && e.rewardSum <= 0) continue;
    const list = out.get(state) ?? [];
    list.push({ action, next, reward: e.rewardSum / e.count });
    out.set(state, list);
  }
  return out;
}

export interface GoalPlan {
  /** The first action of the shortest known path to the goal. */
  action: string;
  steps: number;
  goal: string;
}

/**
 * The shortest known path from `from` to the first of `goals` (short world hashes, in the order
 * the caller prefers them) that the learned graph reaches, whose first action passes `usable`.
 * Paths that lost points on the way (a death, a penalty) are not taken.
 */
export function planToState(
  d: Dynamics,
  from: string,
  goals: readonly string[],
  usable: (action: string) => boolean,
  maxDepth = 60,
): GoalPlan | null {
  if (goals.length === 0) return null;
  const g = graph(d);
  const start = shortState(from);
  const reached = new Map<string, { first: string; steps: number }>([[start, { first: '', steps: 0 }]]);
  let frontier = [start];
  for (let depth = 1; depth <= maxDepth && frontier.length; depth++) {
    const nextFrontier: string[] = [];
    for (const state of frontier) {
      for (const edge of g.get(state) ?? []) {
        if (edge.reward < 0 || (depth === 1 && !usable(edge.action)) || reached.has(edge.next)) continue;
        reached.set(edge.next, { first: depth === 1 ? edge.action : reached.get(state)!.first, steps: depth });
        nextFrontier.push(edge.next);
      }
    }
    frontier = nextFrontier;
  }
  for (const goal of goals) {
    const path = reached.get(goal);
    if (path && path.steps > 0) return { action: path.first, steps: path.steps, goal };
  }
  return null;
}

/**
 * The shortest known path from `from` to a rewarding action, whose first action passes
 * `usable` (a currently valid, safe action not already retried too often this episode).
 * Among paths of equal length, the larger reward wins; ties go to the first learned.
 */
export function planToReward(d: Dynamics, from: string, usable: (action: string) => boolean, maxDepth = 40): Plan | null {
  const g = graph(d);
  const start = shortState(from);
  const firstAction = new Map<string, string>([[start, '']]);
  let frontier = [start];
  for (let depth = 1; depth <= maxDepth && frontier.length; depth++) {
    let found: Plan | null = null;
    const nextFrontier: string[] = [];
    for (const state of frontier) {
      for (const edge of g.get(state) ?? []) {
        const first = depth === 1 ? edge.action : firstAction.get(state)!;
        if (edge.reward < 0 || (depth === 1 && !usable(edge.action))) continue;
        if (edge.reward > 0 && (!found || edge.reward > found.reward)) found = { action: first, steps: depth, reward: edge.reward };
        if (!firstAction.has(edge.next)) {
          firstAction.set(edge.next, first);
          nextFrontier.push(edge.next);
        }
      }
    }
    if (found) return found;
    frontier = nextFrontier;
  }
  return null;
}
