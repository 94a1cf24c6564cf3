/**
 * grue plays a story as frotz plays it inside Jericho: the same random numbers for the same seed,
 * the same header (so games print the same text), "press a key" openings pressed, and the screen
 * as frotz shows it (upper-window text that is part of a turn, text before a screen clear).
 * Each case is a story of the Jericho suite at a step of Jericho's own walkthrough.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GameSession } from '../../src/engine';
import { FrotzRandom } from '../../src/engine/frotzRandom';
import { SuiteFileSchema, type SuiteGame } from '../../src/schemas/jerichoSuite';
import { describeWithSuite } from '../helpers';

describe('FrotzRandom', () => {
  it("draws from frotz's generator: A = 0x015a4e35 * A + 1, bits 16-30", () => {
    const random = new FrotzRandom(12);
    let a = 12n;
    for (let i = 0; i < 1000; i++) {
      a = (0x015a4e35n * a + 1n) & 0xffffffffffffffffn;
      const expected = (Number((a >> 16n) & 0x7fffn) % 100) + 1;
      expect(random.random(100)).toBe(expected);
    }
  });

  it("counts 1..n in the standard's predictable mode, and reseeds from the interpreter seed on @random 0 and restart", () => {
    const random = new FrotzRandom(7);
    const first = [random.random(1000), random.random(1000)];
    expect(random.random(-3)).toBe(0);
    expect([1, 2, 3, 4, 5, 6, 7].map(() => random.random(10))).toEqual([1, 2, 3, 1, 2, 3, 1]);
    random.random(0);
    expect([random.random(1000), random.random(1000)]).toEqual(first);
    random.random(-5000);
    const reseeded = random.random(1000);
    random.restart();
    expect([random.random(1000), random.random(1000)]).toEqual(first);
    expect(new FrotzRandom(5000).random(1000)).toBe(reseeded);
  });

  it('carries its state through a snapshot', () => {
    const random = new FrotzRandom(3);
    random.random(6);
    const saved = random.state;
    const next = [random.random(6), random.random(6), random.random(6)];
    const other = new FrotzRandom(99);
    other.state = saved;
    expect([other.random(6), other.random(6), other.random(6)]).toEqual(next);
  });
});

describeWithSuite('stories of the Jericho suite, played as frotz plays them', (suiteDir) => {
  const suite = SuiteFileSchema.parse(JSON.parse(readFileSync(join(suiteDir, 'suite.json'), 'utf8')));
  const entry = (game: string): SuiteGame => suite.find((g) => g.game === game)!;

  /** A session of the game with Jericho's seed, after its reset commands and the first `steps` walkthrough commands. */
  function playedTo(game: string, steps: number): GameSession {
    const g = entry(game);
    const session = GameSession.fromFile(join(suiteDir, g.file), { seed: g.seed ?? 0 });
    for (const command of [...g.resetCommands, ...g.walkthrough!.slice(0, steps)]) session.step(command);
    return session;
  }

  it("draws the random numbers Jericho draws: Zork I's thief and troll go the same way, to 350 points", () => {
    const g = entry('zork1');
    const session = playedTo('zork1', g.walkthrough!.length);
    expect(session.score).toBe(g.walkthroughScore);
  });

  it('presses the key a "press any key" opening waits for, so the first command is read as a command', () => {
    const session = GameSession.fromFile(join(suiteDir, entry('trinity').file), { seed: 0 });
    expect(session.intro).toMatch(/\[Press any key to begin\.\][\s\S]*Palace Gate/);
    expect(session.step('look').observation).toMatch(/^Palace Gate/);
  });

  it('shows a sign the game draws in the upper window (Sherlock: READ SIGN) and a fresh status line after it', () => {
    const g = entry('sherlock');
    const index = g.walkthrough!.indexOf('READ SIGN');
    const session = playedTo('sherlock', index);
    const read = session.step('READ SIGN');
    expect(read.observation).toMatch(/"Many monarchs are buried in\s+Westminster\. But only one died here\./);
    expect(read.observation).toMatch(/In that Jerusalem shall Harry die\."/);
    expect(session.statusLine).toMatch(/^\s*Jerusalem Chamber\s+Saturday\s+10:02:00 a\.m\.\s+Score:\s+55$/);
  });

  it('shows a quotation box (Trinity: examine sundial) and upper-case text as the game prints it', () => {
    const g = entry('trinity');
    const session = playedTo('trinity', g.walkthrough!.indexOf('examine sundial'));
    expect(session.step('examine sundial').observation).toMatch(
      /"And 'the wabe' is the grass-plot round\s+a sun-dial, I suppose\?" said Alice/,
    );
    const notice = playedTo('trinity', g.walkthrough!.indexOf('examine notice'));
    expect(notice.step('examine notice').observation).toMatch(/The words DO NOT WALK ON THE GRASS are sternly printed/);
  });

  it('keeps the text a turn printed before it cleared the screen (Trinity, through the white door)', () => {
    const session = playedTo('trinity', 48);
    const turn = session.step(entry('trinity').walkthrough![48]);
    expect(turn.observation).toMatch(/retorts the voice with cold amusement\. "Now come along\."[\s\S]*T {4}R {4}I {4}N {4}I {4}T {4}Y/);
  });
});
