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
import type { Grammar } from './grammar';
import { inWorldCommands } from './outOfWorld';
import type { GameSession } from './session';
import { PairPlan } from './pairs';
import { templates } from './grammarTemplates';
import { countWords, pluralWords, takesNumber, withNumbers } from './countsAndPlurals';
import { thingNames } from './thingNames';
import { examineCheck, outOfReach } from './outOfReach';
import { parserNames } from './parserNames';
import { scopeObjects } from './scope';
import { ALL, examineTemplate, type CandidateScope, type Template, wordingOf } from './templates';

export type { CandidateScope, Template } from './templates';
import { nounPhrases } from './vocabulary';

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
