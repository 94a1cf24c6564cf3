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
 *
 * One wording per group is tried first. Where the parser announces its guess, it names every thing
 * of the line, and Inform marks each thing it names: a group whose commands differ in the thing of
 * the slot kept ("point purse at X", the same reply for every X) is then as many groups reworded
 * ("point bag at X": "(your purse at the array of liquor bottles)"), and `spread` tries each thing
 * in scope there.
 */
import { OBJECT_PRONOUNS } from './englishWords';
import { announcesAGuess, asksWhichIsMeant, guessedOrAsked } from './parserNames';
import { DETERMINERS, objectVocabulary, printedWords } from './vocabulary';
import type { GameSession } from './session';
import { ALL, type CandidateScope, type Template, wordingOf } from './templates';

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
  /** The word ends the printed name of a thing in scope: the word a player names it by ("light" for the brass light). */
  head?: boolean;
}

/** How a variant was made: the command it rewords and the words it put in which of its slots. */
interface Rewording {
  from: string;
  slots: Map<number, string>;
}

export class Rephrasings {
  private readonly filled = new Map<string, Filled>();
  private readonly rewordings = new Map<string, Rewording>();
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
      // The toggles follow from how the parser reads each name: one wording per template and
      // such reading is enough (a group's members mostly differ in the object of one slot).
      const namingsTried = new Set<string>();
      for (const command of commands) {
        const made = this.filled.get(command);
        if (!made) continue;
        const template = wordingOf(made.words);
        /** The command reworded with `slots`, once per naming and new wording. */
        const offer = (naming: string, slots: Map<number, string>) => {
          if (namingsTried.has(naming)) return;
          const variant = this.reworded(made, slots);
          if (tried.has(variant) || out.has(variant)) return;
          namingsTried.add(naming);
          out.add(variant);
          this.rewordings.set(variant, { from: command, slots });
        };
        for (const names of this.namings(made.chosen)) {
          const slots = new Map<number, string>();
          names.forEach((name, slot) => {
            if (name.fits > 1 || name.guessed) slots.set(slot, name.text);
          });
          offer(`${template}#${names.map((name) => this.reading(name)).join(',')}`, slots);
        }
        for (const pronoun of standIns)
          for (let slot = 0; slot < made.chosen.length; slot++) offer(`${template}#${pronoun}@${slot}`, new Map([[slot, pronoun]]));
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

  /** The command `made` with the words of `slots` in those slots, the others named by their phrases. */
  private reworded(made: Filled, slots: ReadonlyMap<number, string>): string {
    let k = 0;
    return made.words
      .map((w) => {
        if (typeof w === 'string') return w;
        const slot = k++;
        return slots.get(slot) ?? this.scope.phrase.get(made.chosen[slot])!;
      })
      .join(' ');
  }

  /**
   * In an Inform story, the variants among `hits` that operate on the thing of a slot they kept
   * more often than the command they reword did, made again with each thing in scope in that slot.
   * A guess the parser announces names every thing of the line ("point bag at array": "(your purse
   * at the array of liquor bottles)") and Inform marks each thing it names, so where the command
   * reworded answered alike for every thing in the other slot ("point purse at X": "I'm not sure
   * what good it would do"), or was tried with one of them only, each thing there is a group of its
   * own. (An Infocom parser toggles its scratch attribute on every thing a word could mean, the
   * thing kept among them at times, and names nothing.) `touchedBy`: the objects each command
   * tried before touched, one entry an operation.
   */
  spread(
    hits: ReadonlyArray<{ command: string; touched: readonly number[] }>,
    touchedBy: (command: string) => readonly number[] | undefined,
    tried: ReadonlySet<string>,
  ): string[] {
    if (!this.session.grammar.format.startsWith('inform')) return [];
    const out = new Set<string>();
    for (const hit of hits) {
      const rewording = this.rewordings.get(hit.command);
      const made = rewording && this.filled.get(rewording.from);
      const before = rewording && touchedBy(rewording.from);
      if (!rewording || !made || !before) continue;
      made.chosen.forEach((object, slot) => {
        if (rewording.slots.has(slot) || timesIn(hit.touched, object) <= timesIn(before, object)) return;
        for (const other of this.scope.objects) {
          const chosen = made.chosen.map((o, k) => (k === slot ? other : o));
          const variant = this.reworded({ words: made.words, chosen }, rewording.slots);
          if (!tried.has(variant)) out.add(variant);
        }
      });
    }
    return [...out];
  }

  /**
   * Each group's command in the words of the other lines merged into its template ("insert badge
   * in other" for "put badge in other"), its objects named as they were: where the parser keeps
   * which line it matched in a byte Jericho watches, each line is a group of its own. One command
   * per group and template; `groups` as for `variants`.
   */
  otherLines(groups: string[][], tried: ReadonlySet<string>): string[] {
    const templateOf = new Map(this.scope.templates.map((t) => [t.words, t]));
    const out = new Set<string>();
    for (const commands of groups) {
      const templatesDone = new Set<Template['words']>();
      for (const command of commands) {
        const rewording = this.rewordings.get(command);
        const made = this.filled.get(rewording?.from ?? command);
        const lines = made && templateOf.get(made.words)?.otherLines;
        if (!made || !lines || templatesDone.has(made.words)) continue;
        templatesDone.add(made.words);
        for (const words of lines) {
          const variant = this.reworded({ words, chosen: made.chosen }, rewording?.slots ?? new Map());
          if (!tried.has(variant)) out.add(variant);
        }
      }
    }
    return [...out];
  }

  /**
   * Each other line of a two-object template, with each thing in scope in each slot once, the
   * other slot holding a thing carried (else any other thing): where the parser keeps the line it
   * matched, a line can be a group of its own for one thing in a slot whatever the other ("give
   * over X to coin", where "give X to coin" changes nothing), which no group's rewording reaches.
   * `only`: the things to screen, where not every one.
   */
  otherLineScreens(tried: ReadonlySet<string>, only?: ReadonlySet<number>): string[] {
    const { objects, held } = this.scope;
    const partners = new Map<number, number>();
    for (const object of objects) {
      if (only && !only.has(object)) continue;
      const partner = objects.find((o) => o !== object && held.has(o)) ?? objects.find((o) => o !== object);
      if (partner !== undefined) partners.set(object, partner);
    }
    const out = new Set<string>();
    for (const template of this.scope.templates) {
      if (template.held.length !== 2 || !template.otherLines) continue;
      for (const words of template.otherLines) {
        for (const slot of [0, 1]) {
          for (const [object, partner] of partners) {
            const chosen = slot === 0 ? [object, partner] : [partner, object];
            const command = this.scope.fill(words, chosen);
            if (!tried.has(command)) out.add(command);
          }
        }
      }
    }
    return [...out];
  }

  /**
   * The things whose phrase another thing in scope shares (Enter's four coins, each "coin"): the
   * parser picks one of them without asking, and a parser that keeps the line it matched when it
   * picks keeps it in a byte Jericho watches, whatever line the rest of the command reads as.
   */
  sharedPhraseThings(): Set<number> {
    const byPhrase = new Map<string, number[]>();
    for (const object of this.scope.objects) {
      const phrase = this.scope.phrase.get(object)!;
      const things = byPhrase.get(phrase);
      if (things) things.push(object);
      else byPhrase.set(phrase, [object]);
    }
    return new Set([...byPhrase.values()].filter((things) => things.length > 1).flat());
  }

  /**
   * What the parser's toggles on reading a name follow from: how many things in scope it fits and,
   * for a shared word that ends a thing's printed name (the word a player names it by), how many
   * operations "examine" with it made. Seastalker's "light" fits three things, as "button" does,
   * but the parser searches further for it and toggles once more.
   */
  private reading(name: Name): string {
    if (name.guessed) return 'guessed';
    const examine = this.scope.examine;
    return name.fits > 1 && name.head && examine ? `${name.fits}~${examine.operations(name.text)}` : String(name.fits);
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
   * Whether the parser reads a word that is mostly an article or the like as a thing, when a
   * thing lists it: Party Foul's "pair of black heels" lists "of", which the parser takes for one
   * of the things that list it ("examine of": "(the pair of black heels)"), where "the" is skipped.
   */
  private readsAsAThing(word: string): boolean {
    const reply = this.scope.examine?.reply(word) ?? null;
    return reply !== null && guessedOrAsked(reply) !== null;
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
    const heads = new Set<string>();
    for (const id of this.scope.objects) {
      const printed = printedWords(this.session, id);
      if (printed.length) heads.add(printed[printed.length - 1].stored);
      for (const { word, stored } of printed) if (!spelled.has(stored)) spelled.set(stored, word);
      const { nouns, adjectives } = objectVocabulary(this.session, id);
      const words = [...new Set([...nouns, ...adjectives])].filter(
        (w) => /^[a-z]/.test(w) && (!DETERMINERS.has(w) || this.readsAsAThing(w)),
      );
      wordsOf.set(id, words);
      for (const word of words) fits.set(word, (fits.get(word) ?? 0) + 1);
    }
    this.ambiguous = new Map();
    for (const [id, words] of wordsOf) {
      const shared = words
        .filter((w) => fits.get(w)! > 1)
        .map((w) => ({ text: spelled.get(w) ?? w, fits: fits.get(w)!, ...(heads.has(w) ? { head: true } : {}) }));
      if (shared.length) this.ambiguous.set(id, shared);
    }
    return this.ambiguous;
  }
}

function timesIn(objects: readonly number[], object: number): number {
  return objects.filter((o) => o === object).length;
}

/** The pronouns the story's dictionary holds that `text` says as words. */
function pronounsSaid(session: GameSession, text: string): string[] {
  const words = new Set(text.toLowerCase().match(/[a-z]+/g) ?? []);
  return OBJECT_PRONOUNS.filter((pronoun) => words.has(pronoun) && session.dictionary.has(pronoun));
}
