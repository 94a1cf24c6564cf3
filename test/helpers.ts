import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');
export const SHARED_GAMES = resolve(ROOT, '..', 'shared', 'games');
export const GAME_FILES = join(ROOT, 'game_files');

/** Path to a story in ../shared/games, or null (with a note in the test log) when it is not there. */
export function sharedGame(file: string): string | null {
  const path = join(SHARED_GAMES, file);
  if (existsSync(path)) return path;
  // eslint-disable-next-line no-console
  console.warn(`skipping tests that need ${file}: not found at ${path} (see ../shared/games/README.md)`);
  return null;
}

/** describe() when the shared story exists, describe.skip() with a logged reason otherwise. */
export function describeWithGame(file: string, name: string, fn: (path: string) => void): void {
  const path = sharedGame(file);
  if (path) describe(name, () => fn(path));
  else describe.skip(`${name} (needs ../shared/games/${file})`, () => it('skipped', () => undefined));
}

export { ZORK_ROUTE } from '../bench/routes';
