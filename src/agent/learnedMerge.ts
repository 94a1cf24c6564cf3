/**
 * Episodes of a parallel campaign start from the same learned state and finish in any order, so
 * what each learned is merged into the campaign's state instead of replacing it. The merge is
 * three-way: `added` is what the episode learned relative to `started` (the state it was given),
 * applied onto `current` (the campaign's state now, which may already hold its siblings' lessons).
 * Counts add, sets unite, the best score is the maximum. A memory module's state has no generic
 * merge (a knowledge base, a compacted world model), so a module the episode changed takes that
 * episode's state: the last episode to finish wins, per module.
 */
import { Dynamics, MAX_DYNAMICS_ENTRIES } from './dynamics';
import { Reliability } from './reliability';
import { LIMITS } from './state';
import { pushOnce } from './newest';
import { keepNewest } from './newest';
import { LOSING_MOVES, MAX_LEARNED_STATES, type LearnedState } from './learned';
import { mergedMaps, withPayingVisit } from './placePlans';

export function mergeLearned(current: LearnedState, started: LearnedState, finished: LearnedState): LearnedState {
  return {
    episodes: current.episodes + Math.max(0, finished.episodes - started.episodes),
    bestScore: Math.max(current.bestScore, finished.bestScore),
    rewarding: mergeRewarding(current.rewarding, finished.rewarding),
    dynamics: mergeDynamics(current.dynamics, started.dynamics, finished.dynamics),
    reliability: mergeReliability(current.reliability, started.reliability, finished.reliability),
    overallGoal: finished.overallGoal !== started.overallGoal ? finished.overallGoal : current.overallGoal,
    memory: mergeMemory(current.memory, started.memory, finished.memory),
    deaths: unite(current.deaths, finished.deaths, LIMITS.deaths),
    cells: unite(current.cells, finished.cells, LIMITS.learnedCells),
    deadlyPlaces: unite(current.deadlyPlaces, finished.deadlyPlaces, LIMITS.deadlyPlaces),
    frontier: unite(current.frontier, finished.frontier, LIMITS.frontier),
    deadlyMoves: unite(current.deadlyMoves, finished.deadlyMoves, LIMITS.deadlyMoves),
    ...(current.darkRooms || finished.darkRooms
      ? { darkRooms: unite(current.darkRooms ?? [], finished.darkRooms ?? [], LIMITS.darkRooms) }
      : {}),
    ...(current.payingVisits || finished.payingVisits
      ? { payingVisits: (finished.payingVisits ?? []).reduce(withPayingVisit, current.payingVisits ?? []) }
      : {}),
    ...(current.losingMoves || finished.losingMoves
      ? { losingMoves: unite(current.losingMoves ?? [], finished.losingMoves ?? [], LOSING_MOVES) }
      : {}),
    ...(current.roomMap || finished.roomMap ? { roomMap: mergedMaps(current.roomMap ?? {}, finished.roomMap ?? {}) } : {}),
    ...(current.frontierRooms || finished.frontierRooms
      ? { frontierRooms: unite(current.frontierRooms ?? [], finished.frontierRooms ?? [], LIMITS.frontier) }
      : {}),
  };
}

function unite<T extends string | number>(current: readonly T[], finished: readonly T[], max: number): T[] {
  let united = [...current];
  for (const item of finished) united = pushOnce(united, item, max);
  return united;
}

function mergeRewarding(current: LearnedState['rewarding'], finished: LearnedState['rewarding']): LearnedState['rewarding'] {
  const merged = { ...current };
  for (const [state, commands] of Object.entries(finished)) {
    merged[state] = [...new Set([...(merged[state] ?? []), ...commands])];
  }
  return keepNewest(merged, MAX_LEARNED_STATES);
}

/** What the episode observed (its counts minus those it started with) added to the campaign's model. */
function mergeDynamics(current: Dynamics, started: Dynamics, finished: Dynamics): Dynamics {
  const entries = { ...current.entries };
  for (const [key, entry] of Object.entries(finished.entries)) {
    const before = started.entries[key];
    const count = entry.count - (before?.count ?? 0);
    if (count <= 0) continue;
    const next: Record<string, number> = { ...(entries[key]?.next ?? {}) };
    for (const [state, seen] of Object.entries(entry.next)) {
      const added = seen - (before?.next[state] ?? 0);
      if (added > 0) next[state] = (next[state] ?? 0) + added;
    }
    const base = entries[key];
    delete entries[key]; // re-inserted last: most recently used, as observe() keeps it
    entries[key] = {
      count: (base?.count ?? 0) + count,
      rewardSum: (base?.rewardSum ?? 0) + entry.rewardSum - (before?.rewardSum ?? 0),
      next,
    };
  }
  return { entries: keepNewest(entries, MAX_DYNAMICS_ENTRIES) };
}

function mergeReliability(current: Reliability, started: Reliability, finished: Reliability): Reliability {
  const merged = { ...current };
  for (const type of Object.keys(finished) as (keyof Reliability)[]) {
    merged[type] = {
      tried: current[type].tried + Math.max(0, finished[type].tried - started[type].tried),
      helped: current[type].helped + Math.max(0, finished[type].helped - started[type].helped),
    };
  }
  return merged;
}

function mergeMemory(
  current: Record<string, unknown>,
  started: Record<string, unknown>,
  finished: Record<string, unknown>,
): Record<string, unknown> {
  const merged = { ...current };
  for (const [module, state] of Object.entries(finished)) {
    if (JSON.stringify(state) !== JSON.stringify(started[module])) merged[module] = state;
  }
  return merged;
}
