/**
 * The thoughtbox (seed 003) as the turn pipeline uses it: `thoughtboxOffer` says whether this
 * turn thinks; the workflow opens a session and runs one `think` activity per round with
 * `thinkRequest`, folding each answer in with `applyAnswer` until the session is over; a
 * concluded session's action goes to the decide stage.
 */
import type { TurnAnalysis, TurnRequest } from '../../schemas/oracle';
import type { OracleReading, ThinkRequest, ThinkResult, ThoughtboxSession } from './schema';
import { applyAnswer, isOpen, unreachable } from './session';

export * from './schema';
export { applyAnswer, DEFAULT_MAX_THINKING_ITERATIONS, isOpen, openSession, stepError, unreachable } from './session';
export { AUTO, thoughtboxOffer } from './trigger';
export type { Offer } from './trigger';

export function oracleReading(analysis: TurnAnalysis): OracleReading {
  return {
    goal: analysis.immediate_goal || analysis.overall_goal,
    blocker: analysis.blocking_condition || analysis.prerequisite,
    recommended: analysis.recommended_action,
    reasoning: analysis.action_reasoning,
  };
}

/** The next `think` call's input: the same turn context every round, plus all rounds so far. */
export function thinkRequest(session: ThoughtboxSession, turn: TurnRequest, analysis: TurnAnalysis | null): ThinkRequest {
  return {
    turn,
    oracle: analysis ? oracleReading(analysis) : null,
    trigger: session.trigger,
    required: session.required,
    exchanges: session.exchanges,
    seed: turn.seed + session.iterations,
    lastCall: session.iterations + 1 >= session.maxIterations,
  };
}

/**
 * The tool-calling loop: one `think` round at a time until the session is over. `think` is the
 * round's I/O (an activity in the workflow), giving 'unreachable' when it failed after its
 * retries; `onRound` sees the session after each round. Deterministic apart from `think`.
 */
export async function runSession(
  session: ThoughtboxSession,
  turn: TurnRequest,
  analysis: TurnAnalysis | null,
  options: readonly { command: string }[],
  think: (request: ThinkRequest) => Promise<ThinkResult | 'unreachable'>,
  onRound: (session: ThoughtboxSession) => void = () => undefined,
): Promise<ThoughtboxSession> {
  let current = session;
  while (isOpen(current)) {
    const result = await think(thinkRequest(current, turn, analysis));
    current = result === 'unreachable' ? unreachable(current) : applyAnswer(current, result.answer, result.usage, options);
    onRound(current);
  }
  return current;
}
