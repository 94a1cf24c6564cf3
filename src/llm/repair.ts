/**
 * One repair for an unusable answer. At temperature 0 with a fixed seed a model answers the same
 * request the same way, so retrying it unchanged only repeats the mistake: the answer is asked
 * again once, with the model's own answer and what was wrong with it in the conversation. An
 * answer still unusable after that is a failure no retry of the same request fixes.
 */
import { LlmError } from './errors';
import type { ChatMessage, Usage } from './types';

/** The part of a model's answer repair needs: its text, and whether it stopped at the token limit. */
export interface RawAnswer {
  raw: string;
  /** Generation stopped at maxTokens (`finish_reason: length`): the answer is cut off. */
  cutOff: boolean;
  usage: Usage;
}

/** How much of a bad answer the repair request shows the model (a small context must still hold the prompt). */
const SHOWN_CHARS = 600;

/** Why an answer was not accepted, for the model and for logs. */
export function problemOf(err: LlmError, answer: RawAnswer, maxTokens: number): string {
  const cut = answer.cutOff ? `it was cut off at the limit of ${maxTokens} tokens (write less); ` : '';
  return `${cut}${err.message}`;
}

/** The conversation asking again: the bad answer as the model's turn, then what was wrong with it. */
export function repairMessages(messages: ChatMessage[], answer: RawAnswer, problem: string): ChatMessage[] {
  const shown = answer.raw.length > SHOWN_CHARS ? `${answer.raw.slice(0, SHOWN_CHARS)} [...]` : answer.raw;
  return [
    ...messages,
    { role: 'assistant', content: shown || '(no answer)' },
    {
      role: 'user',
      content: `That answer could not be used: ${problem}\nAnswer again: one JSON object that fits the schema, and nothing else.`,
    },
  ];
}

export const addUsage = (a: Usage, b: Usage): Usage => ({
  promptTokens: a.promptTokens + b.promptTokens,
  completionTokens: a.completionTokens + b.completionTokens,
});

/**
 * Ask, read the answer with `read`; when it is a bad answer, ask once more with the repair
 * messages. Returns the accepted answer's value, its answer, the usage of both calls and whether
 * a repair was needed. A second bad answer is a non-retryable `bad-answer` naming both problems.
 */
export async function answeredWithRepair<A extends RawAnswer, T>(
  messages: ChatMessage[],
  maxTokens: number,
  ask: (messages: ChatMessage[]) => Promise<A>,
  read: (answer: A) => T,
): Promise<{ value: T; answer: A; usage: Usage; repaired: boolean }> {
  const first = await ask(messages);
  let problem: string;
  try {
    return { value: read(first), answer: first, usage: first.usage, repaired: false };
  } catch (err) {
    if (!(err instanceof LlmError) || err.kind !== 'bad-answer') throw err;
    problem = problemOf(err, first, maxTokens);
  }
  const second = await ask(repairMessages(messages, first, problem));
  const usage = addUsage(first.usage, second.usage);
  try {
    return { value: read(second), answer: second, usage, repaired: true };
  } catch (err) {
    if (!(err instanceof LlmError) || err.kind !== 'bad-answer') throw err;
    throw new LlmError(
      'bad-answer',
      `${problemOf(err, second, maxTokens)} (asked again once after: ${problem}; the same request would give the same answer)`,
      undefined,
      false,
    );
  }
}
