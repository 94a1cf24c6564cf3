/**
 * The words a story's own parser accepts for each object, read from the story's data rather than
 * guessed from printed names: an Inform object's `name` property (property 1, every word usable
 * alone or together), an Infocom object's SYNONYM property (nouns) and ADJECTIVE property
 * (adjective numbers, looked up in the dictionary). A printed name like "driver's license" or
 * "set of keys" says little about what the parser takes; these tables say exactly.
 */
import { ARTICLES, DEMONSTRATIVES, LIGHT_DESCRIPTORS, OBJECT_PRONOUNS, POSSESSIVES } from './englishWords';
import type { SessionView } from './sessionView';

export interface ObjectVocabulary {
  /** Words that name the object on their own. */
  nouns: string[];
  /** Words that may qualify a noun ("brass lantern"). For Inform every name word can do both. */
  adjectives: string[];
}

/** Words that are in some objects' vocabularies but read badly as a qualifier ("of keys"). */
const FILLER = new Set<string>(ARTICLES);

/**
 * Words a parser reads as a determiner or a pronoun before it looks for a noun (the descriptors
 * and pronouns of Inform's English library, English.h: LanguageDescriptors, LanguagePronouns).
 * A game may list one among an object's names ("my" for the player's owner), but "examine my"
 * asks "What do you want to examine?": such a word never heads a phrase while the object has another.
 */
export const DETERMINERS = new Set<string>([...ARTICLES, ...POSSESSIVES, ...DEMONSTRATIVES, ...OBJECT_PRONOUNS, ...LIGHT_DESCRIPTORS]);

/** Inform 6 compiles `name` as common property 1 in every game. */
const INFORM_NAME_PROPERTY = 1;

// Infocom dictionary: part-of-speech flags and which data byte holds the adjective number.
const PS_ADJECTIVE = 0x20;
const P1_MASK = 0x03;
const P1_ADJECTIVE = 0x02;

interface VocabularyLayout {
  nounProperty: number | null;
  adjectiveProperty: number | null;
  /** Later Infocom stories list adjectives as dictionary addresses, earlier ones as adjective numbers. */
  adjectivesAsWords: boolean;
  adjectiveWords: Map<number, string>;
}

const layouts = new WeakMap<SessionView, VocabularyLayout>();

function dictionaryWords(session: SessionView, data: Uint8Array): string[] | null {
  if (data.length < 2 || data.length % 2) return null;
  const words: string[] = [];
  for (let i = 0; i < data.length; i += 2) {
    const entry = session.dictionary.at((data[i] << 8) | data[i + 1]);
    if (!entry) return null;
    words.push(entry.text);
  }
  return words;
}

/**
 * Which property holds the vocabulary. Inform: property 1. Infocom: the property whose data is a
 * list of dictionary addresses on the most objects (SYNONYM; its number differs between games),
 * and the property whose bytes are all adjective numbers on the most objects (ADJECTIVE).
 */
function layoutOf(session: SessionView): VocabularyLayout {
  const cached = layouts.get(session);
  if (cached) return cached;
  const { objects, mem, dictionary } = session;
  const adjectiveWords = new Map<number, string>();
  let layout: VocabularyLayout;
  if (session.story.inform) {
    layout = { nounProperty: INFORM_NAME_PROPERTY, adjectiveProperty: null, adjectivesAsWords: false, adjectiveWords };
  } else {
    for (const entry of dictionary.words) {
      const flags = entry.data[0];
      if (!(flags & PS_ADJECTIVE)) continue;
      const number = (flags & P1_MASK) === P1_ADJECTIVE ? entry.data[1] : entry.data[2];
      if (!adjectiveWords.has(number)) adjectiveWords.set(number, entry.text);
    }
    // A property counts for an object when its data decodes as words (dictionary addresses, or
    // adjective numbers) and one of them is in the object's printed name: an ACTION routine's
    // address can decode as two adjective numbers by chance, but not as words of its name.
    const nounVotes = new Map<number, number>();
    const adjectiveVotes = new Map<number, number>();
    const vote = (votes: Map<number, number>, num: number) => votes.set(num, (votes.get(num) ?? 0) + 1);
    for (let id = 1; id <= objects.count; id++) {
      const named = new Set(printedWords(session, id).map((p) => p.stored));
      for (const { num, data } of objects.properties(mem, id)) {
        const words = dictionaryWords(session, data);
        if (words) {
          if (words.some((w) => named.has(w))) vote(nounVotes, num);
          continue;
        }
        const bytes = Array.from(data);
        if (bytes.length > 0 && bytes.every((b) => adjectiveWords.has(b)) && bytes.some((b) => named.has(adjectiveWords.get(b)!))) {
          vote(adjectiveVotes, num);
        }
      }
    }
    const top = (votes: Map<number, number>, except?: number | null) =>
      [...votes.entries()].filter(([num]) => num !== except).sort((a, b) => b[1] - a[1] || a[0] - b[0])[0]?.[0] ?? null;
    const nounProperty = top(nounVotes);
    // Later Infocom stories list adjectives as dictionary words too: the runner-up word list.
    const numbered = top(adjectiveVotes, nounProperty);
    const worded = numbered === null ? top(nounVotes, nounProperty) : null;
    layout = { nounProperty, adjectiveProperty: numbered ?? worded, adjectivesAsWords: worded !== null, adjectiveWords };
  }
  layouts.set(session, layout);
  return layout;
}

