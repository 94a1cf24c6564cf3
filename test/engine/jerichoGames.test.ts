/**
 * Games of the Jericho suite that once stopped grue's engine. The whole suite is replayed by
 * jerichoSuite.test.ts (and `npm run bench:suite`); these are the regressions worth a test of their own.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GameSession } from '../../src/engine';
import { SuiteFileSchema, type SuiteGame } from '../../src/schemas/jerichoSuite';
import { readTrace } from '../../bench/jerichoTrace';
import { replayGame } from '../../bench/suiteReplay';
import { describeWithSuite } from '../helpers';

/** Whitespace collapsed and a trailing prompt dropped: how text is laid out is not under test here. */
const normalise = (text: string) => text.replace(/\s+/g, ' ').trim().replace(/ ?>$/, '');

describeWithSuite('Jericho suite games that stopped the engine', (suiteDir) => {
  const suite = SuiteFileSchema.parse(JSON.parse(readFileSync(join(suiteDir, 'suite.json'), 'utf8')));
  const entry = (game: string): SuiteGame => suite.find((g) => g.game === game)!;

  it('Ludicorp loads, and its dictionary decodes, the word cut off mid-escape included', () => {
    const session = GameSession.fromFile(join(suiteDir, entry('ludicorp').file), { seed: entry('ludicorp').seed ?? 0 });
    const words = session.dictionary.words;
    expect(words.length).toBeGreaterThan(500);
    for (const word of words) expect(word.text).toMatch(/^[\x20-\x7e]{1,9}$/);
    // Its Z-characters spell "coffee", then an A2 shift and a ZSCII escape with one of its two halves.
    expect(session.dictionary.at(29831)?.text).toBe('coffee');
    expect(session.step('look').observation.length).toBeGreaterThan(0);
  });

  it('Seastalker plays its whole walkthrough without a fault (it used to stop at step 120)', () => {
    const run = replayGame(entry('seastalker'), suiteDir);
    expect(run.fault).toBeUndefined();
    expect(run.played).toBe(entry('seastalker').walkthrough!.length);
  });

  it("Seastalker answers step 120, where a routine returns a value from its empty stack, with the text Jericho's frotz printed", () => {
    const game = entry('seastalker');
    const trace = readTrace(suiteDir, 'seastalker');
    const session = GameSession.fromFile(join(suiteDir, game.file), { seed: game.seed ?? 0 });
    for (const command of [...game.resetCommands, ...game.walkthrough!.slice(0, 120)]) session.step(command);
    expect(trace.steps[120].command).toBe(game.walkthrough![120]);
    // The caller of that routine goes on to Tip's line rather than returning quietly.
    expect(normalise(session.step(game.walkthrough![120]).observation)).toBe(normalise(trace.steps[120].observation));
  });
  it('The Zork Undiscovered Underground keeps its object tree whole when the game moves object 0 (frotz does nothing)', () => {
    const game = entry('ztuu');
    const session = GameSession.fromFile(join(suiteDir, game.file), { seed: game.seed ?? 0 });
    const toBackstage = 'northeast/east/east/east/take yellow lens from footlights/east/open steamer trunk'.split('/');
    for (const command of toBackstage) session.step(command);
    // Throwing the coin backstage runs @insert_obj 0 Backstage: ZVM made object 0 Backstage's only
    // child, and the next "west" then searched Backstage's children for the player forever.
    session.step('throw coin');
    const backstage = session.groundTruth().location.id;
    const names = session.objects.children(session.mem, backstage).map((id) => session.objects.name(session.mem, id));
    expect(names).toEqual(expect.arrayContaining(['yourself', 'steamer trunk', 'curtain']));
    expect(session.step('west').observation).toMatch(/^Stage/);
  });
});
