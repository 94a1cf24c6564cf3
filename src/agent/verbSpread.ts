/**
 * Within a novelty tier, the options are not alike in number: two carried things and three in the
 * room make a dozen "put X in Y" and "throw X at Y" for every single "open door" or "push button".
 * Picked uniformly, the permutations of a few verbs took the probe explorer's turns (cutthroat:
 * "throw X on Y" for 20 turns in its first room). The explorer takes the verbs this episode has
 * used on the fewest things first, so each kind of doing gets its turn before one kind's variants.
 */
import type { ActionOption } from '../schemas/game';
import { isDirectionWord } from './directions';

/** A command's verb: its first word ("turn on lamp" and "turn lamp on" are both "turn"). */
export const verbOf = (command: string) => command.trim().toLowerCase().split(/\s+/)[0] ?? '';

/** Words that join a command's two things: "put X in Y", "push X to Y", "unlock X with Y". */
const JOINS = new Set(['in', 'into', 'on', 'onto', 'to', 'at', 'with', 'from', 'under', 'behind', 'inside', 'through', 'about', 'over']);

/**
 * A two-thing command's kind, its verb and joining word ("put _ in _"), or null for a command of
 * one thing or none ("turn on lamp", "look under bed": the joining word comes right after the verb).
 */
export function pairKindOf(command: string): string | null {
  const words = command.trim().toLowerCase().split(/\s+/);
  for (let index = 2; index < words.length - 1; index++) if (JOINS.has(words[index])) return `${words[0]} _ ${words[index]} _`;
  return null;
}

/** Words that name no thing: articles, quantities and a verb's particles ("take all", "put the coin in a purse", "turn lamp off"). */
const NOT_THINGS = new Set(['the', 'a', 'an', 'all', 'some', 'it', 'them', 'up', 'off', 'down', 'out']);

/**
 * The words of a command that name things: all but its verb, joining words, articles and compass
 * words ("put gold card in toolkit": gold, card, toolkit). A direction is no thing to handle: the
 * ferry's parser takes "drop e" as taking the east out of the compass, and east is gone after it.
 */
export function thingWordsOf(command: string): string[] {
  const [, ...rest] = command.trim().toLowerCase().split(/\s+/);
  return rest.filter((word) => !JOINS.has(word) && !NOT_THINGS.has(word) && !isDirectionWord(word));
}

/** How many distinct commands of each verb the episode made, from its `room|command` list (AgentState.done). */
export function verbUses(done: readonly string[]): Map<string, number> {
  const uses = new Map<string, number>();
  for (const entry of done) {
    const verb = verbOf(entry.slice(entry.indexOf('|') + 1));
    uses.set(verb, (uses.get(verb) ?? 0) + 1);
  }
  return uses;
}

/** The options whose verb the episode has used least (all of them when `options` is empty). */
export function leastUsedVerbs(options: ActionOption[], uses: ReadonlyMap<string, number>): ActionOption[] {
  const count = (option: ActionOption) => uses.get(verbOf(option.command)) ?? 0;
  const least = Math.min(...options.map(count));
  return options.filter((option) => count(option) === least);
}
