/**
 * What the replies of a story say, read as a player reads them, for the `none` explorer (see
 * typed.ts): the exits they name, the things they list, a numbered menu, what to do first, and the
 * parser's refusals — a word it does not know, a thing out of reach, a word that is no verb, a
 * word that names several things. Pure text; no state.
 */

const COMPASS = ['north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest'];
/** "up" and "down" are common words: only these phrasings name them as ways to go. */
const VERTICAL =
  /\b(?:leads?|going|goes|heads?|continues?|winds?|climbs?|descends?|ascends?|way|path|stairs?|staircase|steps|ladder|passage)\s+(up|down)\b|\b(up|down)(?:wards?|stairs)\b/g;

/** Sentences in which a game lists what is in a room or in a thing, apart from its description. */
const LISTING = [
  /\bthere (?:is|are) ([^.!?]*?) here\b/g,
  /\byou (?:can )?(?:also )?see ([^.!?]*?)(?: here)?[.!?]/g,
  /(?:^|[.!?]\s+|\n)(?:on|in|beside|under|near|inside|upon|atop)\b[^.!?\n]*? (?:is|are|sits?|lies?|rests?) ((?:an?|the|some|two|three|several)\b[^.!?\n]*)/g,
  /(?:^|[.!?]\s+|\n)((?:an?|the|some)\b[^.!?\n]*?) (?:is|are|lies|lie|sits|rests) (?:here|on the (?:ground|floor))\b/g,
];
const ARTICLE = /^(?:an?|the|some|two|three|four|five|six|several)\b/;
/** Words after which a listed thing's phrase goes on about it ("an egg encrusted with jewels"). */
const PHRASE_END = /\s(?:with|which|that|who|encrusted|lying|sitting|resting|hanging|apparently|here|on|in)\b/;

/** A reply as two replies are compared: whitespace and case aside. */
export const asCompared = (text: string) => text.toLowerCase().replace(/\s+/g, ' ').trim();

/**
 * The things `text` lists apart from the description (see LISTING), each by the last of `nouns`
 * its phrase holds: "a small bird's nest" is the nest, "a pile of leaves" the leaves.
 */
export function listedNouns(text: string, nouns: readonly string[]): string[] {
  const known = new Set(nouns);
  const out: string[] = [];
  for (const pattern of LISTING)
    for (const match of text.toLowerCase().matchAll(pattern))
      for (const [index, item] of match[1].split(/,\s*(?:and\s+)?|\s+and\s+/).entries()) {
        // After a comma a new thing starts with an article ("a lamp, a note"); anything else goes on about the last one.
        if (index > 0 && !ARTICLE.test(item)) break;
        const phrase = item.split(PHRASE_END)[0];
        const words = phrase.match(/[a-z][a-z-]*[a-z]/g) ?? [];
        const head = words.filter((word) => known.has(word)).pop();
        if (head && !out.includes(head)) out.push(head);
      }
  return out;
}

/** A reply naming what must be done before the command can be ("You'll have to stand up first."). */
const FIRST = /\byou(?:'ll| will|'d| would)? (?:have to|should|need to|must|better|had better) ([a-z][a-z' -]*?) first\b/;

/** The command a reply says to make first, as a player would type it: "get out of the bed" → "get out of bed". */
export function askedFirst(text: string): string | null {
  const match = text.toLowerCase().match(FIRST);
  if (!match) return null;
  const words = match[1].split(/\s+/).filter((word) => !['the', 'a', 'an', 'your'].includes(word));
  return words.length && words.length <= 5 ? words.join(' ') : null;
}

/** A line offering a numbered choice: "[1] Ask about the job", "1) Yes", "2. Leave". */
const CHOICE = /^\s*(?:\[(\d)\]|\((\d)\)|(\d)[.)])\s+\S/gm;
/** A reply offering 0 to leave the menu ("Select an option or 0 to say nothing"). */
const MENU_EXIT = /\b0 to\b|\b0\) (?:exit|quit|leave|back|nothing)/i;

/** The choices `text` offers as a numbered menu (two or more), in order, then "0" when it offers a way out. */
export function menuChoices(text: string): string[] {
  const numbers = [...text.matchAll(CHOICE)].map((match) => match[1] ?? match[2] ?? match[3]);
  const choices = [...new Set(numbers)];
  if (choices.length < 2) return [];
  return MENU_EXIT.test(text) ? [...choices, '0'] : choices;
}

/** `text` lower-cased, "north-east" and "south west" written as the one word a story knows. */
function lowerJoiningDiagonals(text: string): string {
  return text.toLowerCase().replace(/\b(north|south)[- ](east|west)\b/g, '$1$2');
}

/** The story's directions that `text` names as ways to go: the compass words ("north-east" too), and up or down after a word of going. */
export function namedDirections(text: string, directions: readonly string[]): string[] {
  const lower = lowerJoiningDiagonals(text);
  const named = new Set<string>();
  for (const match of lower.matchAll(/[a-z]+/g)) if (COMPASS.includes(match[0])) named.add(match[0]);
  for (const match of lower.matchAll(VERTICAL)) named.add(match[1] ?? match[2]);
  return directions.filter((direction) => named.has(direction));
}

