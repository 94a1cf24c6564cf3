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
import type { TurnAnalysis } from '../schemas/oracle';
import { frontier, TIER_REASONS } from './cells';
import { accuracy, Reliability } from './reliability';
import { candidates, explore, knownMove, MAX_TRIES, nextUntried, PolicyContext, StateSet, timesTried } from './policy';

export type SelectionReason = 'won' | 'reward' | 'planned' | 'return' | 'thought' | 'recommended' | 'blocker' | 'alternative' | 'novel' | 'untried' | 'random' | 'fallback';

export interface Selection {
  command: string;
  reason: SelectionReason;
  /** Why, in a few words (the oracle's own reasoning when its advice was taken). */
  why: string;
  /** The oracle's recommendation matched a valid action and was taken. */
  followedRecommendation: boolean;
}

export interface SelectorInput extends PolicyContext {
  analysis: TurnAnalysis | null;
  reliability: Reliability;
  /** A thoughtbox session's concluded action (a valid command), if the turn was thought through. */
  conclusion?: string | null;
}

const norm = (s: string) => s.toLowerCase().replace(/[^a-z0-9 ]+/g, ' ').replace(/\s+/g, ' ').trim();

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

const informative = (text: string) => !/^(|unknown|none|n\/a|nothing|-)$/i.test(text.trim());

const pick = (command: string, reason: SelectionReason, why: string, followedRecommendation = false): Selection => ({ command, reason, why, followedRecommendation });

/** What a player would type, from free text: lower case, plain words, a few of them (the `none` assist). */
export function asCommand(text: string): string | null {
  const command = text.toLowerCase().replace(/[^a-z0-9 ,'-]+/g, ' ').replace(/\s+/g, ' ').trim();
  return command && command.length <= 60 && command.split(' ').length <= 8 ? command : null;
}

/**
 * The moves advice may pick from, as commands: under `probe` the options of the best novelty tier
 * (advice steers within what the probes say is most promising, never back to where the episode
 * has been); under `valid` the untried commands of the least risky kind left, as the explorer
 * would take them (see nextUntried); under `none` whatever the advice says, as typed.
 */
function advisable(input: SelectorInput, pool: ActionOption[]): { match: (advice: string) => string | null; tierWhy: string | null } {
  const untriedHere = (command: string) => timesTried(input.tried, input.worldHash, command) < MAX_TRIES;
  if (input.assist === 'probe') {
    const best = frontier(pool, { ...input.cells, visited: input.visited });
    const choices = (best?.options ?? []).filter((o) => untriedHere(o.command));
    return { match: (advice) => matchAction(advice, choices)?.command ?? null, tierWhy: best ? TIER_REASONS[best.tier] : null };
  }
  if (input.assist === 'valid') {
    const choices = (nextUntried(input)?.commands ?? []).map((command) => ({ command }));
    return { match: (advice) => matchAction(advice, choices)?.command ?? null, tierWhy: null };
  }
  return {
    match: (advice) => {
      const command = asCommand(advice);
      return command && untriedHere(command) ? command : null;
    },
    tierWhy: null,
  };
}

/**
 * Whether the oracle's other advice (the blocker's fix, its alternatives) is taken once its
 * recommendation was not. Under `probe` it only ever names moves of the best novelty tier, and
 * under `none` it is all there is. Under `valid` nothing vets it: it is trusted as often as the
 * recommendation is. Taken every time, the 270M model's alternatives walked Zork I's forest and
 * canyon turn after turn, however low its learned reliability had fallen.
 */
function trustsOtherAdvice(input: SelectorInput): boolean {
  return input.assist !== 'valid' || input.rng.next() < accuracy(input.reliability, 'recommendation');
}

export function selectAction(input: SelectorInput): Selection {
  const { analysis, reliability, rng } = input;
  const { pool, choice } = knownMove(input);
  if (choice) return pick(choice.command, choice.reason, choice.why);
  if (input.assist === 'probe' && pool.length === 0) return pick(rng.pick(['look', 'wait']), 'fallback', 'no valid action found');

  const { match, tierWhy } = advisable(input, pool);
  // Small models often fill the reasoning with a placeholder: then the advice is reason enough.
  const because = (own: string) => {
    const said = informative(own) ? own : 'the oracle advised it';
    return tierWhy ? `${said} (${tierWhy})` : said;
  };
  // A concluded thought is the oracle thinking longer: trusted by its own learned reliability.
  const concluded = input.conclusion ? match(input.conclusion) : null;
  if (concluded && rng.next() < accuracy(reliability, 'thought')) return pick(concluded, 'thought', because('thought through'));
  if (analysis) {
    const rec = match(analysis.recommended_action);
    if (rec && rng.next() < accuracy(reliability, 'recommendation')) return pick(rec, 'recommended', because(analysis.action_reasoning.trim()), true);
    if (trustsOtherAdvice(input)) {
      const blocker = analysis.blocking_condition || analysis.prerequisite;
      if (blocker) {
        const fix = candidates(input).map((command) => match(command)).find((c): c is string => c !== null && addressesBlocker(c, blocker));
        if (fix) return pick(fix, 'blocker', because(`addresses: ${blocker}`), rec === fix);
      }
      for (const alt of analysis.alternative_actions) {
        const m = match(alt);
        if (m) return pick(m, 'alternative', because('the oracle\'s alternative'));
      }
    }
  }
  const move = explore(pool, input);
  return pick(move.command, move.reason, move.why);
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
