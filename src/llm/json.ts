/** Turning model text into a validated value, and zod schemas into JSON Schema for constrained decoding. */
import { z } from 'zod';
import { describeZodError } from '../schemas/describe';
import { LlmError } from './errors';

/** Parse the first JSON object in `text` and validate it; a failure is a retryable bad answer. */
export function parseAnswer<S extends z.ZodTypeAny>(schema: S, text: string, schemaName: string): z.infer<S> {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start) throw new LlmError('bad-answer', `The model's ${schemaName} answer contains no JSON object: ${text.slice(0, 200)}`);
  let data: unknown;
  try {
    data = JSON.parse(text.slice(start, end + 1));
  } catch (err) {
    throw new LlmError('bad-answer', `The model's ${schemaName} answer is not valid JSON (${(err as Error).message}): ${text.slice(0, 200)}`);
  }
  const parsed = schema.safeParse(data);
  if (!parsed.success) throw new LlmError('bad-answer', `The model's ${schemaName} answer does not match its schema: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/** JSON Schema for a zod schema, trimmed to what both OpenAI structured outputs and llama.cpp grammars accept. */
export function jsonSchemaFor(schema: z.ZodTypeAny): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
}
