/**
 * Reading the oracle's free-text advice as a game command: which valid action it names, what a
 * player would type from it, whether it addresses a blocker, and (with the probe) whether it
 * would have helped.
 */
import type { ActionOption } from '../schemas/game';
import type { StateSet } from './state';

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9 ]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();

/** The valid action a free-text suggestion refers to: exact, then containment either way, then shared words. */
export function matchAction<T extends { command: string }>(suggestion: string, options: readonly T[]): T | null {
  const s = norm(suggestion);
  if (!s) return null;
  const exact = options.find((o) => norm(o.command) === s);
  if (exact) return exact;
  const contained = options.find((o) => norm(o.command).includes(s) || s.includes(norm(o.command)));
  if (contained) return contained;
  const words = new Set(s.split(' ').filter((w) => w.length > 2));
  let best: T | null = null;
  let bestScore = 0;
  for (const o of options) {
    const ow = norm(o.command).split(' ');
    const score = ow.filter((w) => words.has(w)).length / Math.max(ow.length, 1);
    if (score > bestScore) {
      bestScore = score;
      best = o;
    }
  }
  return bestScore >= 0.5 ? best : null;
}

/** Does this action seem to address the blocker? (seed: keyword heuristic) */
export function addressesBlocker(action: string, blocker: string): boolean {
  const a = norm(action);
  const b = norm(blocker);
  if (b.split(' ').some((w) => w.length > 3 && a.includes(w))) return true;
  if (/(get up|stand|bed)/.test(b) && /stand|get up/.test(a)) return true;
  if (/dress|cloth/.test(b) && /wear|dress/.test(a)) return true;
  if (/door|locked/.test(b) && /open|unlock/.test(a)) return true;
  if (/dark|light/.test(b) && /light|turn on|switch on/.test(a)) return true;
  return false;
}

/** What a small model writes where it has no advice; asCommand's form ("n/a" is "n a"). */
const PLACEHOLDERS = /^(unknown|none|nothing|n a|null|no action|not sure)$/;
/** A sentence, not a command: no command starts with an article, a pronoun or "not" ("the last action made progress", "not yet"). */
const SENTENCE_START = /^(the|a|an|you|your|this|that|there|it's|its|we|they|not)\b/;
/** Longer than any word a player types: a small model's runaway token ("tboxtoxtox…"). */
const LONGEST_WORD = 20;

/**
 * Whether a command from asCommand is one: a word or a menu's number, not a placeholder,
 * punctuation (","), a sentence about the game (the 270M model's "the last action made progress")
 * or a runaway token.
 */
export function namesCommand(command: string): boolean {
  return (
    /[a-z0-9]/.test(command) &&
    !PLACEHOLDERS.test(command) &&
    !SENTENCE_START.test(command) &&
    command.split(' ').every((word) => word.length <= LONGEST_WORD)
  );
}

/** The longest command asCommand takes, in characters and in words. */
export const TYPED_COMMAND_LIMITS = { chars: 60, words: 8 } as const;

/** What a player would type, from free text: lower case, plain words, a few of them (the `none` assist). */
export function asCommand(text: string): string | null {
  const command = text
    .toLowerCase()
    .replace(/[^a-z0-9 ,'-]+/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  const { chars, words } = TYPED_COMMAND_LIMITS;
  return command && command.length <= chars && command.split(' ').length <= words ? command : null;
}

/**
 * What the engine's probe says an advised action (a recommendation, a thought's conclusion) would
 * have done, whether or not it was taken: the reliability evidence. Useful = scores, or reaches a
 * state this episode has not been in. Advice that names no valid action did not help.
 */
export function actionWouldHelp(advice: string, options: ActionOption[], visited: StateSet): boolean {
  const rec = matchAction(advice, options);
  if (!rec) return false;
  return rec.scoreDelta > 0 || (!visited.has(rec.resultHash) && rec.outcome !== 'died');
}
