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
import type { TurnAnalysis } from '../schemas/oracle';
import { addressesBlocker } from './advice';
import { AdviceChoices, assistFor } from './assist';
import { candidates, explore, Known, knownMove, PolicyContext } from './policy';
import { accuracy, Reliability } from './reliability';

export { actionWouldHelp, addressesBlocker, asCommand, matchAction } from './advice';

export type SelectionReason =
  | 'won'
  | 'reward'
  | 'planned'
  | 'return'
  | 'thought'
  | 'recommended'
  | 'blocker'
  | 'alternative'
  | 'novel'
  | 'untried'
  | 'random'
  | 'fallback';

export interface Selection {
  command: string;
  reason: SelectionReason;
  /** Why, in a few words (the oracle's own reasoning when its advice was taken). */
  why: string;
  /** The oracle's recommendation matched a valid action and was taken. */
  followedRecommendation: boolean;
}

/**
 * Which of the oracle's answers the selector will take, drawn before the oracle is asked: each
 * is taken as often as the model's learned reliability says it helps. Drawn first, a turn whose
 * answer would all be passed over need not ask at all (see deliberate).
 */
export interface AdviceTrust {
  /** A concluded thoughtbox session's action. */
  thought: boolean;
  recommendation: boolean;
  /** A blocker's fix or an alternative, when the recommendation is not taken. */
  other: boolean;
}

export function drawTrust(input: PolicyContext & { reliability: Reliability }): AdviceTrust {
  const { rng, reliability } = input;
  const thought = rng.next() < accuracy(reliability, 'thought');
  const recommendation = rng.next() < accuracy(reliability, 'recommendation');
  return { thought, recommendation, other: assistFor(input.assist).trustsOtherAdvice(input, reliability) };
}

export interface SelectorInput extends PolicyContext {
  analysis: TurnAnalysis | null;
  reliability: Reliability;
  /** A thoughtbox session's concluded action (a valid command), if the turn was thought through. */
  conclusion?: string | null;
  /** knownMove's answer and the moves the oracle was offered, when the turn's deliberation found them already. */
  known?: Known;
  advice?: AdviceChoices;
  /** Drawn before the oracle was asked (drawTrust); otherwise each is drawn here as it comes up. */
  trust?: AdviceTrust;
}

const informative = (text: string) => !/^(|unknown|none|n\/a|nothing|-)$/i.test(text.trim());

const pick = (command: string, reason: SelectionReason, why: string, followedRecommendation = false): Selection => ({
  command,
  reason,
  why,
  followedRecommendation,
});

export function selectAction(input: SelectorInput): Selection {
  const { analysis, reliability, rng } = input;
  const assist = assistFor(input.assist);
  const { pool, choice } = input.known ?? knownMove(input);
  if (choice) return pick(choice.command, choice.reason, choice.why);
  const idle = assist.idleMove(input, pool);
  if (idle) return pick(idle.command, 'fallback', idle.why);

  const choices = input.advice ?? assist.adviceChoices(input, pool);
  const match = (advice: string) => assist.matchAdvice(advice, choices, input);
  // Small models often fill the reasoning with a placeholder: then the advice is reason enough.
  const because = (own: string) => {
    const said = informative(own) ? own : 'the oracle advised it';
    return choices.tierWhy ? `${said} (${choices.tierWhy})` : said;
  };
  // A concluded thought is the oracle thinking longer: trusted by its own learned reliability.
  const { trust } = input;
  const concluded = input.conclusion ? match(input.conclusion) : null;
  if (concluded && (trust ? trust.thought : rng.next() < accuracy(reliability, 'thought')))
    return pick(concluded, 'thought', because('thought through'));
  if (analysis) {
    const rec = match(analysis.recommended_action);
    if (rec && (trust ? trust.recommendation : rng.next() < accuracy(reliability, 'recommendation')))
      return pick(rec, 'recommended', because(analysis.action_reasoning.trim()), true);
    if (trust ? trust.other : assist.trustsOtherAdvice(input, reliability)) {
      const blocker = analysis.blocking_condition || analysis.prerequisite;
      if (blocker) {
        const fix = candidates(input)
          .map((command) => match(command))
          .find((c): c is string => c !== null && addressesBlocker(c, blocker));
        if (fix) return pick(fix, 'blocker', because(`addresses: ${blocker}`), rec === fix);
      }
      for (const alt of analysis.alternative_actions) {
        const m = match(alt);
        if (m) return pick(m, 'alternative', because("the oracle's alternative"));
      }
    }
  }
  const move = explore(pool, input);
  return pick(move.command, move.reason, move.why);
}
