/**
 * What the search puts where a line takes "all" or a number, in Inform stories: the counts its
 * parser reads ("take two", "drop six"), the plural words of the things in scope, and each line
 * that takes a number filled with those counts. Infocom's parsers read none of these.
 */
import type { GameSession } from './session';
import { isNumberToken } from './grammarTemplates';
import type { Template } from './templates';
import { objectNouns } from './vocabulary';

export const takesNumber = (t: Template) => t.words.some(isNumberToken);

/**
 * Lines that take a number ("set dial to", "bother"), once with each number word the scene shows
 * (the counts; see countWords). Inform's parser keeps the number it read in a global, which some
 * games watch (Spiritwrak's "set pan to nine", "bother nine").
 */
export function withNumbers(numbered: Template[], numbers: string[]): Template[] {
  return numbered.flatMap((t) =>
    numbers.map((number) => ({
      ...t,
      words: t.words.map((w) => (isNumberToken(w) ? number : w)),
    })),
  );
}

/** The flag Inform's compiler sets on a dictionary word given as plural (its library's DICT_PLUR, Parser.h). */
const INFORM_PLURAL_FLAG = 0x04;

/**
 * Plural words for the objects, in Inform stories: their names' words the dictionary marks plural,
 * and the dictionary's English plurals of their nouns ("page" → "pages", "box" → "boxes", "berry" →
 * "berries"), which older stories read in a parse_name routine and leave unmarked (Theatre's pages).
 */
export function pluralWords(session: GameSession, objects: number[]): string[] {
  if (!session.grammar.format.startsWith('inform')) return [];
  const { dictionary } = session;
  const marked = (word: string) => ((dictionary.lookup(word)?.data[0] ?? 0) & INFORM_PLURAL_FLAG) !== 0;
  const plurals = (noun: string) => [`${noun}s`, `${noun}es`, ...(noun.endsWith('y') ? [`${noun.slice(0, -1)}ies`] : [])];
  const words = objects.flatMap((id) => objectNouns(session, id));
  const found = [
    ...words.filter(marked),
    ...words
      .filter((w) => w.length >= 3 && w.length < dictionary.resolution)
      .flatMap(plurals)
      .filter((w) => dictionary.has(w) && !words.includes(w)),
  ];
  return [...new Set(found)];
}

/** Inform's number words (its library's LanguageNumbers), by value. */
const NUMBER_WORDS = [
  '',
  ...'one two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen sixteen seventeen eighteen nineteen twenty'.split(
    ' ',
  ),
];

/**
 * The counts an Inform parser reads where "all" may go, as the story's number words. Its parser
 * takes the first N of what "all" would, so each count drops or takes a different set.
 * `countWords`: two, and the size of each group of alike things (same phrase, same parent) in
 * scope, which the game lists as one ("three balsa wood beams"). `heldCounts`: the other counts up
 * to the number of things held directly ("drop six"). Infocom's parsers read no such count.
 */
export function countWords(
  session: GameSession,
  objects: number[],
  phrase: Map<number, string>,
  parents: Map<number, number>,
  held: readonly number[],
): { countWords: string[]; heldCounts: string[] } {
  if (!session.grammar.format.startsWith('inform')) return { countWords: [], heldCounts: [] };
  const groups = new Map<string, number>();
  for (const id of objects) {
    const name = phrase.get(id);
    if (name === undefined) continue;
    const group = `${parents.get(id)} ${name}`;
    groups.set(group, (groups.get(group) ?? 0) + 1);
  }
  // Two, the smallest count, always: the parser takes the first two of whatever "all" would ("take two").
  const listed = new Set([2, ...[...groups.values()].filter((n) => n >= 2)]);
  const heldSet = new Set(held);
  const heldDirectly = held.filter((id) => !heldSet.has(parents.get(id) ?? 0)).length;
  const others: number[] = [];
  for (let n = 3; n <= heldDirectly; n++) if (!listed.has(n)) others.push(n);
  const words = (counts: Iterable<number>) =>
    [...counts]
      .filter((n) => n < NUMBER_WORDS.length)
      .sort((a, b) => a - b)
      .map((n) => NUMBER_WORDS[n])
      .filter((word) => session.dictionary.has(word));
  return { countWords: words(listed), heldCounts: words(others) };
}
