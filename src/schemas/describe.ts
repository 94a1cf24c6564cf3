import type { z } from 'zod';

/** "maxTurns: Too small: expected number to be >=1; game: Required" — names every bad field. */
export function describeZodError(error: z.ZodError): string {
  return error.issues.map((i) => `${i.path.length ? i.path.join('.') : '(input)'}: ${i.message}`).join('; ');
}
