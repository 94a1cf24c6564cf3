/**
 * The four words every LLM failure is named by, in logs, transcripts, metrics and results: the
 * endpoint could not be reached (or failed), it refused the request, it answered something
 * unusable, or it took too long. The activity boundary puts the provider's finer kind in the
 * failure's type (`LLM_<KIND>`); the workflow reads the words back from it.
 */
import { z } from 'zod';

export const LlmFailureKindSchema = z.enum(['unreachable', 'refused', 'invalid answer', 'timed out']);
export type LlmFailureKind = z.infer<typeof LlmFailureKindSchema>;

/** The failure type an LLM activity fails with, for each provider kind (see src/llm/errors.ts). */
const KIND_OF_TYPE: Record<string, LlmFailureKind> = {
  LLM_TIMEOUT: 'timed out',
  LLM_RATE_LIMITED: 'unreachable',
  LLM_SERVER: 'unreachable',
  LLM_CONNECTION: 'unreachable',
  LLM_BAD_ANSWER: 'invalid answer',
  LLM_BAD_REQUEST: 'refused',
  LLM_REFUSED: 'refused',
  LLM_AUTH: 'refused',
  LLM_NOT_FOUND: 'refused',
  LLM_CONFIG: 'refused',
};

/** The failure type for a provider kind: `bad-answer` is `LLM_BAD_ANSWER`. */
export const llmFailureType = (kind: string): string => `LLM_${kind.toUpperCase().replace(/-/g, '_')}`;

/**
 * The words for a failed LLM activity, from its failure's type (an ApplicationFailure's), or
 * `timed out` when the activity itself ran out of time; anything else could not be reached.
 */
export function llmFailureKindOf(type: string | null | undefined, activityTimedOut = false): LlmFailureKind {
  if (activityTimedOut) return 'timed out';
  return (type && KIND_OF_TYPE[type]) || 'unreachable';
}

/** What an LLM call was for: one name per activity, as results and the acceptance checks count them. */
export const LLM_CALL_NAMES = {
  analyseTurn: 'oracle',
  analyseFailure: 'failure analysis',
  think: 'think',
  compact: 'compact',
  updateKnowledge: 'knowledge update',
  synthesizeWisdom: 'wisdom',
} as const;
export type LlmCallName = (typeof LLM_CALL_NAMES)[keyof typeof LLM_CALL_NAMES];

/** The sum of a count by name (answered calls by what they were for, failed calls by kind). */
export const totalOf = (counts: Partial<Record<string, number>> | undefined): number =>
  Object.values(counts ?? {}).reduce<number>((sum, n) => sum + (n ?? 0), 0);
