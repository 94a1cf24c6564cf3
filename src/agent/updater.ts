/**
 * Belief updates from oracle answers (seed 004 BeliefUpdater), weighted by reliability, and
 * reliability updates from outcomes the agent observes directly (score, new world state).
 */
import type { TurnAnalysis } from '../schemas/oracle';
import { CONFIDENCE_VALUE } from '../schemas/oracle';
import { Beliefs, LIMITS, pushBounded } from './beliefs';
import { accuracy, recordOutcome, Reliability } from './reliability';

/** A failure reason worth remembering: small models often fill the field with a placeholder. */
const informative = (reason: string) => !/^(unknown|none|n\/a|failed|no|yes|)$/i.test(reason.trim());

export function updateFromAnalysis(
  beliefs: Beliefs,
  a: TurnAnalysis,
  reliability: Reliability,
  lastAction: string | null,
  /**
   * Planning revision: what the engine saw the last action do. When it scored or reached a new
   * state, the oracle's "it failed" is overruled, and placeholder reasons are not recorded.
   */
  lastOutcome?: StepOutcome | null,
): Beliefs {
  let b = { ...beliefs };
  if (a.overall_goal && (b.overallGoal === 'unknown' || accuracy(reliability, 'goal') >= 0.5)) b.overallGoal = a.overall_goal;
  if (a.immediate_goal) b.currentSubgoal = a.immediate_goal;
  if (a.last_action_made_progress && a.accomplishment && CONFIDENCE_VALUE[a.confidence] > 0.5 && !b.accomplished.includes(a.accomplishment)) {
    b.accomplished = pushBounded(b.accomplished, a.accomplishment, LIMITS.accomplished);
  }
  if (a.last_action_made_progress) b.blockingCondition = null;
  const blocker = a.blocking_condition || a.prerequisite;
  if (blocker) b.blockingCondition = blocker;
  const planningRevision = lastOutcome !== undefined;
  const engineSawProgress = lastOutcome != null && helped(lastOutcome);
  const overruled = planningRevision && (engineSawProgress || !informative(a.failure_reason));
  if (lastAction && !a.last_action_made_progress && a.failure_reason && !overruled) {
    b = { ...b, failedActions: pushBounded(b.failedActions.filter((f) => f.action !== lastAction), { action: lastAction, reason: a.failure_reason }, LIMITS.failedActions) };
  }
  return b;
}

export interface StepOutcome {
  scoreDelta: number;
  /** The action led to a world state not seen before this episode. */
  newState: boolean;
  /** The blocker the agent acted on is gone from the next analysis. */
  blockerCleared?: boolean;
}

/** Did acting on the oracle help? Observable proxies: score went up, or the world moved somewhere new. */
export function helped(o: StepOutcome): boolean {
  return o.scoreDelta > 0 || o.newState;
}

export function updateReliability(
  r: Reliability,
  o: StepOutcome,
  flags: {
    followedRecommendation: boolean;
    actedOnBlocker: boolean;
    /** The oracle's claim about an earlier action's progress, and what that action really did. */
    progressClaim: { claimed: boolean; actual: StepOutcome } | null;
    /**
     * Planning revision: what the engine's probe says the recommendation would have done,
     * taken or not (see `recommendationWouldHelp`); replaces the followed-only evidence.
     */
    recommendationProbe?: boolean | null;
  },
): Reliability {
  let next = r;
  if (flags.recommendationProbe !== undefined) {
    if (flags.recommendationProbe !== null) next = recordOutcome(next, 'recommendation', flags.recommendationProbe);
  } else if (flags.followedRecommendation) next = recordOutcome(next, 'recommendation', helped(o));
  if (flags.actedOnBlocker) next = recordOutcome(next, 'blocker', helped(o));
  if (flags.progressClaim) next = recordOutcome(next, 'progress', flags.progressClaim.claimed === helped(flags.progressClaim.actual));
  if (o.scoreDelta !== 0) next = recordOutcome(next, 'goal', o.scoreDelta > 0);
  return next;
}
