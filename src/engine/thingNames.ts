/**
 * Names for things that the parser does not know by the words their vocabulary lists. An Inform
 * object with a parse_name routine answers to what the routine reads, not to its `name` property:
 * Theatre's pearls list "eye" and "three" and answer to "violet" and "pearl", and every candidate
 * made with "three" names something else ("drop three" drops three things). A thing held is found
 * as one that "drop" with its phrase does not drop alone, and the words the inventory prints are
 * tried with "drop"; a thing in the room that "take all" takes, as one that "take" with its phrase
 * does not take alone, and the words "take all" prints are tried with "take". A word that
 * moves that thing alone names it.
 */
import type { GameSession } from './session';
import { DETERMINERS } from './vocabulary';

/** Words tried as names at most, in the order printed. */
const MAX_WORDS_TRIED = 24;

/**
 * `held`: the things held, each with the phrase the vocabulary gave it; `loose`: the same for the
 * things in reach not held. Returns better phrases for some of them: a held thing is named by a word
 * the inventory prints that "drop" moves it alone with; a loose thing that "take all" takes, by a
 * word of the reply to "take all" (which names each thing taken) that "take" moves it alone with.
 */
export function thingNames(
  session: GameSession,
  held: ReadonlyMap<number, string>,
  loose: ReadonlyMap<number, string>,
): Map<number, string> {
  const found = new Map<number, string>();
  if (held.size > 0 && session.dictionary.has('drop') && session.dictionary.has('inventory'))
    namesBy(session, 'drop', held, () => printedWords(session, session.replyOrFault('inventory') ?? ''), found);
  if (loose.size > 0 && session.dictionary.has('take') && session.dictionary.has('all')) {
    const ids = [...loose.keys()];
    const parents = ids.map((id) => session.objects.parent(session.mem, id));
    const { reply, taken } = session.readOrFault('take all', (text) => ({
      reply: text,
      taken: new Set(ids.filter((id, i) => session.objects.parent(session.mem, id) !== parents[i])),
    })) ?? { reply: '', taken: new Set<number>() };
    namesBy(session, 'take', new Map([...loose].filter(([id]) => taken.has(id))), () => printedWords(session, reply), found);
  }
  return found;
}

/**
 * Names the things `verb` with their phrase does not move alone, by the words `listing` gives:
 * a word that `verb` moves one of them alone with names it. Adds to `found`.
 */
function namesBy(
  session: GameSession,
  verb: string,
  things: ReadonlyMap<number, string>,
  listing: () => string[],
  found: Map<number, string>,
): void {
  if (things.size === 0) return;
  const ids = [...things.keys()];
  const movesAlone = (id: number, phrase: string) => {
    const moved = movedBy(session, `${verb} ${phrase}`, ids);
    return moved.length === 1 && moved[0] === id;
  };
  const unnamed = new Set(ids.filter((id) => !movesAlone(id, things.get(id)!)));
  if (unnamed.size === 0) return;
  const known = new Set([...things.values()].flatMap((phrase) => phrase.split(' ')));
  const words = listing().filter((word) => !known.has(word));
  let named = 0;
  for (const word of words.slice(0, MAX_WORDS_TRIED)) {
    const moved = movedBy(session, `${verb} ${word}`, ids);
    if (moved.length === 1 && unnamed.has(moved[0]) && !found.has(moved[0])) {
      found.set(moved[0], word);
      named++;
    }
    if (named === unnamed.size) break;
  }
}

/** The words of a text that the dictionary holds, once each, less articles and pronouns. */
function printedWords(session: GameSession, text: string): string[] {
  const words = (text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? []).filter((word) => !DETERMINERS.has(word) && session.dictionary.has(word));
  return [...new Set(words)];
}

/**
 * Which of `watched` a command moves, from the current state (put back after), leaving out those
 * it moved into another of them: the parser's shuffles to free a hand (Anchorhead's "drop slip"
 * first takes the slip of paper out of the trenchcoat's pocket and slips the newspaper in). None
 * where the story faults on the command (Night's "drop flashlight" overflows the stack once "go
 * door" has put the player in the compass).
 */
function movedBy(session: GameSession, command: string, watched: number[]): number[] {
  const parents = watched.map((id) => session.objects.parent(session.mem, id));
  const carriers = new Set(watched);
  const moved = session.readOrFault(command, () =>
    watched.filter((id, i) => {
      const parent = session.objects.parent(session.mem, id);
      return parent !== parents[i] && !carriers.has(parent);
    }),
  );
  return moved ?? [];
}
