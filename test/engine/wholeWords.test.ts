import { spellOut, wholeWord } from '../../src/engine/wholeWords';

describe('whole words for the dictionary cut ones', () => {
  it('spells a verb cut to six letters as the verb, not a commoner noun it begins (inflation, memories)', () => {
    expect(wholeWord('inflat', true)).toBe('inflate');
    expect(wholeWord('memori', true)).toBe('memorize');
    expect(wholeWord('diagno', true)).toBe('diagnose');
  });

  it('spells compass words and prepositions from their own lists (northern is commoner than northeast)', () => {
    expect(wholeWord('northe', false)).toBe('northeast');
    expect(wholeWord('throug', false)).toBe('through');
    expect(wholeWord('starbo', false)).toBe('starboard');
  });

  it('keeps a word that is whole already, and one English has no word for', () => {
    expect(wholeWord('unlock', true)).toBe('unlock');
    expect(wholeWord('gnusto', true)).toBe('gnusto');
  });

  it("touches only the words as long as the dictionary's resolution", () => {
    expect(spellOut('inflat plastic with pump', 6)).toBe('inflate plastic with pump');
    expect(spellOut('look throug window', 9)).toBe('look throug window');
    expect(spellOut('wind wristwatc', 9)).toBe('wind wristwatch');
    expect(spellOut('take all', 6)).toBe('take all');
  });
});
