/**
 * Other wordings of the commands that did something, each object named by one word of its own
 * vocabulary, as Jericho names it ("throw book at beautiful", where the candidates said "ornamented
 * egg"). An Infocom parser sets and clears a scratch attribute for each object a word could mean
 * while it reads a command, so a one-word name that fits two objects ("book": a dusty book and a
 * spell book) or an adjective read alone toggles it more times; Jericho groups commands by that
 * record, so such a wording is another group with the same outcome. Only the commands that did
 * something are reworded, and only with words that fit more than one object in scope: a word that
 * fits one reads as its phrase does.
 *
 * A pronoun the player reads ("it", "them": in the last reply, or in what "look" and "inventory"
 * say here) is another such wording: the parser puts the thing it last named there without reading
 * a name, so "throw it at rat" toggles fewer attributes than "throw lamp at rat" and is a group of
 * its own. Each command that did something is tried with the pronoun in each of its slots:
 * whatever the pronoun stands for, the command then does what it does to that. Only pronouns the
 * text says are tried, which is where Jericho tries them too; each is a few hundred more commands.
 * Inform's parser reads the article "a" alone the same way, as any one thing the line would take
 * ("drop a": "(the loose page) Dropped."), so in an Inform story "a" is tried as a pronoun is,
 * and so is a word the player reads that the parser takes for a thing it picks (Enter's "other").
 *
 * A phrase the parser reads as the thing only after a guess ("look in buffalo": "(the buffalo
 * chopper)", the word fitting something out of the tree's scope too) is such a wording as well;
 * the thing's phrase is then a plain one (see parserNames.ts) and the guessed one is tried here.
 */
import { OBJECT_PRONOUNS } from './englishWords';
import { announcesAGuess, asksWhichIsMeant } from './parserNames';
import { DETERMINERS, objectVocabulary, printedWords } from './vocabulary';
import type { GameSession } from './session';
import { ALL, type CandidateScope, type Template } from './templates';

interface Filled {
  words: Template['words'];
  chosen: number[];
}

/** A name for an object in a command, and how many objects in scope it fits. */
interface Name {
  text: string;
  fits: number;
  /** A phrase the parser reads as the thing after a guess, which marks more objects than the plain one. */
  guessed?: boolean;
}

export class Rephrasings {
  private readonly filled = new Map<string, Filled>();
  private ambiguous: Map<number, Name[]> | undefined;

  constructor(
    private readonly session: GameSession,
    private readonly scope: CandidateScope,
  ) {}

  /** The scope, with a `fill` that remembers which template and objects made each command. */
  recording(): CandidateScope {
    return {
      ...this.scope,
      fill: (words, chosen, allWord) => {
        const command = this.scope.fill(words, chosen, allWord);
        if (chosen.length > 0 && !chosen.includes(ALL) && !this.filled.has(command)) this.filled.set(command, { words, chosen });
        return command;
      },
    };
  }

  /**
   * The wordings of each group's commands (`groups`: each group's commands in the order found)
   * with an object named by one word that fits others in scope too, or by a pronoun `read` says,
   * those in `tried` left out.
   */
  variants(groups: string[][], tried: ReadonlySet<string>, read = ''): string[] {
    const words = this.wordsRead(read);
    const standIns = [...pronounsSaid(this.session, read), ...words.standIns];
    const out = new Set<string>();
    for (const commands of groups) {
      // The toggles follow from how many objects each name fits: one wording per template and
      // such count is enough (a group's members mostly differ in the object of one slot).
      const namingsTried = new Set<string>();
      for (const command of commands) {
        const made = this.filled.get(command);
        if (!made) continue;
        const template = made.words.map((w) => (typeof w === 'string' ? w : '_')).join(' ');
        for (const names of this.namings(made.chosen)) {
          const naming = `${template}#${names.map((name) => (name.guessed ? 'guessed' : name.fits)).join(',')}`;
          if (namingsTried.has(naming)) continue;
          let k = 0;
          const variant = made.words.map((w) => (typeof w === 'string' ? w : names[k++].text)).join(' ');
          if (tried.has(variant) || out.has(variant)) continue;
          namingsTried.add(naming);
          out.add(variant);
        }
        for (const [slot, variant] of this.pronounWordings(made, standIns)) {
          const naming = `${template}#${slot}`;
          if (namingsTried.has(naming) || tried.has(variant) || out.has(variant)) continue;
          namingsTried.add(naming);
          out.add(variant);
        }
      }
    }
    // A word the player reads that makes the parser ask which thing is meant marks each of them on
    // the way (Balances' "examine spell": the spells in the spell book, which the tree does not
    // show in reach), and Jericho keys the question as a group: one command a word.
    for (const command of words.asking) if (!tried.has(command)) out.add(command);
    return [...out];
  }

