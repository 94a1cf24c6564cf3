/** The LLM part of a result: calls answered and failed (and why), fallback turns, and plainly when the model answered nothing. */
import type { LlmUsage } from '../agent/state';
import { totalOf } from '../schemas/llmFailure';

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
const breakdown = (counts: Partial<Record<string, number>> | undefined) => {
  const parts = Object.entries(counts ?? {})
    .filter(([, n]) => n)
    .map(([name, n]) => `${name} ${n}`);
  return parts.length ? ` (${parts.join(', ')})` : '';
};

/** One line for an episode's LLM usage, as `grue play` prints it. */
export function llmResultLine(usage: LlmUsage): string {
  const answered = totalOf(usage.answered);
  const failed = totalOf(usage.failed);
  const counts =
    `${plural(answered, 'LLM call')} answered${breakdown(usage.answered)}, ${failed} failed${breakdown(usage.failed)}; ` +
    plural(usage.fallbackTurns, 'fallback turn');
  if (answered === 0 && (failed > 0 || usage.fallbackTurns > 0))
    return `llm: THE MODEL ANSWERED NOTHING: ${counts}. The episode played without the LLM; check the LLM endpoint and the worker's log.`;
  return `llm: ${counts}`;
}

/** The same over a campaign's episodes. */
export function campaignLlmLine(episodes: Array<{ llmAnswered?: number; llmFailed?: number; fallbackTurns?: number }>): string | null {
  if (!episodes.some((e) => e.llmAnswered !== undefined)) return null;
  const sum = (pick: (e: (typeof episodes)[number]) => number | undefined) => episodes.reduce((n, e) => n + (pick(e) ?? 0), 0);
  const answered = sum((e) => e.llmAnswered);
  const failed = sum((e) => e.llmFailed);
  return llmResultLine({
    calls: 0,
    promptTokens: 0,
    completionTokens: 0,
    fallbackTurns: sum((e) => e.fallbackTurns),
    answered: answered ? { all: answered } : {},
    failed: failed ? { all: failed } : {},
  }).replace(/ \(all \d+\)/g, '');
}
