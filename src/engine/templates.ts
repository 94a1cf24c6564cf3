/** The shapes the two candidate passes share: a command template and the objects it is filled with. */
import type { Token } from './grammar';

export interface Template {
  words: Array<string | Token>;
  /** Per object slot: must the object be in the inventory? */
  held: boolean[];
  /**
   * Per object slot: the attribute the line looks for there (ZIL's FIND: "give X to" finds actors;
   * Inform's `creature` token: the library's `animate`), absent where none. Lines merged into one
   * template keep the chosen line's: the attribute only guides which held things are paired, not
   * what the parser does with the objects typed.
   */
  find?: Array<number | undefined>;
  /**
   * The phrasing for "all" in the first slot, when a line of this action takes several objects
   * there (Inform's multi tokens, ZIL's MANY): this template's own line when it does, else the
   * best other one ("take off all" where "remove" takes one).
   */
  allWords?: Array<string | Token>;
  /**
   * A second phrasing for "all" in a one-object line: from a line with a word after its objects
   * ("pick all up", "put all down") where `allWords` has none, or the other way round. Inform's
   * parser reads such "all" by looking ahead to the word and marks the objects in scope as it goes
   * (Gold: "pick all up" sets a scratch attribute on sixteen objects, "take all" on none), so the
   * turn's record, by which Jericho groups commands, differs though the same things are taken.
   */
  allWordsOtherShape?: Array<string | Token>;
  /**
   * The phrasing for "all" in the second slot, when a line of this action takes several objects
   * there (ZIL's `throw OBJECT MANY`: "throw the boot all"; a few games answer it).
   */
  allSecondWords?: Array<string | Token>;
  /**
   * An Inform line of two plain objects side by side (`push noun noun`, the library's PushDir):
   * its second object may be a compass direction, which Inform keeps as objects always in scope
   * ("push the coffin east"), though no direction is in the room's object tree.
   */
  directionSecond?: true;
  /**
   * The other lines merged into this one (same action, same slots read alike), each in its own
   * words. The parser may keep which line it matched where Jericho watches it (Enter's byte 11219:
   * "put badge in other" 5, "insert badge in other" 4), so there one command reworded in another
   * line's words can be a group of its own (see Rephrasings.otherLines).
   */
  otherLines?: Array<Array<string | Token>>;
}

/** "all" in a slot, for `fill`: it stands for an object in a slot that takes several ("take all", "put all in the box"). */
export const ALL = 0;

/** A template's words as one text, each object slot shown as "_": how lines are told apart by their wording. */
export function wordingOf(words: ReadonlyArray<string | Token>): string {
  return words.map((w) => (typeof w === 'string' ? w : '_')).join(' ');
}

/**
 * How the parser answers "examine" on a phrase (the reply less the phrase's words), and the reply
 * it gives for a phrase that names nothing in reach: "examine" on objects out of scope, the reply
 * most of them give (a few of them can still be in reach: Inform's compass directions are
 * everywhere), whatever the game's wording. The controls are examined once, when first asked.
 */
export interface ExamineCheck {
  /** The story's word for "examine", which the checks' commands begin with. */
  verb: string;
  /** The reply to "examine" with the phrase, as the game gives it; null where the story faults on it. */
  reply(phrase: string): string | null;
  /**
   * How many object operations the parser made reading the phrase, those the world mask ignores
   * aside: an Infocom parser toggles a scratch attribute as it searches for what a word means, more
   * times for some words than their count of things in scope says (Seastalker's "light").
   */
  operations(phrase: string): number;
  answer(phrase: string): string | null;
  refusal(): string | null;
}

/** What both passes share: the templates, the objects in scope with their phrases, and the inventory. */
export interface CandidateScope {
  templates: Template[];
  objects: number[];
  phrase: Map<number, string>;
  held: Set<number>;
  /** Each object's parent at the start state (the passes run other states in between). */
  parentOf: (id: number) => number;
  /** Whether an object had an attribute at the start state. */
  hasAttribute: (id: number, attribute: number) => boolean;
  /**
   * Number words an Inform parser reads as a count where "all" may go ("drop three": the first
   * three things it would drop): two, and one for each group of alike things listed together
   * (three beams, ten coins).
   */
  countWords: string[];
  /**
   * The other counts up to the number of things held directly ("drop six" of eight things held):
   * tried in one-object lines, and in a two-object line only where its "all" did something.
   */
  heldCounts: string[];
  /**
   * The plural words of things in scope (Inform's `//p` names: "pages"), where "all" may go: the
   * parser takes every thing the word names ("drop pages" drops the three). Tried as `heldCounts` are.
   */
  pluralWords: string[];
  /** Phrases the parser reads as a thing only after a guess ("(the buffalo chopper)"), each thing's other wording (see parserNames.ts). */
  guessedNames: ReadonlyMap<number, string>;
  /** "examine" asked at the start state, its replies kept (see examineCheck in outOfReach.ts); null without an `examine` line. */
  examine: ExamineCheck | null;
  /** A template's words with objects in its slots (0 for "all", written `allWord`, "all" by default). */
  fill: (words: Array<string | Token>, chosen: number[], allWord?: string) => string;
}

/** The story's "examine X" line: the command the checks of names and words ask the parser with. */
export function examineTemplate(templates: Template[]): Template | undefined {
  return templates.find((t) => t.words.length === 2 && t.words[0] === 'examine' && t.held.length === 1);
}
