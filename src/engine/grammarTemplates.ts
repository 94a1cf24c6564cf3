/**
 * The story's grammar lines as the search's templates: one per action and object slots as the
 * parser reads them, in the most familiar phrasing (see `templates`), with the other lines of the
 * same action and slots kept as other wordings. Built from the grammar alone; candidates.ts fills
 * them with what is in scope.
 */
import { INFORM_ANIMATE_ATTRIBUTE } from './bindings';
import { type Grammar, type GrammarLine, STANDARD_DIRECTIONS, type Token } from './grammar';
import { type Template, wordingOf } from './templates';

/**
 * A display preference only: when several dictionary words name the same verb, show the most
 * familiar. Candidate generation never depends on this list.
 */
const FAMILIAR_VERBS = [
  ...STANDARD_DIRECTIONS,
  'take',
  'put',
  'drop',
  'open',
  'close',
  'examine',
  'look',
  'read',
  'go',
  'enter',
  'exit',
  'climb',
  'turn',
  'push',
  'pull',
  'move',
  'give',
  'show',
  'ask',
  'tell',
  'unlock',
  'lock',
  'attack',
  'kill',
  'eat',
  'drink',
  'wear',
  'remove',
  'light',
  'extinguish',
  'search',
  'tie',
  'untie',
  'fill',
  'pour',
  'throw',
  'wave',
  'dig',
  'break',
  'insert',
  'wait',
  'inventory',
  'listen',
  'smell',
  'touch',
  'jump',
  'pray',
  'say',
  'wake',
  'kiss',
  'buy',
  'sit',
  'stand',
  'get',
  'lie',
  'sleep',
];

function verbRank(verb: string): number {
  const i = FAMILIAR_VERBS.indexOf(verb);
  return i < 0 ? FAMILIAR_VERBS.length : i;
}

/** Lower is more familiar: a familiar verb first, then the shorter command. */
export function familiarity(command: string): number {
  return verbRank(command.split(' ')[0]) * 1000 + command.length;
}

function preferredVerb(line: GrammarLine, resolution: number): string {
  for (const v of FAMILIAR_VERBS) {
    const stored = v.slice(0, resolution);
    if (line.synonyms.includes(stored)) return v;
  }
  // Otherwise the shortest whole (untruncated) word of three letters or more, else the first.
  const whole = line.synonyms
    .filter((w) => w.length >= 3 && w.length < resolution)
    .sort((a, b) => a.length - b.length || a.localeCompare(b));
  return whole[0] ?? line.verb;
}

const slots = (tokens: Token[]) => tokens.filter((t) => t.kind === 'object' || t.kind === 'topic');

/** Whether a line's first object must be inside its second (Inform's multiinside). */
const firstInside = (tokens: Token[]) => {
  const first = slots(tokens)[0];
  return first?.kind === 'object' && first.inside;
};

/**
 * A line whose first object must be inside its second, once for each word the story accepts
 * between them (see the key in templates); any other line as it is.
 */
function insideVariants(line: GrammarLine): GrammarLine[] {
  const at = line.tokens.findIndex((t) => t.kind === 'word' && t.alternatives?.length);
  if (!firstInside(line.tokens) || at < 0) return [line];
  const word = line.tokens[at] as Extract<Token, { kind: 'word' }>;
  return [word.text, ...word.alternatives!].map((text) => ({
    ...line,
    tokens: line.tokens.map((t, i) => (i === at ? { kind: 'word' as const, text } : t)),
  }));
}

/** Whether a word follows a line's last object ("pick multi up"). */
const wordAfterObjects = (tokens: Token[]) => tokens.at(-1)?.kind === 'word';

/** A line's own words, in order ("from", "off"): what tells apart lines of one action and the same slots. */
const wordsAfterVerb = (line: GrammarLine) =>
  line.tokens
    .filter((t): t is Extract<Token, { kind: 'word' }> => t.kind === 'word')
    .map((t) => t.text)
    .join(' ');

