/**
 * Names for things held that the parser does not know by the words their vocabulary lists. An
 * Inform object with a parse_name routine answers to what the routine reads, not to its `name`
 * property: Theatre's pearls list "eye" and "three" and answer to "violet" and "pearl", and every
 * candidate made with "three" names something else ("drop three" drops three things). Such a
 * thing is found as one that "drop" with its phrase does not drop alone; the words the inventory
 * prints are then tried with "drop", and a word that drops that thing alone names it.
 */
import type { GameSession } from './session';
import { DETERMINERS } from './vocabulary';

/** Inventory words tried as names at most, in the order printed. */
const MAX_WORDS_TRIED = 24;

/** `held`: the things held, each with the phrase the vocabulary gave it. Returns better phrases for some of them. */
export function heldNames(session: GameSession, held: ReadonlyMap<number, string>): Map<number, string> {
  const found = new Map<number, string>();
  if (held.size === 0 || !session.dictionary.has('drop') || !session.dictionary.has('inventory')) return found;
  const ids = [...held.keys()];
  const dropsAlone = (id: number, phrase: string) => {
    const moved = movedBy(session, `drop ${phrase}`, ids);
    return moved.length === 1 && moved[0] === id;
  };
  const unnamed = new Set(ids.filter((id) => !dropsAlone(id, held.get(id)!)));
  if (unnamed.size === 0) return found;
  const known = new Set([...held.values()].flatMap((phrase) => phrase.split(' ')));
  const words = inventoryWords(session).filter((word) => !known.has(word));
  for (const word of words.slice(0, MAX_WORDS_TRIED)) {
    const moved = movedBy(session, `drop ${word}`, ids);
    if (moved.length === 1 && unnamed.has(moved[0]) && !found.has(moved[0])) found.set(moved[0], word);
    if (found.size === unnamed.size) break;
  }
  return found;
}

/** The words "inventory" prints that the dictionary holds, once each, less articles and pronouns. */
function inventoryWords(session: GameSession): string[] {
  const text = tryAndPutBack(session, 'inventory', (reply) => reply);
  const words = (text.toLowerCase().match(/[a-z][a-z'-]*/g) ?? []).filter((word) => !DETERMINERS.has(word) && session.dictionary.has(word));
  return [...new Set(words)];
}

/** Which of `watched` a command moves, from the current state (put back after). */
function movedBy(session: GameSession, command: string, watched: number[]): number[] {
  const parents = watched.map((id) => session.objects.parent(session.mem, id));
  return tryAndPutBack(session, command, () => watched.filter((id, i) => session.objects.parent(session.mem, id) !== parents[i]));
}

/** What `read` sees after the command (given its reply), the session put back where it was. */
function tryAndPutBack<T>(session: GameSession, command: string, read: (reply: string) => T): T {
  const start = session.captureState();
  try {
    return read(session.tryCommand(command));
  } finally {
    session.restoreState(start);
  }
}
