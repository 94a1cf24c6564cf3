/** Argument helpers shared by the `grue` subcommands (no Temporal imports: `grue game` stays fast). */
import { InvalidArgumentError } from 'commander';
import { z } from 'zod';
import { describeZodError } from '../schemas/describe';

/** A CLI usage error: printed as `grue: message`, exit status 2, before anything starts. */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** Longest workflow id the CLI accepts: it names folders and URLs, and people type it back. */
export const MAX_WORKFLOW_ID_LENGTH = 200;

/** A workflow id as `--id` or an inspecting command takes it: 1–200 printable characters. */
export function parseWorkflowId(name: string) {
  return (value: string): string => {
    if (value.trim() === '') throw new InvalidArgumentError(`${name} must not be empty.`);
    if (value.length > MAX_WORKFLOW_ID_LENGTH)
      throw new InvalidArgumentError(`${name} must be at most ${MAX_WORKFLOW_ID_LENGTH} characters, got ${value.length}.`);
    // eslint-disable-next-line no-control-regex -- control characters are exactly what is refused
    if (/[\u0000-\u001f\u007f]/.test(value))
      throw new InvalidArgumentError(`${name} must not contain control characters (tabs, newlines, ...).`);
    return value;
  };
}

export function parseInteger(name: string, min = Number.MIN_SAFE_INTEGER, max = Number.MAX_SAFE_INTEGER) {
  return (value: string): number => {
    if (!/^-?\d+$/.test(value.trim())) throw new InvalidArgumentError(`${name} must be a whole number, got "${value}".`);
    const n = Number(value);
    if (n < min || n > max) throw new InvalidArgumentError(`${name} must be between ${min} and ${max}, got ${n}.`);
    return n;
  };
}

/** Resolve options through the schema the workflow checks, so bad values never reach a workflow. */
export function resolved<T>(resolve: () => T, what: string): T {
  try {
    return resolve();
  } catch (err) {
    if (err instanceof z.ZodError) throw new UsageError(`invalid ${what}: ${describeZodError(err)}`);
    throw err;
  }
}
