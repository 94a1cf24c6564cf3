import { bindingFor, GameSession } from '../../src/engine';
import { readNumber } from '../../src/engine/groundTruth';
import { describeWithJerichoStory, jerichoStory } from '../helpers';

/**
 * Ground truth on games of the Jericho suite, against the facts of Jericho's own bindings (data in
 * game_files/bindings/, read from its C source) and its recorded walkthrough readings.
 */
describeWithJerichoStory('cutthroat.z3', 'Cutthroats: a v3 game whose status line shows the time, not the score', (path) => {
  // Jericho's walkthrough, to the first points (traces/cutthroat.json: score 10 after the sixth command).
  const WALK = ['look out window', 'wind watch', 'get out of bed', 'read note', 'open dresser', 'get passbook and room key'];

  it('reads the score from its binding, not the hour in global 1', () => {
    const s = GameSession.fromFile(path);
    expect(s.groundTruthMode).toBe('binding');
    expect(s.statusLine).toMatch(/Time: 8:00 AM/);
    expect(s.score).toBe(0);
    const steps = WALK.map((command) => s.step(command));
    expect(steps.map((step) => step.score)).toEqual([0, 0, 0, 0, 0, 10]);
    expect(steps[5].inventory.map((item) => item.name)).toEqual(['room key', "Mariners' Trust passbook", 'wrist watch']);
  });

  it('without a binding the score is not the hour either: it is the global the SCORE command prints', () => {
    const s = GameSession.fromFile(path, { binding: null });
    expect(s.groundTruthMode).toBe('status-line');
    expect(s.score).toBe(0);
    const steps = WALK.map((command) => s.step(command));
    expect(steps.map((step) => step.score)).toEqual([0, 0, 0, 0, 0, 10]);
    expect(s.player).toBe(bindingFor(s.story.md5)!.playerObject);
  });
});

describe('the player of a game without a binding, found by experiment (binding: null)', () => {
  // Lost Pig cannot leave its first room, Party Foul's host holds the player in place, Snack Time,
  // Trinity and Sherlock open on a key press, The Temple's scenery travels with the player.
  const GAMES = ['lostpig.z8', 'partyfoul.z8', 'snacktime.z8', 'trinity.z4', 'temple.z5', 'sherlock.z5'];
  it.each(GAMES)('%s: the object Jericho names', (file) => {
    const path = jerichoStory(file);
    if (!path) return;
    const s = GameSession.fromFile(path, { binding: null });
    expect(s.binding).toBeUndefined();
    expect(s.groundTruthProbe!.playerObject).toBe(bindingFor(s.story.md5)!.playerObject);
    expect(s.player).toBe(bindingFor(s.story.md5)!.playerObject);
  });

  it('Lost Pig: the inventory is what Grunk carries', () => {
    const path = jerichoStory('lostpig.z8');
    if (!path) return;
    const s = GameSession.fromFile(path, { binding: null });
    expect(s.groundTruthProbe!.playerFoundBy).toBe('inventory');
    expect(s.groundTruth()).toMatchObject({ location: { name: 'Outside' }, inventory: [{ name: 'torch' }, { name: 'pants' }] });
  });
});

