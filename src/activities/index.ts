import { createFileActivities } from './files';
import { createGameActivities } from './game';

/** Every activity the worker registers. Names are what the Web UI shows for each step. */
export function createActivities(options: { dataDir: string }) {
  return { ...createGameActivities(), ...createFileActivities(options.dataDir) };
}

export type Activities = ReturnType<typeof createActivities>;
