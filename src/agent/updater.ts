/**
 * Belief updates from oracle answers (seed 004 BeliefUpdater), weighted by reliability, and
 * reliability updates from outcomes the agent observes directly (score, new world state).
 */
import { z } from 'zod';
import type { TurnAnalysis } from '../schemas/oracle';
import { CONFIDENCE_VALUE } from '../schemas/oracle';
import { Beliefs, LIMITS, pushBounded } from './beliefs';
import { accuracy, recordOutcome, Reliability } from './reliability';

export const StepOutcomeSchema = z.object({
  scoreDelta: z.number().int(),
  /** The action led to a world state not seen before this episode. */
  newState: z.boolean(),
  /** The action changed the world at all (a refused or pointless command does not). */
  worldChanged: z.boolean(),
});
export type StepOutcome = z.infer<typeof StepOutcomeSchema>;

/** Did acting on the oracle help? Observable proxies: score went up, or the world moved somewhere new. */
export function helped(o: StepOutcome): boolean {
  return o.scoreDelta > 0 || o.newState;
}

/** A failure reason worth remembering: small models often fill the field with a placeholder. */
const informative = (reason: string) => !/^(unknown|none|n\/a|failed|no|yes|)$/i.test(reason.trim());

/**
 * Take the oracle's answer into the beliefs. `lastOutcome` is what the engine saw the last action
 * do: when it scored or reached a new state, the oracle's "it failed" is overruled (the 270M
 * model marks nearly every move failed), and placeholder reasons are not recorded.
 */
export function updateFromAnalysis(
  beliefs: Beliefs,
  a: TurnAnalysis,
  reliability: Reliability,
  lastAction: string | null,
  lastOutcome: StepOutcome | null,
): Beliefs {
  let b = { ...beliefs };
  if (a.overall_goal && (b.overallGoal === 'unknown' || accuracy(reliability, 'goal') >= 0.5)) b.overallGoal = a.overall_goal;
  if (a.immediate_goal) b.currentSubgoal = a.immediate_goal;
  if (
    a.last_action_made_progress &&
    a.accomplishment &&
    CONFIDENCE_VALUE[a.confidence] > 0.5 &&
    !b.accomplished.includes(a.accomplishment)
  ) {
    b.accomplished = pushBounded(b.accomplished, a.accomplishment, LIMITS.accomplished);
  }
  if (a.last_action_made_progress) b.blockingCondition = null;
  const blocker = a.blocking_condition || a.prerequisite;
  if (blocker) b.blockingCondition = blocker;
  const engineSawProgress = lastOutcome !== null && helped(lastOutcome);
  const overruled = engineSawProgress || !informative(a.failure_reason);
  if (lastAction && !a.last_action_made_progress && !overruled) {
    b = {
      ...b,
      failedActions: pushBounded(
        b.failedActions.filter((f) => f.action !== lastAction),
        { action: lastAction, reason: a.failure_reason },
        LIMITS.failedActions,
      ),
    };
  }
  return b;
}

export interface ReliabilityEvidence {
  actedOnBlocker: boolean;
  /** The oracle's claim about an earlier action's progress, and what that action really did. */
  progressClaim: { claimed: boolean; actual: StepOutcome } | null;
  /**
   * What the engine's probe says the recommendation would have done, taken or not (see
   * `recommendationWouldHelp`); null when there was no answer.
   */
  recommendationProbe: boolean | null;
  /** The same for a thoughtbox session's concluded action; null without one. */
  conclusionProbe: boolean | null;
  /**
   * Whose advice the agent acted on. Without the probe (the `valid` and `none` assists) advice is
   * judged only when taken, by what the move really did.
   */
  actedOn?: 'recommendation' | 'thought' | null;
  /**
   * Under `valid`, advice acted on is judged by whether the move scored or reached a place or
   * item no episode had reached (a first-ever cell), given here; absent, by `helped`. Advice
   * there may only name an untried move, and nearly every untried move reaches a new state, so a
   * new state said nothing about the advice: on Zork I the 270M model's walks around the forest
   * counted as help and kept its reliability near 1.
   */
  firstEver?: boolean;
}

export function updateReliability(r: Reliability, o: StepOutcome, evidence: ReliabilityEvidence): Reliability {
  let next = r;
  const adviceHelped = evidence.firstEver === undefined ? helped(o) : o.scoreDelta > 0 || evidence.firstEver;
  if (evidence.recommendationProbe !== null) next = recordOutcome(next, 'recommendation', evidence.recommendationProbe);
  else if (evidence.actedOn === 'recommendation') next = recordOutcome(next, 'recommendation', adviceHelped);
  if (evidence.conclusionProbe !== null) next = recordOutcome(next, 'thought', evidence.conclusionProbe);
  else if (evidence.actedOn === 'thought') next = recordOutcome(next, 'thought', adviceHelped);
  if (evidence.actedOnBlocker) next = recordOutcome(next, 'blocker', helped(o));
  if (evidence.progressClaim)
    next = recordOutcome(next, 'progress', evidence.progressClaim.claimed === helped(evidence.progressClaim.actual));
  if (o.scoreDelta !== 0) next = recordOutcome(next, 'goal', o.scoreDelta > 0);
  return next;
}
