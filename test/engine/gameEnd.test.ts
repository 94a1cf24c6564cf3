/**
 * A game's end seen without its binding: the question a story asks once it has ended (RESTART,
 * RESTORE or QUIT) tells a story grue has no facts about that it is over, where the victory
 * banners differ from game to game ("*** You have left Las Mesas ***").
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GameSession } from '../../src/engine';
import { asksFinalQuestion } from '../../src/engine/finalQuestion';
import { SuiteFileSchema } from '../../src/schemas/jerichoSuite';
import { readTrace } from '../../bench/jerichoTrace';
import { describeWithSuite } from '../helpers';

describe('asksFinalQuestion', () => {
  it('finds the question in the last lines of a reply, its words in any order', () => {
    expect(asksFinalQuestion('*** You have died ***\n\nWould you like to RESTART, RESTORE a saved game or QUIT?\n> ')).toBe(true);
    expect(asksFinalQuestion('Do you wish to: (1) Quit, (2) Restart, (3) Restore, (4) Hints, (5) Undo ?')).toBe(true);
    expect(asksFinalQuestion('Would you like to:\n   RESTORE your place,\n   RESTART the story, or\n   QUIT for now?\n')).toBe(true);
  });

  it('does not take a reply that names the words apart, or long before its end, for the question', () => {
    expect(asksFinalQuestion('You can RESTART or QUIT at any time.')).toBe(false);
    expect(asksFinalQuestion('Type RESTART, RESTORE or QUIT.\nOne.\nTwo.\nThree.\nFour.\nFive.')).toBe(false);
  });
});

describeWithSuite('The end of every walkthrough, seen without a binding', (suiteDir) => {
  const suite = SuiteFileSchema.parse(JSON.parse(readFileSync(join(suiteDir, 'suite.json'), 'utf8')));

  it("asks the final question only in replies where Jericho's own run had ended", () => {
    const games = readdirSync(join(suiteDir, 'traces')).map((file) => file.replace(/\.json$/, ''));
    const found = { atEnd: 0, before: [] as string[] };
    for (const game of games) {
      readTrace(suiteDir, game).steps.forEach((step, index) => {
        if (!asksFinalQuestion(step.observation)) return;
        if (step.done) found.atEnd++;
        else found.before.push(`${game} step ${index}`);
      });
    }
    expect(found.before).toEqual([]);
    expect(found.atEnd).toBeGreaterThanOrEqual(35);
  });

  // Their endings: Inform's question (9:05), Infocom's (Wishbringer), numbered answers
  // (Sherlock), each answer on a line of its own (Seastalker); none has a victory text grue knows.
  it.each([['905'], ['wishbringer'], ['sherlock'], ['seastalker']])('%s ends on its last step, and not before', (game) => {
    const entry = suite.find((g) => g.game === game)!;
    const session = GameSession.fromFile(join(suiteDir, entry.file), { seed: entry.seed ?? 0, binding: null });
    for (const command of entry.resetCommands) session.step(command);
    const done = entry.walkthrough!.map((command) => session.step(command).done);
    expect(done.indexOf(true)).toBe(done.length - 1);
    expect(session.step('look').done).toBe(true);
  });
});
