/**
 * Candidate commands for the valid-action search, built from the story's own grammar lines and
 * dictionary and the objects in scope; no verb list is written by hand.
 *
 * The search runs in passes. The first tries the movement words, every object-free line, every
 * one-object line on every object in scope and on "all", and Inform's `push noun noun` with a direction.
 * Two-object lines (put X in Y, throw X at Y, unlock X with Y, take X from Y) grow with the square
 * of what is in scope, so the later passes (pairs.ts) pair objects where one of them is carried,
 * and screen what could be carried.
 */
import type { Grammar, GrammarLine, Token } from './grammar';
import { inWorldCommands } from './outOfWorld';
import type { GameSession } from './session';
import { INFORM_ANIMATE_ATTRIBUTE } from './bindings';
import { PairPlan } from './pairs';
import { thingNames } from './thingNames';
import { examineCheck, outOfReach } from './outOfReach';
import { parserNames } from './parserNames';
import { scopeObjects } from './scope';
import { ALL, examineTemplate, type CandidateScope, type Template, wordingOf } from './templates';

export type { CandidateScope, Template } from './templates';
import { nounPhrases, objectNouns } from './vocabulary';

/**
 * A display preference only: when several dictionary words name the same verb, show the most
 * familiar. Candidate generation never depends on this list.
 */
