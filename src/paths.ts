import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';

/** The project root (the folder holding package.json), whether running from src/ or dist/. */
export function projectRoot(): string {
  let dir = __dirname;
  for (let i = 0; i < 6; i++) {
    if (existsSync(join(dir, 'package.json')) && existsSync(join(dir, 'game_files'))) return dir;
    dir = dirname(dir);
  }
  return process.cwd();
}

export const GAME_FILES_DIR = join(projectRoot(), 'game_files');

/** Where grue caches what it builds or fetches once per machine (the Temporal CLI, models): GRUE_CACHE or ~/.cache/grue. */
export function cacheDir(): string {
  return process.env.GRUE_CACHE ?? join(homedir(), '.cache', 'grue');
}