/** Debugging verbs ("#random", "$verify") are not words a player types, and some change the RNG or open files. */
const isWord = (verb: string) => /^[a-z]/.test(verb);

/**
 * Templates worth trying: fillable, not meta, and one per (action, object slots as the parser
 * reads them). Lines that share an action and the same slots call the same action routine on the
 * same objects, whatever their verb or prepositions, so trying one of them is enough; the most
 * familiar phrasing wins.
 */
export function templates(grammar: Grammar, resolution: number, options: { bySearch?: boolean; numbers?: boolean } = {}): Template[] {
  const bySearch = options.bySearch ?? true;
  const best = new Map<string, { line: GrammarLine; verb: string; score: number }>();
  const bestMulti = new Map<string, { line: GrammarLine; verb: string; score: number }>();
  const bestMultiByShape = new Map<string, { line: GrammarLine; verb: string; score: number }>();
  const bestMultiSecond = new Map<string, { line: GrammarLine; verb: string; score: number }>();
  const order: string[] = [];
  const actionOf = new Map<string, string>();
  const linesOf = new Map<string, Array<{ line: GrammarLine; verb: string }>>();
  for (const line of grammar.lines.flatMap(insideVariants)) {
    if (line.meta || line.tokens.some((t) => t.kind === 'unfillable') || !isWord(line.verb)) continue;
    const lineTakesNumber = line.tokens.some(isNumberToken);
    if (lineTakesNumber && !options.numbers) continue;
    const objectSlots = slots(line.tokens);
    if (objectSlots.length > 2) continue;
    // The parser reads a line's objects before the action runs, where the line says to look: lines
    // of one action that look in different places answer differently ("put the perambulators under
    // the wristwatch": "You're not holding any"; "push ... under": they slide off it; "drop all
    // down the skeleton" drops what is carried, "put all in it" tries everything in the room).
    const search = objectSlots.map((t) => (t.kind === 'object' ? t.search : 't')).join(',');
    const actionKey = `${line.action}/${objectSlots.length}`;
    // A multiinside slot is read by looking ahead to the object after the line's word, so the word
    // decides which of several alike things is meant: Balances' "take gold off left pan" takes a
    // coin from that pan where "take gold from left pan" picks one on the other pan and fails.
    const words = firstInside(line.tokens) ? `/${wordsAfterVerb(line)}` : '';
    // Without bySearch, one per action and object count: the shapes a player types (lexicon.ts).
    // A line that takes a number is its own template: "bother" and "bother nine" set different things.
    const key = (bySearch ? `${actionKey}/${search}${words}` : actionKey) + (lineTakesNumber ? '/#' : '');
    const verb = preferredVerb(line, resolution);
    // Prefer familiar verbs; then "give X to Y" over "give Y X", and "open X" over "open up X".
    const hasWord = line.tokens.some((t) => t.kind === 'word');
    const awkward = objectSlots.length === 2 ? !hasWord : hasWord && objectSlots.length === 1;
    const score = verbRank(verb) + (awkward ? 1000 : 0);
    const current = best.get(key);
    if (!current) order.push(key);
    actionOf.set(key, actionKey);
    if (!current || score < current.score) best.set(key, { line, verb, score });
    linesOf.set(key, [...(linesOf.get(key) ?? []), { line, verb }]);
    // Which line phrases "all" is asked of the lines that take no number: a number would take an object's place.
    if (lineTakesNumber) continue;
    const first = objectSlots[0];
    // "all" is phrased by the best line of these slots that takes several, else by the action's.
    if (first?.kind === 'object' && first.multi) {
      for (const multiKey of new Set([key, actionKey])) {
        const currentMulti = bestMulti.get(multiKey);
        if (!currentMulti || score < currentMulti.score) bestMulti.set(multiKey, { line, verb, score });
      }
      const shapeKey = `${actionKey}/${wordAfterObjects(line.tokens)}`;
      const currentShape = bestMultiByShape.get(shapeKey);
      if (objectSlots.length === 1 && (!currentShape || score < currentShape.score)) bestMultiByShape.set(shapeKey, { line, verb, score });
    }
    const second = objectSlots[1];
    const currentSecond = bestMultiSecond.get(actionKey);
    if (second?.kind === 'object' && second.multi && (!currentSecond || score < currentSecond.score))
      bestMultiSecond.set(actionKey, { line, verb, score });
  }
  const wordsOf = (line: GrammarLine, verb: string): Array<string | Token> => [
    verb,
    ...line.tokens.map((t) => (t.kind === 'word' ? t.text : t)),
  ];
  return order.map((key) => {
    const { line, verb } = best.get(key)!;
    const actionKey = actionOf.get(key)!;
    const multiLine = bestMulti.get(key) ?? bestMulti.get(actionKey);
    const multiSecondLine = bestMultiSecond.get(actionKey);
    const otherShape = multiLine && bestMultiByShape.get(`${actionKey}/${!wordAfterObjects(multiLine.line.tokens)}`);
    const words = wordsOf(line, verb);
    const otherLines = otherLinesOf(line, words, linesOf.get(key)!, wordsOf);
    return {
      words,
      held: slots(line.tokens).map((t) => t.kind === 'object' && t.held),
      ...findOf(line.tokens, grammar.format.startsWith('inform')),
      ...(multiLine ? { allWords: wordsOf(multiLine.line, multiLine.verb) } : {}),
      ...(otherShape ? { allWordsOtherShape: wordsOf(otherShape.line, otherShape.verb) } : {}),
      ...(multiSecondLine ? { allSecondWords: wordsOf(multiSecondLine.line, multiSecondLine.verb) } : {}),
      ...(grammar.format.startsWith('inform') && twoPlainObjects(line.tokens) ? { directionSecond: true as const } : {}),
      ...(otherLines.length ? { otherLines } : {}),
    };
  });
}

