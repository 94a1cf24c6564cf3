import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { GAME_FILES_DIR } from '../paths';
import { StoryFileError } from './errors';

const STORY_EXTENSIONS = ['.z3', '.z4', '.z5', '.z8', '.zblorb', '.zlb'];

/** Games that ship inside npm packages the project depends on. */
function packagedGames(): Record<string, string> {
  const out: Record<string, string> = {};
  try {
    out.advent = join(require.resolve('glkote-term/package.json'), '..', 'tests', 'advent.z5');
  } catch {
    /* glkote-term missing: nothing packaged */
  }
  return out;
}

/** Every story grue can find by name: the project's game_files and packaged games. */
export function availableGames(): Record<string, string> {
  const out: Record<string, string> = { ...packagedGames() };
  if (existsSync(GAME_FILES_DIR)) {
    for (const f of readdirSync(GAME_FILES_DIR).sort()) {
      const ext = STORY_EXTENSIONS.find((e) => f.endsWith(e));
      if (ext) out[f.slice(0, -ext.length)] = join(GAME_FILES_DIR, f);
    }
  }
  return out;
}

/** A story path from a path or a short name (`lighthouse`, `advent`). */
export function resolveStory(nameOrPath: string): string {
  if (existsSync(nameOrPath)) return nameOrPath;
  const games = availableGames();
  const key = nameOrPath.toLowerCase().replace(/\.(z\d|zblorb|zlb)$/, '');
  const alias: Record<string, string> = { adventure: 'advent' };
  const found = games[key] ?? games[alias[key] ?? ''];
  if (found && existsSync(found)) return found;
  throw new StoryFileError(
    'STORY_NOT_FOUND',
    `Unknown game "${nameOrPath}": not a file, and not one of the games grue knows (${Object.keys(games).join(', ')}). ` +
      'Pass a path to a Z-machine story file (.z3/.z5/.z8), or drop one into game_files/.',
  );
}
