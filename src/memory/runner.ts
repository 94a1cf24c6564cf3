/**
 * Runs every memory module the same way, on the episode's map of module states (module name →
 * state): each turn's bookkeeping, the work each says is due, the merge of its result, a failure,
 * the record of the turn, and the start of an episode. Pure: the workflow runs the activities.
 */
import { MEMORY_MODULES } from './index';
import type { AnyMemoryModule, ModuleWork, TurnView } from './module';
import type { EpisodeConfig } from '../schemas/episode';

/** Each module's state, by module name. */
export type MemoryStates = Record<string, unknown>;

export interface MemoryWork extends ModuleWork {
  module: string;
}

/** A module's work is asked for at most this many times a turn (an update, checks of what it learned, the wisdom). */
export const MAX_WORK_ROUNDS = 4;

export const memoryModuleNames = (modules: readonly AnyMemoryModule[] = MEMORY_MODULES) => modules.map((m) => m.name);

function moduleNamed(name: string, modules: readonly AnyMemoryModule[]): AnyMemoryModule {
  const module = modules.find((m) => m.name === name);
  if (!module) throw new Error(`no memory module named ${name}`);
  return module;
}

/** Every module's bookkeeping from the turn just played (`observe`). */
export function observeMemory(memory: MemoryStates, view: TurnView, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): MemoryStates {
  const next = { ...memory };
  for (const module of modules) next[module.name] = module.observe(next[module.name], view);
  return next;
}

/** Every module's maintenance-time bookkeeping (`prepare`), before any work is asked for. */
export function prepareMemory(memory: MemoryStates, view: TurnView, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): MemoryStates {
  let next = memory;
  for (const module of modules) if (module.prepare) next = { ...next, [module.name]: module.prepare(next[module.name], view) };
  return next;
}

/** The module's work due now, or null. */
export function nextWork(
  memory: MemoryStates,
  view: TurnView,
  moduleName: string,
  modules: readonly AnyMemoryModule[] = MEMORY_MODULES,
): MemoryWork | null {
  const module = moduleNamed(moduleName, modules);
  if (!module.activities.length) return null;
  const work = module.due(memory[module.name], view);
  if (!work) return null;
  if (!module.activities.includes(work.activity))
    throw new Error(
      `memory module ${module.name} asked for ${work.activity}, which is not one of its activities (${module.activities.join(', ')})`,
    );
  return { module: module.name, ...work };
}

/** The first work due now of each module, in module order (benchmarks; the workflow asks module by module). */
export function dueWork(memory: MemoryStates, view: TurnView, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): MemoryWork[] {
  return modules.map((m) => nextWork(memory, view, m.name, modules)).filter((w): w is MemoryWork => w !== null);
}

/** The states with the module's result merged in, and the files its state is now viewed as (if any). */
export function applyWork(
  memory: MemoryStates,
  work: MemoryWork,
  result: unknown,
  view: TurnView,
  modules: readonly AnyMemoryModule[] = MEMORY_MODULES,
): { memory: MemoryStates; files: Record<string, unknown> | null } {
  const module = moduleNamed(work.module, modules);
  const state = module.apply(memory[module.name], result, view, work);
  const files = module.files ? module.files(state) : null;
  return { memory: { ...memory, [module.name]: state }, files: files && Object.keys(files).length ? files : null };
}

/** The module's work failed after its retries: it keeps its last good state (and notes the failure). */
export function workFailed(
  memory: MemoryStates,
  work: MemoryWork,
  view: TurnView,
  modules: readonly AnyMemoryModule[] = MEMORY_MODULES,
): MemoryStates {
  const module = moduleNamed(work.module, modules);
  if (!module.failed) return memory;
  return { ...memory, [module.name]: module.failed(memory[module.name], view, work) };
}

/** What the modules add to the record of `turn`. */
export function memoryRecord(
  memory: MemoryStates,
  turn: number,
  modules: readonly AnyMemoryModule[] = MEMORY_MODULES,
): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const module of modules)
    if (module.record && memory[module.name] !== undefined) Object.assign(record, module.record(memory[module.name], turn));
  return record;
}

/**
 * Each module's starting state: what the previous episode of a campaign left (its learned state's `memory`),
 * under this episode's config.
 */
export function initialMemory(
  previous: { memory: MemoryStates },
  config: EpisodeConfig,
  modules: readonly AnyMemoryModule[] = MEMORY_MODULES,
): MemoryStates {
  return Object.fromEntries(modules.map((m) => [m.name, m.initial(previous.memory[m.name] as never, config)]));
}