describe('scores kept where a binding says (RAM bytes, words, signed, or the status line)', () => {
  it.each([
    // Sherlock keeps its score in the low byte of global 27; the status line draws it from there.
    ['sherlock.z5', 739, [42], 42],
    // Theatre: a 16-bit word.
    ['theatre.z5', 17577, [0x01, 0x02], 258],
    // Seastalker: a signed byte (frotz reads it as a C char).
    ['seastalker.z3', 9310, [0xfb], -5],
  ])('%s: RAM at %d', (file, addr, bytes, score) => {
    const path = jerichoStory(file);
    if (!path) return;
    const s = GameSession.fromFile(path);
    expect(s.groundTruthMode).toBe('binding');
    s.mem.set(bytes, addr);
    expect(s.score).toBe(score);
    expect(s.groundTruth().score).toBe(score);
  });

  it("Afflicted's score is its sanitation rating on the status line, negated", () => {
    const path = jerichoStory('afflicted.z8');
    if (!path) return;
    const s = GameSession.fromFile(path);
    // Jericho's walkthrough: the rating drops by three on entering the restaurant (traces/afflicted.json).
    const walk = ['read paper', 'e', 'search grate', 'search window', 'knock on window', 'w', 'n'];
    const scores = walk.map((command) => s.step(command).score);
    expect(s.statusLine).toMatch(/Rating:\s*-3/);
    expect(scores).toEqual([0, 0, 0, 0, 0, 0, 3]);
  });

  it('reads numbers as data describes them', () => {
    const mem = new Uint8Array(64);
    const screen = { statusLine: '9:00 am  19th Street  Rating:-12', victory: false };
    mem.set([0xff, 0xfe], 10);
    expect(readNumber({ kind: 'ram', addr: 10, offset: 0, signed: true }, mem, 0, screen)).toBe(-2);
    expect(readNumber({ kind: 'ram', addr: 10, offset: 0, signed: false }, mem, 0, screen)).toBe(65534);
    // Before the globals (at 12 here), a byte is read alone.
    expect(readNumber({ kind: 'byte', addr: 11, offset: 0, signed: false }, mem, 12, screen)).toBe(254);
    expect(readNumber({ kind: 'global', index: 5, offset: 1, signed: true }, mem, 0, screen)).toBe(-1);
    expect(readNumber({ kind: 'status', pattern: 'Rating:\\s*(-?\\d+)', scale: -1 }, mem, 0, screen)).toBe(12);
    expect(readNumber({ kind: 'status', pattern: 'Score:\\s*(-?\\d+)', scale: 1 }, mem, 0, screen)).toBe(0);
    expect(readNumber({ kind: 'victory', value: 1 }, mem, 0, { ...screen, victory: true })).toBe(1);
  });

  it('reads the low byte of a global as Jericho does, but a negative global as the game prints it', () => {
    const mem = new Uint8Array(64);
    const screen = { statusLine: '', victory: false };
    const lowByteOfGlobal5 = { kind: 'byte', addr: 11, offset: 0, signed: false } as const;
    mem.set([0xff, 0xfe], 10);
    expect(readNumber(lowByteOfGlobal5, mem, 0, screen)).toBe(-2);
    // 256 keeps Jericho's wrap to 0: only a negative word differs from the byte.
    mem.set([0x01, 0x00], 10);
    expect(readNumber(lowByteOfGlobal5, mem, 0, screen)).toBe(0);
    mem.set([0x00, 0xc8], 10);
    expect(readNumber(lowByteOfGlobal5, mem, 0, screen)).toBe(200);
    // The high byte of a global is no low byte: read alone.
    mem.set([0xff, 0xfe], 10);
    expect(readNumber({ kind: 'byte', addr: 10, offset: 0, signed: false }, mem, 0, screen)).toBe(255);
  });

  it('Night: a score lost below zero reads as the game prints it (-1), not as its low byte (255)', () => {
    const path = jerichoStory('night.z5');
    if (!path) return;
    const s = GameSession.fromFile(path);
    expect(s.groundTruthMode).toBe('binding');
    // Jericho's walkthrough to the printer without "listen" (2 points), then the printer dropped: -5.
    const walk = [
      ...'ne/s/e/open box/pull hose/take light/w/n/w/d/d/e/s/e/open door/s/n/w/n/w/u/e/s'.split('/'),
      ...'push fountain/open panel/turn on light/go panel/go panel/e/z/z'.split('/'),
      ...Array(5).fill('follow mouse'),
      'get printer',
    ];
    for (const command of walk) s.step(command);
    expect(s.score).toBe(4);
    const end = s.step('drop printer');
    expect(end.observation).toMatch(/you scored -1 out of a possible 10/);
    expect(end.score).toBe(-1);
  });
});
