/** The workflows' input boundary: a bad input fails the workflow at once, naming every bad field. */
import { ApplicationFailure } from '@temporalio/workflow';
import type { z } from 'zod';
import { describeZodError } from '../schemas/describe';

export function validatedInput<S extends z.ZodTypeAny>(schema: S, input: unknown, what: string): z.infer<S> {
  const parsed = schema.safeParse(input);
  if (!parsed.success) throw ApplicationFailure.nonRetryable(`Invalid ${what}: ${describeZodError(parsed.error)}`, 'InvalidInput');
  return parsed.data;
}
