/**
 * The memory modules every episode runs, in the order their context sections appear. Adding a
 * module: a folder under src/memory/, one line here, and (if it does LLM or engine work) its
 * activity in src/activities/memory.ts.
 */
import type { AnyMemoryModule } from './module';
import { compactionModule } from './compaction';
import { mapModule } from './map';

export const MEMORY_MODULES: readonly AnyMemoryModule[] = [compactionModule, mapModule];

export { defineMemoryModule } from './module';
export type { AnyMemoryModule, MemoryModule, TurnView } from './module';
