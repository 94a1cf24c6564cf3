/**
 * The seed's informed action selector, deterministic given the workflow's seeded RNG. The
 * engine's probes come first (take a winning or scoring move, never walk into a known death),
 * then the first step of a learned path to a reward; then the oracle's advice, trusted by its
 * learned reliability and vetted by the engine (not a move back into a state this episode has
 * been in, not one already retried here); then exploration.
 *
 * Why trust is the learned reliability alone: the small embedded model nearly always reports its
 * confidence as "low", so a gate on self-reported confidence starved the recommendation branch
 * (bench:agent on 9:05). Why the oracle's own failure list does not veto: the 270M model marks
 * nearly every move a failure with reason "unknown"; the engine's probes are the better judge.
 */
import type { ActionOption } from '../schemas/game';
import type { LearnedState } from '../schemas/episode';
import type { TurnAnalysis } from '../schemas/oracle';
import { accuracy, Reliability } from './reliability';
import { explore, knownMove, MAX_TRIES, StateSet, timesTried } from './policy';
import type { Rng } from './rng';

export type SelectionReason = 'won' | 'reward' | 'planned' | 'thought' | 'recommended' | 'blocker' | 'alternative' | 'novel' | 'random' | 'fallback';

export interface Selection {
  command: string;
  reason: SelectionReason;
  /** The oracle's recommendation matched a valid action and was taken. */
  followedRecommendation: boolean;
}

export interface SelectorInput {
  analysis: TurnAnalysis | null;
  options: ActionOption[];
  reliability: Reliability;
  worldHash: string;
  visited: StateSet;
  rng: Rng;
  /** This episode's state-action counts (see `PolicyContext.tried`). */
  tried: Readonly<Record<string, number>>;
  /** The learned state, for planning and cross-episode novelty. */
  learned: LearnedState;
  /** A thoughtbox session's concluded action (a valid command), if the turn was thought through. */
  conclusion?: string | null;
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ').replace(/\s+/g, ' ').trim();

/** The valid action a free-text suggestion refers to: exact, then containment either way, then shared words. */
export function matchAction<O extends Pick<ActionOption, 'command'>>(suggestion: string, options: readonly O[]): O | null {
  const s = norm(suggestion);
  if (!s) return null;
  const exact = options.find((o) => norm(o.command) === s);
  if (exact) return exact;
  const contained = options.find((o) => norm(o.command).includes(s) || s.includes(norm(o.command)));
  if (contained) return contained;
  const words = new Set(s.split(' ').filter((w) => w.length > 2));
  let best: O | null = null;
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

const pick = (command: string, reason: SelectionReason, followedRecommendation = false): Selection => ({ command, reason, followedRecommendation });

export function selectAction(input: SelectorInput): Selection {
  const { analysis, options, reliability, worldHash, visited, rng, tried, learned } = input;
  if (options.length === 0) return pick(rng.pick(['look', 'wait']), 'fallback');

  const ctx = { options, worldHash, visited, learned, rng, tried };
  const { pool, choice } = knownMove(ctx);
  if (choice) return pick(choice.command, choice.reason);

  const worthTrying = (o: ActionOption) => !visited.has(o.resultHash) && timesTried(tried, worldHash, o.command) < MAX_TRIES;
  // A concluded thought is the oracle thinking longer: trusted by its own learned reliability.
  const concluded = input.conclusion ? pool.find((o) => o.command === input.conclusion) : undefined;
  if (concluded && worthTrying(concluded) && rng.next() < accuracy(reliability, 'thought')) return pick(concluded.command, 'thought');
  if (analysis) {
    const rec = matchAction(analysis.recommended_action, pool);
    if (rec && worthTrying(rec) && rng.next() < accuracy(reliability, 'recommendation')) return pick(rec.command, 'recommended', true);
    const blocker = analysis.blocking_condition || analysis.prerequisite;
    if (blocker) {
      const fix = pool.find((o) => worthTrying(o) && addressesBlocker(o.command, blocker));
      if (fix) return pick(fix.command, 'blocker', rec?.command === fix.command);
    }
    for (const alt of analysis.alternative_actions) {
      const m = matchAction(alt, pool);
      if (m && worthTrying(m)) return pick(m.command, 'alternative');
    }
  }
  const move = explore(pool, ctx);
  return pick(move.command, move.reason === 'novel' ? 'novel' : 'random');
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
