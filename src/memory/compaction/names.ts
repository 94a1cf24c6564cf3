/**
 * How names and commands are compared, and how free text is made safe to keep. One place, so the
 * merge, the metrics and the renderer can never disagree about whether two names are the same.
 */
import { COMPASS_SHORT_FORMS } from '../../text';

const ARTICLES = new Set(['the', 'a', 'an']);

/**
 * The key a name is stored and compared under: lower case, punctuation and the articles "the",
 * "a", "an" dropped, words single-spaced. "The Brass Lantern!" and "brass lantern" share a key.
 */
export function nameKey(name: string): string {
  return name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ')
    .filter((word) => word && !ARTICLES.has(word))
    .join(' ');
}

export const sameName = (left: string, right: string): boolean => nameKey(left) === nameKey(right);

const DIRECTION_ABBREVIATIONS: Readonly<Record<string, string>> = {
  ...COMPASS_SHORT_FORMS,
  'north east': 'northeast',
  'north west': 'northwest',
  'south east': 'southeast',
  'south west': 'southwest',
};

const MOVE_VERBS = /^(go|walk|run|head|move) (?=\S)/;

/** The key of a movement command: "go N", "n" and "North" are all "north"; other commands as nameKey. */
export function commandKey(command: string): string {
  const key = nameKey(command).replace(MOVE_VERBS, '');
  return DIRECTION_ABBREVIATIONS[key] ?? key;
}

/**
 * The one item among `candidates` that `name` refers to: the same key, or else the only candidate
 * whose words contain the name's words or are contained in them ("sword" → "elvish sword",
 * "brass lantern lit" → "brass lantern"). Null when none or more than one fits: a guess between
 * two objects would corrupt the model.
 */
export function resolveItemName(name: string, candidates: readonly string[]): string | null {
  const key = nameKey(name);
  if (!key) return null;
  const exact = candidates.find((candidate) => nameKey(candidate) === key);
  if (exact !== undefined) return exact;
  const words = new Set(key.split(' '));
  const overlapping = candidates.filter((candidate) => {
    const candidateWords = nameKey(candidate).split(' ').filter(Boolean);
    if (!candidateWords.length) return false;
    const candidateSet = new Set(candidateWords);
    return candidateWords.every((word) => words.has(word)) || [...words].every((word) => candidateSet.has(word));
  });
  return overlapping.length === 1 ? overlapping[0] : null;
}

/** Printable ASCII without quotes or backslashes: what the model stores costs one JSON byte a character. */
export const SAFE_TEXT = /^[\x20-\x21\x23-\x5b\x5d-\x7e]*$/;

/**
 * Text fit to keep: control characters and runs of space become one space, double quotes become
 * single, backslashes and non-ASCII are dropped (story text is ASCII; anything else is noise), and
 * it is cut to `max` characters at a word boundary when one is near.
 */
export function cleanText(text: string, max: number): string {
  const safe = text
    .replace(/"/g, "'")
    .replace(/[\\]/g, '')
    .replace(/[^\x20-\x7e]+/g, (run) => (/\s/.test(run) ? ' ' : ''))
    .replace(/ {2,}/g, ' ')
    .trim();
  if (safe.length <= max) return safe;
  const cut = safe.slice(0, max);
  const lastSpace = cut.lastIndexOf(' ');
  return (lastSpace >= max * 0.6 ? cut.slice(0, lastSpace) : cut).trim();
}
