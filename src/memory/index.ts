/**
 * The memory modules every episode runs, in the order their context sections appear. Adding a
 * module: a folder under src/memory/, one line here, and (if it does LLM or engine work) its
 * activities in src/activities/ (registered in src/activities/index.ts).
 */
import type { AnyMemoryModule } from './module';
import { compactionModule } from './compaction';
import { knowledgeModule } from './knowledge';
import { mapModule } from './map';

export const MEMORY_MODULES: readonly AnyMemoryModule[] = [compactionModule, knowledgeModule, mapModule];

export { defineMemoryModule } from './module';
export type { AnyMemoryModule, MemoryActivity, MemoryModule, ModuleWork, TurnView } from './module';
