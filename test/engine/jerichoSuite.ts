import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { ROOT } from '../helpers';

/** The Jericho suite's story files and traces, beside the clone (../shared/jericho; see its README). */
export const JERICHO_SUITE = resolve(ROOT, '..', 'shared', 'jericho');

/**
 * Path to a story of the Jericho suite, or null (with a note in the test log) when it is not there.
 * In CI a missing story is an error: a suite that skipped its tests must not pass as green.
 */
export function jerichoStory(file: string): string | null {
  const path = join(JERICHO_SUITE, file);
  if (existsSync(path)) return path;
  if (process.env.CI) {
    throw new Error(`${file} is missing at ${path}: CI runs with ../shared beside the clone (see ../shared/jericho/README.md).`);
  }
  // eslint-disable-next-line no-console
  console.warn(`skipping tests that need ${file}: not found at ${path} (see ../shared/jericho/README.md)`);
  return null;
}

/** describe() when the suite's story exists, describe.skip() with a logged reason otherwise. */
export function describeWithJerichoStory(file: string, name: string, fn: (path: string) => void): void {
  const path = jerichoStory(file);
  if (path) describe(name, () => fn(path));
  else describe.skip(`${name} (needs ../shared/jericho/${file})`, () => it('skipped', () => undefined));
}
