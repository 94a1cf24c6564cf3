/**
 * What a player without the valid-action list (the `none` assist) may learn from the story file
 * itself: its movement words, its grammar's command shapes, and which words of a reply its
 * dictionary knows as nouns. The grammar and dictionary are decoded by grammar.ts and
 * dictionary.ts; nothing here runs the game.
 */
import type { Lexicon } from '../schemas/game';
import { COMPASS_SHORT_FORMS } from '../text';
import { templates } from './grammarTemplates';
import { DEMONSTRATIVES, OBJECT_PRONOUNS, PERSONS, QUANTIFIERS } from './englishWords';
import { STANDARD_DIRECTIONS } from './grammar';
import type { GameSession } from './session';
import type { SessionView } from './sessionView';
import { inWorldCommands } from './outOfWorld';
import { objectVocabulary } from './vocabulary';

/** The dictionary flag both Infocom's (PS?OBJECT) and Inform's compilers set on nouns. */
const NOUN_FLAG = 0x80;
/** Nouns that name the player or stand for other nouns: a command on them says nothing about the world. */
const NOT_THINGS = new Set<string>([...DEMONSTRATIVES, ...PERSONS, 'self', ...OBJECT_PRONOUNS, ...QUANTIFIERS]);

/** Nouns kept per reply, at most. */
export const MAX_REPLY_NOUNS = 24;

// The compass words (STANDARD_DIRECTIONS, from grammar.ts) are shown whole: a truncated or abbreviated dictionary word is expanded.
function wholeDirection(word: string): string {
  if (COMPASS_SHORT_FORMS[word]) return COMPASS_SHORT_FORMS[word];
  return STANDARD_DIRECTIONS.find((d) => d.startsWith(word) && word.length >= 4) ?? word;
}

/** A template as text: its words, with `$` for each object slot ("put $ in $"). */
const patternOf = (words: ReadonlyArray<string | { kind: string }>) => words.map((w) => (typeof w === 'string' ? w : '$')).join(' ');

export function storyLexicon(session: GameSession): Lexicon {
  const grammar = session.grammar;
  const directions = [...new Set(grammar.directions.map(wholeDirection))];
  const patterns = new Set<string>();
  // One shape per action and object count: lines that differ only in where the parser looks read
  // the same to a player, and the verb prior was learned over these shapes.
  for (const template of templates(grammar, session.dictionary.resolution, { bySearch: false })) {
    patterns.add(patternOf(template.words));
    if (template.allWords) patterns.add(patternOf(template.allWords).replace('$', 'all'));
  }
  const inWorld = inWorldCommands(session.dictionary.resolution);
  return { directions, templates: [...patterns].filter((p) => !directions.includes(p) && inWorld(p)) };
}

const objectWordsCache = new WeakMap<SessionView, Set<string>>();

/**
 * Every word some object's vocabulary holds (Inform's `name`, Infocom's SYNONYM; see vocabulary.ts),
 * as the dictionary stores it. Inform's compiler flags nearly every word as a noun ("the", "its"),
 * so the dictionary's flags alone cannot say which words name things.
 */
function objectWords(session: SessionView): Set<string> {
  const cached = objectWordsCache.get(session);
  if (cached) return cached;
  const words = new Set<string>();
  for (let id = 1; id <= session.objects.count; id++) for (const noun of objectVocabulary(session, id).nouns) words.add(noun);
  objectWordsCache.set(session, words);
  return words;
}

/** The words of `text` that name some object of the story, in the order the text names them. */
export function replyNouns(session: SessionView, text: string): string[] {
  const known = objectWords(session);
  const nouns: string[] = [];
  for (const match of text.toLowerCase().matchAll(/[a-z][a-z-]*[a-z]/g)) {
    const word = match[0];
    if (word.length < 3 || NOT_THINGS.has(word) || nouns.includes(word)) continue;
    const entry = session.dictionary.lookup(word);
    // A direction the reply names ("a path leads north") is kept too: it names an exit.
    const direction = STANDARD_DIRECTIONS.includes(word);
    if (entry && (direction || (entry.data[0] & NOUN_FLAG && known.has(entry.text)))) nouns.push(word);
    if (nouns.length >= MAX_REPLY_NOUNS) break;
  }
  return nouns;
}