/** The object's words as the parser stores them (dictionary spelling, truncated to its resolution). */
export function objectVocabulary(session: SessionView, id: number): ObjectVocabulary {
  const layout = layoutOf(session);
  const { objects, mem } = session;
  const nouns = listedNouns(session, id);
  if (nouns.length === 0) {
    // No vocabulary table: the object is matched by a routine (Inform's parse_name; 9:05's
    // doors). The printed name's dictionary words are the best evidence left.
    const words = printedWords(session, id)
      .map((p) => p.stored)
      .filter((w) => !FILLER.has(w) && session.dictionary.has(w));
    return { nouns: words, adjectives: words };
  }
  if (session.story.inform) return { nouns, adjectives: nouns };
  const adjectiveData = layout.adjectiveProperty === null ? null : objects.property(mem, id, layout.adjectiveProperty);
  const adjectives = !adjectiveData
    ? []
    : layout.adjectivesAsWords
      ? (dictionaryWords(session, adjectiveData) ?? [])
      : Array.from(adjectiveData).flatMap((b) => layout.adjectiveWords.get(b) ?? []);
  return { nouns, adjectives };
}

/** The words the object's vocabulary property lists (none when it has no such property). */
function listedNouns(session: SessionView, id: number): string[] {
  const { nounProperty } = layoutOf(session);
  const data = nounProperty === null ? null : session.objects.property(session.mem, id, nounProperty);
  return (data && dictionaryWords(session, data)) ?? [];
}

/** Whether the object lists words of its own (Infocom's SYNONYM), not only a printed name the dictionary happens to hold. */
export function hasListedNouns(session: SessionView, id: number): boolean {
  return listedNouns(session, id).length > 0;
}

/** Words listed in an object's vocabulary property (Inform's `name`, Infocom's SYNONYM). */
export function objectNouns(session: SessionView, id: number): string[] {
  return objectVocabulary(session, id).nouns;
}

/** The printed name's words, each with the dictionary form the parser would match. */
export function printedWords(session: SessionView, id: number): Array<{ word: string; stored: string }> {
  const resolution = session.dictionary.resolution;
  return session.objects
    .name(session.mem, id)
    .toLowerCase()
    .split(/[^a-z0-9'-]+/)
    .filter(Boolean)
    .map((word) => ({ word, stored: word.slice(0, resolution) }));
}

/**
 * A phrase the parser takes for each object, chosen so that objects in scope together do not
 * share it (a shared noun makes the parser ask "Which do you mean...?"): the object's noun that
 * its printed name ends with (else its first noun), qualified by the printed name's word before
 * it when the parser accepts that word, or, when other objects share the noun, by one of its
 * adjectives they lack (in Inform, failing that, by a word of its printed name they lack).
 * Words are spelled as printed where the dictionary's truncated
 * form matches ("wristwatch", not "wristwatc"). Objects with no vocabulary get no phrase.
 */
export function nounPhrases(session: SessionView, ids: number[]): Map<number, string> {
  const vocab = new Map(ids.map((id) => [id, objectVocabulary(session, id)] as const));
  const out = new Map<number, string>();
  for (const id of ids) {
    const { nouns, adjectives } = vocab.get(id)!;
    if (nouns.length === 0) continue;
    const printed = printedWords(session, id);
    const spell = (stored: string) => printed.find((p) => p.stored === stored)?.word ?? stored;
    let headIndex = printed.length - 1;
    while (headIndex >= 0 && !nouns.includes(printed[headIndex].stored)) headIndex--;
    const head = headIndex >= 0 ? printed[headIndex].stored : (nouns.find((w) => !DETERMINERS.has(w)) ?? nouns[0]);
    const rivals = ids.filter((other) => other !== id && vocab.get(other)!.nouns.includes(head));
    const distinguishes = (word: string) =>
      rivals.every((other) => !vocab.get(other)!.adjectives.includes(word) && !vocab.get(other)!.nouns.includes(word));
    const tellsApart = (word: string) => word !== head && !DETERMINERS.has(word) && distinguishes(word);
    const qualifies = (word: string | undefined): word is string => !!word && adjectives.includes(word) && tellsApart(word);
    // A qualifier that names another object in scope on its own may be read as that object: with
    // the coffee in the coffee cup, "drop coffee cup" is "drop coffee" and a word left over.
    const namesAnother = (word: string) => ids.some((other) => other !== id && vocab.get(other)!.nouns.includes(word));
    const safe = (word: string | undefined): word is string => qualifies(word) && !namesAnother(word);
    // The printed name's own qualifier reads best ("brass lantern"); with rivals, any that tells them apart.
    const before = headIndex > 0 ? printed[headIndex - 1].stored : undefined;
    const words = printed.map((p) => p.stored);
    // Inform's parse_name routines often take the printed name's other words ("key to the house":
    // "house key"), which the name property does not list: the last resort where nothing listed
    // tells the rivals apart. A word the parser refuses only costs the candidates their effect.
    const printedOnly = (word: string) => session.story.inform && session.dictionary.has(word) && tellsApart(word) && !namesAnother(word);
    const qualifier = safe(before)
      ? before
      : rivals.length
        ? (words.find(safe) ??
          adjectives.find(safe) ??
          words.find(qualifies) ??
          adjectives.find(qualifies) ??
          [...words].reverse().find(printedOnly))
        : undefined;
    out.set(id, qualifier ? `${spell(qualifier)} ${spell(head)}` : spell(head));
  }
  return out;
}

/** One object's phrase, on its own (no rivals considered). */
export function nounPhrase(session: SessionView, id: number): string | null {
  return nounPhrases(session, [id]).get(id) ?? null;
}