const FAMILIAR_VERBS = [
  'north',
  'south',
  'east',
  'west',
  'northeast',
  'northwest',
  'southeast',
  'southwest',
  'up',
  'down',
  'in',
  'out',
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

/** "push coffin east": each object not carried with each direction, where the line takes one. */
function directionCandidates(scope: CandidateScope, directions: string[]): string[] {
  const out: string[] = [];
  for (const t of scope.templates) {
    if (!t.directionSecond) continue;
    const second = t.words.length - 1;
    for (const a of scope.objects) {
      if (scope.held.has(a)) continue;
      for (const d of directions)
        out.push(
          scope.fill(
            t.words.map((w, i) => (i === second ? d : w)),
            [a],
          ),
        );
    }
  }
  return out;
}

const DIGITS = ['0', '1', '2', '3', '4', '5', '6', '7', '8', '9'];

/**
 * The keys a menu that reads single keys answers to: quit, next, previous, yes, a number. A
 * command sent to such a menu is only its first letter ("look" is "l"), so a game left in one (a
 * hints menu) answers nothing else.
 */
export const MENU_KEYS = ['q', 'n', 'p', 'y', ...DIGITS];

/**
 * Directions, the grammar's object-free commands ("wait", "sleep"...), "yes"/"no" when the
 * dictionary has them (a yes-or-no question is read by a library routine, outside the grammar),
 * and the numbers of a menu, less the verbs that talk to the interpreter (outOfWorld.ts); while
 * the game waits for a single key, the menu keys alone.
 */
export function sceneCandidates(session: GameSession): string[] {
  if (session.waitsForKey) return [...MENU_KEYS];
  const out = new Set<string>(session.grammar.directions);
  for (const answer of ['yes', 'no']) if (session.dictionary.has(answer)) out.add(answer);
  // A numbered menu read as a line ("Select an option or 0 to say nothing"): the numbers are not in the dictionary.
  for (const digit of DIGITS) out.add(digit);
  for (const t of templates(session.grammar, session.dictionary.resolution)) {
    if (t.held.length === 0) out.add(t.words.join(' '));
  }
  // "verbose" or "restart" set globals that last, but no scene is played with them.
  return [...out].filter(inWorldCommands(session.dictionary.resolution));
}

/**
 * `reply`: the game's last reply, whose words may name things in reach that the tree does not show
 * (see scope.ts); `allGlobals`: every Infocom global in scope, not only those the room's description names.
 */
export function candidateScope(session: GameSession, reply = '', allGlobals = false): CandidateScope {
  const found = scopeObjects(session, undefined, reply, allGlobals);
  const numbered = templates(session.grammar, session.dictionary.resolution, { numbers: true });
  const lines = numbered.filter((t) => !takesNumber(t));
  const examine = examineTemplate(lines);
  const check = examineCheck(session, found.all, examine);
  const unreachable = new Set(outOfReach(session, found.namedByReply, check));
  const scope = { ...found, all: found.all.filter((id) => !unreachable.has(id)) };
  const phrase = nounPhrases(session, scope.all);
  const checked = parserNames(session, phrase, check);
  for (const [id, name] of checked.phrases) phrase.set(id, name);
  // The phrases are of what is in reach: a thing held and out of reach has none.
  const heldPhrases = new Map(scope.held.filter((id) => phrase.has(id)).map((id) => [id, phrase.get(id)!]));
  const held = new Set(scope.held);
  const loosePhrases = new Map(scope.all.filter((id) => phrase.has(id) && !held.has(id)).map((id) => [id, phrase.get(id)!]));
  for (const [id, name] of thingNames(session, heldPhrases, loosePhrases)) phrase.set(id, name);
  const parents = new Map(scope.all.map((id) => [id, session.objects.parent(session.mem, id)]));
  // The pairs are made after the first pass has run other states: attributes are read from a copy of this one.
  const start = session.mem.slice();
  const named = scope.all.filter((id) => phrase.has(id));
  const counts = countWords(session, scope.all, phrase, parents, scope.held);
  return {
    templates: [...lines, ...withNumbers(numbered.filter(takesNumber), [...counts.countWords, ...counts.heldCounts])],
    objects: named,
    phrase,
    held: new Set(scope.held),
    parentOf: (id) => parents.get(id) ?? 0,
    hasAttribute: (id, attribute) => session.objects.hasAttribute(start, id, attribute),
    ...counts,
    pluralWords: pluralWords(session, named),
    guessedNames: checked.guessed,
    examine: check,
    fill: (words, chosen, allWord = 'all') => {
      let k = 0;
      return words.map((w) => (typeof w === 'string' ? w : chosen[k] === ALL ? (k++, allWord) : phrase.get(chosen[k++])!)).join(' ');
    },
  };
}

const isNumberToken = (w: string | Token) => typeof w !== 'string' && w.kind === 'number';
const takesNumber = (t: Template) => t.words.some(isNumberToken);

/**
 * Lines that take a number ("set dial to", "bother"), once with each number word the scene shows
 * (the counts; see countWords). Inform's parser keeps the number it read in a global, which some
 * games watch (Spiritwrak's "set pan to nine", "bother nine").
 */
function withNumbers(numbered: Template[], numbers: string[]): Template[] {
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
function pluralWords(session: GameSession, objects: number[]): string[] {
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
function countWords(
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

/**
 * Infocom lines' words without their one object, where the slot is last and the line names what it
 * looks for there (ZIL's FIND): the parser supplies the one such thing in reach ("enter": the
 * toadstool, its GWIM), as Jericho's bare-verb templates find. The search tries them last, so a
 * group they share is led by the command that names the thing ("open kitchen window", not "open").
 */
function verbsAlone(lines: readonly Template[]): string[] {
  const out = new Set<string>();
  for (const t of lines) {
    const last = t.words[t.words.length - 1];
    if (t.held.length === 1 && t.find?.[0] !== undefined && typeof last !== 'string') out.add(t.words.slice(0, -1).join(' '));
  }
  return [...out];
}

/**
 * The lines whose two object slots end them side by side ("plug in X Y", "give X Y"), cut before
 * the second slot ("plug in X"): Jericho fills such a line with a word the parser reads into the
 * first phrase ("plug in a couch", "give all couch"), so the parser reads one object, looks for
 * the second and asks for it, and what it marks on the way (Party Foul's parser marks the thing
 * named, twice) is an effect Jericho counts. Each cut line once, however many templates hold it.
 */
export function cutLines(lines: readonly Template[]): Array<Template['words']> {
  const out = new Map<string, Template['words']>();
  for (const words of lines.flatMap((t) => [t.words, ...(t.otherLines ?? [])])) {
    const slots = words.flatMap((w, k) => (typeof w === 'string' ? [] : [k]));
    if (slots.length === 2 && slots[1] === slots[0] + 1 && slots[1] === words.length - 1) {
      const cut = words.slice(0, -1);
      out.set(wordingOf(cut), cut);
    }
  }
  return [...out.values()];
}

const verbsAloneByGrammar = new WeakMap<Grammar, readonly string[]>();

/** The story's verbs alone, read once per grammar: the search asks for them on every turn. */
export function storyVerbsAlone(session: GameSession): readonly string[] {
  const { grammar } = session;
  let found = verbsAloneByGrammar.get(grammar);
  if (!found) {
    // Infocom's GWIM supplies the object a FIND slot looks for; Inform's parser asks instead.
    found = grammar.format.startsWith('infocom') ? verbsAlone(templates(grammar, session.dictionary.resolution)) : [];
    verbsAloneByGrammar.set(grammar, found);
  }
  return found;
}

function unique(commands: string[]): string[] {
  return [...new Set(commands)];
}

/** The first pass: movement words, object-free lines, one-object lines on everything in scope and on "all", pushes in each direction. */
export function singleCandidates(session: GameSession, scope: CandidateScope = candidateScope(session)): string[] {
  const out: string[] = [...session.grammar.directions];
  for (const t of scope.templates) {
    if (t.held.length === 0) out.push(scope.fill(t.words, []));
    if (t.held.length !== 1) continue;
    for (const a of scope.objects) out.push(scope.fill(t.words, [a]));
    // "all" in every one-object line, as Jericho tries it: where the line takes one object, games
    // still answer "examine all", "kiss all" or "open all", each its own effect.
    if (!t.allWords) out.push(scope.fill(t.words, [ALL]));
    for (const allWords of [t.allWords, t.allWordsOtherShape])
      if (allWords) for (const word of allWordsOf(scope)) out.push(scope.fill(allWords, [ALL], word));
  }
  out.push(...directionCandidates(scope, session.grammar.directions));
  return unique(out);
}

/**
 * The first pass's "all" commands in the other shape of their action's lines ("put all down" where
 * the action's line reads "drop all"): tried for the record the parser makes of them, they name a
 * group only when nothing else in it does, so a turn that drops everything reads "drop all".
 */
export function otherShapeCommands(scope: CandidateScope): Set<string> {
  const out = new Set<string>();
  for (const t of scope.templates)
    if (t.held.length === 1 && t.allWordsOtherShape)
      for (const word of allWordsOf(scope)) out.add(scope.fill(t.allWordsOtherShape, [ALL], word));
  return out;
}

/** What goes where a one-object line takes "all": "all", the counts and the plural words. */
const allWordsOf = (scope: CandidateScope) => ['all', ...scope.countWords, ...scope.heldCounts, ...scope.pluralWords];

/**
 * Candidates for the current state without running anything: the first pass and the pairs with
 * something already held. The search itself adds pairs with what the first pass found portable.
 */
export function candidateCommands(session: GameSession, reply = ''): string[] {
  const scope = candidateScope(session, reply);
  const singles = singleCandidates(session, scope);
  return unique([...singles, ...new PairPlan(scope, scope.held, singles).first(), ...storyVerbsAlone(session)]);
}
