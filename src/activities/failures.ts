/**
 * The activity boundary: validate inputs with zod and classify failures. A failure that can
 * never succeed on retry (bad input, a corrupt story, an invalid command) becomes a
 * non-retryable ApplicationFailure whose message says what to fix; anything else is rethrown
 * and Temporal retries it under the activity's retry policy.
 */
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { EngineError } from '../engine/errors';
import { describeZodError } from '../schemas/describe';

export { describeZodError };

export function parseInput<S extends z.ZodTypeAny>(schema: S, raw: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(raw);
  if (!parsed.success) {
    throw ApplicationFailure.nonRetryable(`Invalid ${what}: ${describeZodError(parsed.error)}`, 'InvalidInput');
  }
  return parsed.data;
}

/** Run `fn`, turning permanent engine errors into non-retryable failures. */
export async function classified<T>(fn: () => T | Promise<T>): Promise<T> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof ApplicationFailure) throw err;
    if (err instanceof EngineError && err.permanent) {
      throw ApplicationFailure.nonRetryable(err.message, err.code);
    }
    throw err;
  }
}
