import { createProvider } from '../llm';
import type { LlmProvider } from '../llm/types';
import { createCompactionActivities } from './compaction';
import { createFileActivities } from './files';
import { createGameActivities } from './game';
import { createKnowledgeActivities } from './knowledge';
import { createOracleActivities } from './oracle';
import { StorySessions } from './stories';
import { createThoughtboxActivities } from './thoughtbox';

/**
 * Every activity the worker registers. Names are what the Web UI shows for each step. All LLM
 * activities share one provider: one embedded model loaded per worker, so its threads never
 * compete with a second copy for the cores.
 */
export function createActivities(options: { dataDir: string; llm?: () => LlmProvider }) {
  let provider: LlmProvider | null = null;
  const llm = () => (provider ??= (options.llm ?? createProvider)());
  const stories = new StorySessions();
  return {
    ...createGameActivities(stories),
    ...createFileActivities(options.dataDir),
    ...createOracleActivities(llm),
    ...createCompactionActivities(llm),
    ...createThoughtboxActivities(llm),
    ...createKnowledgeActivities(llm, stories),
  };
}

export type Activities = ReturnType<typeof createActivities>;
