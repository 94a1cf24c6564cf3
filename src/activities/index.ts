import { createFileActivities } from './files';
import { createGameActivities } from './game';
import { createOracleActivities } from './oracle';
import type { LlmProvider } from '../llm/types';

/** Every activity the worker registers. Names are what the Web UI shows for each step. */
export function createActivities(options: { dataDir: string; llm?: () => LlmProvider }) {
  return { ...createGameActivities(), ...createFileActivities(options.dataDir), ...createOracleActivities(options.llm) };
}

export type Activities = ReturnType<typeof createActivities>;