  /**
   * In an Inform story, each word of `read` asked about with "examine": `standIns`, "a" and the
   * words no thing in scope lists that the parser takes for a thing it picks ("examine other":
   * "(the envelope)"; Spirit's "your" and "this"); `asking`, the commands with the words that
   * make it ask which thing is meant.
   */
  private wordsRead(read: string): { standIns: string[]; asking: string[] } {
    const { session, scope } = this;
    const found = { standIns: [] as string[], asking: [] as string[] };
    if (!session.grammar.format.startsWith('inform')) return found;
    if (session.dictionary.has('a')) found.standIns.push('a');
    const examine = scope.examine;
    if (!examine) return found;
    const resolution = session.dictionary.resolution;
    const listed = new Set(
      scope.objects.flatMap((id) => {
        const { nouns, adjectives } = objectVocabulary(session, id);
        return [...nouns, ...adjectives];
      }),
    );
    const pronouns: readonly string[] = OBJECT_PRONOUNS;
    for (const word of new Set(read.toLowerCase().match(/[a-z]+/g) ?? [])) {
      if (word === 'a' || pronouns.includes(word) || !session.dictionary.has(word)) continue;
      const reply = examine.reply(word);
      if (reply === null) continue;
      if (asksWhichIsMeant(reply)) found.asking.push(`${examine.verb} ${word}`);
      else if (announcesAGuess(reply) && !listed.has(word.slice(0, resolution))) found.standIns.push(word);
    }
    return found;
  }

  /**
   * The command with a pronoun in one of its slots, the others named by their phrases, each with
   * its naming (the pronoun and the slot): one such wording per group is enough, as its members
   * mostly differ in the object of one slot.
   */
  private pronounWordings(made: Filled, pronouns: string[]): Array<[string, string]> {
    const out: Array<[string, string]> = [];
    for (const pronoun of pronouns)
      for (let slot = 0; slot < made.chosen.length; slot++) {
        let k = 0;
        const words = made.words.map((w) =>
          typeof w === 'string' ? w : k++ === slot ? pronoun : this.scope.phrase.get(made.chosen[k - 1])!,
        );
        out.push([`${pronoun}@${slot}`, words.join(' ')]);
      }
    return out;
  }

  /** Every way to name the chosen objects, each by its phrase, a word it shares or the phrase the parser guesses, but the phrases alone. */
  private namings(chosen: number[]): Name[][] {
    const ambiguous = this.ambiguousWords();
    let out: Name[][] = [[]];
    for (const id of chosen) {
      const guessed = this.scope.guessedNames.get(id);
      const options = [
        { text: this.scope.phrase.get(id)!, fits: 1 },
        ...(ambiguous.get(id) ?? []),
        ...(guessed ? [{ text: guessed, fits: 1, guessed: true }] : []),
      ];
      out = out.flatMap((prefix) => options.map((name) => [...prefix, name]));
    }
    return out.filter((names) => names.some((name) => name.fits > 1 || name.guessed));
  }

  /**
   * Each object's nouns and adjectives that other objects in scope share, with how many they fit,
   * spelled as a printed name in scope spells them where one does: the same word for every object
   * it fits ("beautiful" for Enchanter's cabinet too, whose own name does not print it, not the
   * dictionary's "beauti").
   */
  private ambiguousWords(): Map<number, Name[]> {
    if (this.ambiguous) return this.ambiguous;
    const wordsOf = new Map<number, string[]>();
    const fits = new Map<string, number>();
    const spelled = new Map<string, string>();
    for (const id of this.scope.objects) {
      const { nouns, adjectives } = objectVocabulary(this.session, id);
      const words = [...new Set([...nouns, ...adjectives])].filter((w) => !DETERMINERS.has(w) && /^[a-z]/.test(w));
      wordsOf.set(id, words);
      for (const word of words) fits.set(word, (fits.get(word) ?? 0) + 1);
      for (const { word, stored } of printedWords(this.session, id)) if (!spelled.has(stored)) spelled.set(stored, word);
    }
    this.ambiguous = new Map();
    for (const [id, words] of wordsOf) {
      const shared = words.filter((w) => fits.get(w)! > 1).map((w) => ({ text: spelled.get(w) ?? w, fits: fits.get(w)! }));
      if (shared.length) this.ambiguous.set(id, shared);
    }
    return this.ambiguous;
  }
}

/** The pronouns the story's dictionary holds that `text` says as words. */
function pronounsSaid(session: GameSession, text: string): string[] {
  const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  return OBJECT_PRONOUNS.filter((pronoun) => words.has(pronoun) && session.dictionary.has(pronoun));
}
