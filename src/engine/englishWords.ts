/**
 * English words a game's parser reads as something other than the name of a thing: articles,
 * possessives, demonstratives, pronouns. They come from Inform's English library (English.h:
 * LanguageDescriptors, LanguagePronouns) and ZIL's global IT object; each engine module builds the
 * set it needs from these groups, so a word added here reaches every reader the same way.
 */

/** Articles and the partitive "of": never the noun of a phrase. */
export const ARTICLES = ['of', 'the', 'a', 'an', 'some'] as const;
/** Pointing words: stand for a thing named elsewhere. */
export const DEMONSTRATIVES = ['this', 'these', 'that', 'those'] as const;
/** Pronouns for a thing or person named earlier. */
export const OBJECT_PRONOUNS = ['it', 'them', 'him', 'her'] as const;
/** Words for the player or the one spoken to. */
export const PERSONS = ['me', 'myself', 'you', 'yourself', 'us'] as const;
/** Possessives Inform reads as descriptors. */
export const POSSESSIVES = ['my', 'your', 'his', 'her', 'hers', 'its', 'their'] as const;
/** Descriptors Inform reads as a light state ("take lit lamp"). */
export const LIGHT_DESCRIPTORS = ['lit', 'lighted', 'unlit'] as const;
/** Words for many things or any one of them. */
export const QUANTIFIERS = ['all', 'everything', 'both', 'one'] as const;
/**
 * Prepositions and place adverbs a grammar line may hold, longer than six letters (the cut of a
 * version-3 dictionary): "throug" is "through", not "throughout".
 */
export const PREPOSITIONS = [
  'against',
  'between',
  'through',
  'together',
  'outside',
  'overboard',
  'upstairs',
  'downstairs',
  'underneath',
  'beneath',
  'towards',
  'without',
  'starboard',
] as const;