/** Inform's parser on a first word it knows, but not as a verb (gold's "northeast", with no such way in the story). */
const UNKNOWN_VERB = /\bnot a verb i recogni[sz]e\b/;
const UNKNOWN_WORD = [
  /don't know the word "?([a-z-]+)/,
  /(?:doesn't|does not|didn't) (?:know|recogni[sz]e) the word "?([a-z-]+)/,
  /the word "?([a-z-]+)"? (?:isn't|is not) (?:one I|in my)/,
];
const NOT_IN_REACH = [
  /can't see any(?: such thing|thing like that| ([a-z-]+))/,
  /(?:you )?(?:don't|do not|can't|cannot) see (?:any|that|the|a|an)\b/,
  /(?:there is|there's|i see) no\b/,
  /(?:isn't|is not|aren't|are not) (?:here|available)/,
  /no such thing/,
  /(?:nothing|not) (?:like that|by that name)/,
];

/**
 * The words of `command` the parser's `reply` refused: the word it names as unknown, or every
 * noun of the command when it says no such thing is in reach. Empty when the reply refuses nothing.
 */
export function refusedWords(command: string, reply: string, nouns: readonly string[]): string[] {
  const text = reply.toLowerCase();
  for (const pattern of UNKNOWN_WORD) {
    const match = text.match(pattern);
    if (match) return [match[1]];
  }
  if (!NOT_IN_REACH.some((pattern) => pattern.test(text))) return [];
  const words = command.toLowerCase().split(/\s+/);
  return nouns.filter((noun) => words.includes(noun));
}

/** A parser asking which thing a word meant: "Which do you mean, the front door or the bedroom door?", "Which spell do you mean, the gnusto spell, …?". */
const WHICH = /\bwhich\b[^.?!]*\bdo you mean\b/;

/**
 * The words of `command` the parser could not tell apart in `reply` (lower-case): those of its
 * `nouns` the question names two or more times ("door" in "the front door or the bedroom door").
 * Typed alone they get the same question; the question's other words name each thing apart.
 */
export function ambiguousWords(command: string, reply: string, nouns: readonly string[]): string[] {
  if (!WHICH.test(reply)) return [];
  const words = reply.match(/[a-z][a-z-]*/g) ?? [];
  const typed = new Set(command.toLowerCase().split(/\s+/));
  return nouns.filter((noun) => typed.has(noun) && words.filter((word) => word === noun).length >= 2);
}

/** Whether a reply (lower-case) says the parser does not know a word of the command. */
export function saysUnknownWord(reply: string): boolean {
  return UNKNOWN_WORD.some((pattern) => pattern.test(reply));
}

/** Whether a reply (lower-case) says the command's first word is no verb (see UNKNOWN_VERB). */
export function saysNotAVerb(reply: string): boolean {
  return UNKNOWN_VERB.test(reply);
}

/** A reply saying the player stands in the dark (read lower-cased). */
export const DARK = /\b(?:pitch[- ](?:black|dark)|dark place|too dark to see|it is dark\b|in the dark\b)/;

/** Whether a reply says the player stands in the dark (any case). */
export const saysDark = (reply: string) => DARK.test(reply.toLowerCase());

/**
 * A reply telling of a way into the dark ("a rickety staircase descending into darkness", "a ladder
 * leading down into the darkness", "west (into the dark tunnel)"). In the suite's own runs the
 * words come where a way leads on (Zork I's trap door, Gold's and Temple's stairs, Karn's hatch),
 * and also where something falls or wanders off into the dark: read as a hint, not as a fact.
 */
const DARK_AHEAD = /\binto (?:the )?(?:inky )?dark(?:ness)?\b/;

/** Whether a reply tells of a way into the dark (any case). */
export const saysDarkAhead = (reply: string) => DARK_AHEAD.test(reply.toLowerCase());

/**
 * A reply saying the player sees nothing at all: not a room told as "dark and quiet" (snacktime's
 * sleeping room, described in full) nor "almost too dark to see" (wishbringer's glen), which DARK
 * reads as dark. In the Jericho suite's own runs this reads only darkness.
 */
const PITCH_DARK = /\bpitch[- ](?:black|dark)\b|(?<!almost )\btoo dark to see\b/;

/** Whether a reply says the player sees nothing for the dark (any case). */
export const saysPitchDark = (reply: string) => PITCH_DARK.test(reply.toLowerCase());

/** Moves a list of a room's exits leaves out though they may work ("in" a thing, "out" of one). */
export const AROUND_EXITS: ReadonlySet<string> = new Set(['in', 'out']);
/** A sentence giving every way out of a room: "Obvious exits: North, East.", "You can only go east.", "The only way out is south." */
const WHOLE_EXITS = /\b(?:obvious exits|you can (?:only )?go|the only (?:ways?|exits?)|the exits? (?:is|are)|there are exits)\b/;

/**
 * The directions `text` gives as every way out of the room (see WHOLE_EXITS), "in" and "out"
 * aside; empty when it gives none (a sentence of that form naming no direction: "so you can go home").
 */
export function wholeExits(text: string, directions: readonly string[]): string[] {
  const sentences = lowerJoiningDiagonals(text).split(/(?<=[.!?])\s+|\n+/);
  // In such a sentence "up" and "down" are ways to go however they are put ("Obvious exits: North, Up.").
  const words = new Set(sentences.filter((sentence) => WHOLE_EXITS.test(sentence)).flatMap((sentence) => sentence.match(/[a-z]+/g) ?? []));
  return directions.filter((direction) => words.has(direction) && !AROUND_EXITS.has(direction));
}
