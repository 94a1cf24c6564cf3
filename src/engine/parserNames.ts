/**
 * Phrases checked against an Inform parser, for the things whose phrase it does not read as them
 * alone. "examine" with the phrase tells:
 * - The parser's refusal: a parse_name routine that ignores the `name` property. Anchorhead's
 *   fish oil lists "liquid" and "fluid" there, and the routine reads "fish", "oil" and "smelly";
 *   every candidate made with "liquid" is refused, so the oil's uses are never tried.
 * - A guess announced ("(the buffalo chopper)") or a question ("Which do you mean…"): the phrase
 *   fits something else to the parser too, out of the tree's scope. Jericho keys the guessed
 *   reading apart from the plain one (the parser marks more objects on the way), so the plain
 *   phrase becomes the thing's phrase, and a guessed one stays as another wording (see
 *   rephrasings.ts).
 */
import { ARTICLES, POSSESSIVES } from './englishWords';
import type { ExamineCheck } from './templates';
import type { SessionView } from './sessionView';
import { DETERMINERS, objectNouns, printedWords } from './vocabulary';

export interface ParserNames {
  /** Better phrases for some things. */
  phrases: Map<number, string>;
  /** The phrases replaced because the parser guessed them: each thing's other wording. */
  guessed: Map<number, string>;
}

/**
 * Whether a reply starts by naming the thing the parser chose ("(the buffalo chopper)"; "(your
 * purse)", a thing whose name the story gives with a possessive).
 */
export function announcesAGuess(reply: string): boolean {
  return GUESS.test(reply.trimStart());
}

const GUESS = new RegExp(`^\\((${[...ARTICLES, ...POSSESSIVES].join('|')})\\b[^)]*\\)`, 'i');

/** Whether a reply asks which of several things was meant ("Which do you mean, the frotz spell, …"). */
export function asksWhichIsMeant(reply: string): boolean {
  return /^which\b.*\bmean\b/i.test(reply.trimStart());
}

/** A reply that starts by naming the thing the parser chose, or asks which one was meant. */
export function guessedOrAsked(reply: string): 'guessed' | 'asked' | null {
  if (announcesAGuess(reply)) return 'guessed';
  return asksWhichIsMeant(reply) ? 'asked' : null;
}

/**
 * `phrase`: each thing in reach with the phrase the vocabulary gave it. A thing whose phrase
 * shares no word with its printed name and gets the parser's refusal is named by the last word of
 * its printed name that gets an answer; a thing whose phrase the parser guesses or asks about, by
 * the first of its own nouns the parser reads plainly. A word another thing in reach lists is
 * never taken.
 */
export function parserNames(session: SessionView, phrase: ReadonlyMap<number, string>, check: ExamineCheck | null): ParserNames {
  const found: ParserNames = { phrases: new Map(), guessed: new Map() };
  if (!check || !session.story.inform) return found;
  const resolution = session.dictionary.resolution;
  const ids = [...phrase.keys()];
  const namesAnother = (id: number, word: string) => ids.some((other) => other !== id && objectNouns(session, other).includes(word));
  const usable = (id: number, word: string) => !DETERMINERS.has(word) && session.dictionary.has(word) && !namesAnother(id, word);
  // Whether the parser answers "examine" with the word without a guess, a question or its refusal.
  const readPlainly = (word: string) => {
    const reply = check.reply(word);
    return reply !== null && !guessedOrAsked(reply) && check.answer(word) !== check.refusal();
  };
  for (const [id, name] of phrase) {
    const reply = check.reply(name);
    if (reply === null) continue;
    const reading = guessedOrAsked(reply);
    if (reading) {
      const plain = objectNouns(session, id).find((word) => !name.split(' ').includes(word) && usable(id, word) && readPlainly(word));
      if (!plain) continue;
      found.phrases.set(id, plain);
      if (reading === 'guessed') found.guessed.set(id, name);
      continue;
    }
    const printed = printedWords(session, id);
    const stored = new Set(printed.map((p) => p.stored));
    if (name.split(' ').some((word) => stored.has(word.slice(0, resolution)))) continue;
    const refusal = check.refusal();
    if (refusal === null || check.answer(name) !== refusal) continue;
    // Anchorhead's "examine oil" is announced ("(the fish oil)"): any answer but the refusal will do.
    const answered = (word: string) => ![null, refusal].includes(check.answer(word));
    const word = [...printed].reverse().find((p) => usable(id, p.stored) && answered(p.word));
    if (word) found.phrases.set(id, word.word);
  }
  return found;
}
