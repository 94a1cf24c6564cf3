/**
 * Games of the Jericho suite (../shared/jericho) that once stopped grue's engine. The whole suite
 * is checked by scripts/check-jericho-suite.ts; these are the regressions worth a unit test.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GameSession } from '../../src/engine';
import { JERICHO_SUITE_DIR, playSuiteGame, suiteEntry } from '../../bench/jerichoSuite';

/** describe() when the suite's story is there; in CI a missing story is an error, not a skip. */
function describeWithJerichoGame(file: string, name: string, fn: (path: string) => void): void {
  const path = join(JERICHO_SUITE_DIR, file);
  if (existsSync(path)) {
    describe(name, () => fn(path));
    return;
  }
  if (process.env.CI) throw new Error(`${file} is missing at ${path}: CI runs with ../shared/jericho beside the clone.`);
  // eslint-disable-next-line no-console
  console.warn(`skipping tests that need ${file}: not found at ${path}`);
  describe.skip(`${name} (needs ../shared/jericho/${file})`, () => it('skipped', () => undefined));
}

/** Whitespace collapsed and a trailing prompt dropped: how text is printed is not under test here. */
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/ ?>$/, '');

describeWithJerichoGame('ludicorp.z5', 'Ludicorp', (path) => {
  it('loads, and its dictionary decodes, the word cut off mid-escape included', () => {
    const session = GameSession.fromFile(path, { seed: suiteEntry('ludicorp').seed ?? 0 });
    const words = session.dictionary.words;
    expect(words.length).toBeGreaterThan(500);
    for (const word of words) expect(word.text).toMatch(/^[\x20-\x7e]{1,9}$/);
    // Its Z-characters spell "coffee", then an A2 shift and a ZSCII escape with one of its two halves.
    expect(session.dictionary.at(29831)?.text).toBe('coffee');
    expect(session.step('look').observation.length).toBeGreaterThan(0);
  });
});

describeWithJerichoGame('seastalker.z3', 'Seastalker', (path) => {
  const entry = suiteEntry('seastalker');
  const trace = JSON.parse(readFileSync(join(JERICHO_SUITE_DIR, 'traces', 'seastalker.json'), 'utf8')) as {
    steps: Array<{ command: string; observation: string }>;
  };

  it('plays its whole walkthrough without a fault (it used to stop at step 120)', () => {
    const run = playSuiteGame(entry);
    expect(run.fault).toBeNull();
    expect(run.steps).toBe(entry.walkthrough.length);
  });

  it("answers step 120, where a routine returns a value from its empty stack, with the text Jericho's frotz printed", () => {
    const session = GameSession.fromFile(path, { seed: entry.seed ?? 0 });
    for (const command of [...entry.resetCommands, ...entry.walkthrough.slice(0, 120)]) session.step(command);
    expect(trace.steps[120].command).toBe(entry.walkthrough[120]);
    // The caller of that routine goes on to Tip's line rather than returning quietly.
    expect(normalise(session.step(entry.walkthrough[120]).observation)).toBe(normalise(trace.steps[120].observation));
  });
});
