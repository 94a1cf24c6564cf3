/**
 * The dictionary lookup @read and @tokenise use (src/engine/dictionaryLookup.ts) must parse every
 * command as ZVM's own tokenise does: the same commands (Jericho's walkthroughs, and commands with
 * separators, long, unknown and numeric words) played with each print the same and leave the same
 * memory.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GameSession } from '../../src/engine/session';
import { SuiteFileSchema } from '../../src/schemas/jerichoSuite';
import { describeWithSuite, GAME_FILES } from '../helpers';
import { expectSamePlay, TRICKY_COMMANDS } from './samePlay';

describe('the dictionary lookup', () => {
  it('parses as ZVM does on The Lighthouse (version 5)', () => {
    expectSamePlay(() => GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5')), 'tokenise', [
      ...TRICKY_COMMANDS,
      'open wooden chest',
      'take oil lamp',
      'north',
    ]);
  });

  it('parses as ZVM does on The Ferry (version 8)', () => {
    expectSamePlay(() => GameSession.fromFile(join(GAME_FILES, 'ferry.z8')), 'tokenise', TRICKY_COMMANDS);
  });
});

describeWithSuite('the dictionary lookup on Jericho suite games', (suiteDir) => {
  const suite = SuiteFileSchema.parse(JSON.parse(readFileSync(join(suiteDir, 'suite.json'), 'utf8')));
  // Infocom's parsers, versions 3, 4 and 5 (the two above are Inform's).
  it.each(['zork1', 'trinity', 'sherlock'])('parses as ZVM does on %s', (game) => {
    const entry = suite.find((g) => g.game === game)!;
    const open = () => GameSession.fromFile(join(suiteDir, entry.file), { seed: entry.seed ?? 0 });
    expectSamePlay(open, 'tokenise', [...entry.resetCommands, ...TRICKY_COMMANDS, ...(entry.walkthrough ?? []).slice(0, 60)]);
  });
});