/**
 * The words of the lines merged with `chosen` that read their objects in the same order and way
 * (a line with its objects the other way round, Inform's "give creature held", is left out), each
 * wording once.
 */
function otherLinesOf(
  chosen: GrammarLine,
  chosenWords: Array<string | Token>,
  lines: Array<{ line: GrammarLine; verb: string }>,
  wordsOf: (line: GrammarLine, verb: string) => Array<string | Token>,
): Array<Array<string | Token>> {
  const slotsRead = (line: GrammarLine) =>
    slots(line.tokens)
      .map((t) => (t.kind === 'object' ? `${t.held}/${t.creature}/${t.search}` : 'topic'))
      .join(',');
  // wordsOf spells the line's words out, so only its object and topic slots are tokens.
  const seen = new Set([wordingOf(chosenWords)]);
  const chosenSlots = slotsRead(chosen);
  const out: Array<Array<string | Token>> = [];
  for (const { line, verb } of lines) {
    if (line === chosen || slotsRead(line) !== chosenSlots) continue;
    const words = wordsOf(line, verb);
    const wording = wordingOf(words);
    if (seen.has(wording)) continue;
    seen.add(wording);
    out.push(words);
  }
  return out;
}

/**
 * Each object slot's FIND attribute, when a slot has one; in Inform, a `creature` slot looks for
 * the library's `animate` ("give held to creature": the list given to Queenie, which no "drop" moves).
 */
function findOf(tokens: Token[], inform: boolean): Pick<Template, 'find'> {
  const find = slots(tokens).map((t) => (t.kind !== 'object' ? undefined : inform && t.creature ? INFORM_ANIMATE_ATTRIBUTE : t.find));
  return find.some((f) => f !== undefined) ? { find } : {};
}

/** `verb noun noun`: two objects with no word between, neither held nor a creature. */
function twoPlainObjects(tokens: Token[]): boolean {
  return tokens.length === 2 && tokens.every((t) => t.kind === 'object' && !t.held && !t.creature);
}

/** Whether a template word is a number slot ("set dial to <number>"). */
export const isNumberToken = (w: string | Token) => typeof w !== 'string' && w.kind === 'number';
