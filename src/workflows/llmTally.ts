/**
 * Every LLM activity of an episode goes through here: a failed one (its retries spent) becomes
 * 'unreachable' for the pipeline, which plays on without it, and is named by its kind
 * (unreachable, refused, invalid answer, timed out) in the log and the turn's record; answered
 * calls are counted by what they were for. The totals ride in the agent state's `llm` usage, so
 * the episode's result says how many calls were answered and how many failed, and why.
 */
import { ActivityFailure, ApplicationFailure, isCancellation, log, TimeoutFailure } from '@temporalio/workflow';
import { LLM_CALL_NAMES, LlmFailureKind, llmFailureKindOf } from '../schemas/llmFailure';
import type { LlmUsage } from '../agent/state';

export interface LlmCallFailure {
  /** What the call was for: oracle, failure analysis, think, compact, knowledge update, wisdom. */
  call: string;
  kind: LlmFailureKind;
}

/** The words for a failed activity: its failure's type (set at the LLM boundary), or `timed out` for an activity timeout. */
export function failureKindOf(err: ActivityFailure): LlmFailureKind {
  const cause = err.cause;
  if (cause instanceof TimeoutFailure) return llmFailureKindOf(null, true);
  return llmFailureKindOf(cause instanceof ApplicationFailure ? cause.type : null);
}

const callName = (activity: string): string | null => (LLM_CALL_NAMES as Record<string, string>)[activity] ?? null;

export class LlmTally {
  private readonly answered: Record<string, number>;
  private readonly failed: Record<string, number>;
  private turnFailures: LlmCallFailure[] = [];

  constructor(carried?: Pick<LlmUsage, 'answered' | 'failed'>) {
    this.answered = { ...(carried?.answered ?? {}) };
    this.failed = { ...(carried?.failed ?? {}) };
  }

  /**
   * Run one activity. `activity` is its name (analyseTurn, think, compact, ...); an activity that
   * is not an LLM call (verifyKnowledge) is not counted, but fails the same way.
   */
  async call<T>(activity: string, what: string, run: () => Promise<T>): Promise<T | 'unreachable'> {
    const name = callName(activity);
    try {
      const result = await run();
      if (name) this.answered[name] = (this.answered[name] ?? 0) + 1;
      return result;
    } catch (err) {
      if (isCancellation(err) || !(err instanceof ActivityFailure)) throw err;
      const kind = failureKindOf(err);
      const error = String(err.cause?.message ?? err.message);
      if (name) {
        this.failed[kind] = (this.failed[kind] ?? 0) + 1;
        this.turnFailures.push({ call: name, kind });
        log.warn(`${what} failed (${kind}); playing on without it`, { call: name, kind, error });
      } else log.warn(`${what} failed; playing on without it`, { error });
      return 'unreachable';
    }
  }

  /** The failures since the last call of this, for the turn's record. */
  takeTurnFailures(): LlmCallFailure[] {
    const taken = this.turnFailures;
    this.turnFailures = [];
    return taken;
  }

  /** The usage with this episode's answered and failed calls. */
  into(usage: LlmUsage): LlmUsage {
    return { ...usage, answered: { ...this.answered }, failed: { ...this.failed } };
  }
}
