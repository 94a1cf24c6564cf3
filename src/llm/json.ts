/** Turning model text into a validated value, and zod schemas into JSON Schema for constrained decoding. */
import { z } from 'zod';
import { describeZodError } from '../schemas/describe';
import { LlmError } from './errors';

/** The first JSON object in `text`; no object, or broken JSON, is a retryable bad answer. */
export function parseJsonObject(text: string, what: string): unknown {
  const start = text.indexOf('{');
  const end = text.lastIndexOf('}');
  if (start < 0 || end < start)
    throw new LlmError('bad-answer', `The model's ${what} answer contains no JSON object: ${text.slice(0, 200)}`);
  try {
    return JSON.parse(text.slice(start, end + 1));
  } catch (err) {
    throw new LlmError('bad-answer', `The model's ${what} answer is not valid JSON (${(err as Error).message}): ${text.slice(0, 200)}`);
  }
}

/** Parse the first JSON object in `text` and validate it; a failure is a retryable bad answer. */
export function parseAnswer<S extends z.ZodTypeAny>(schema: S, text: string, schemaName: string): z.infer<S> {
  const parsed = schema.safeParse(parseJsonObject(text, schemaName));
  if (!parsed.success)
    throw new LlmError('bad-answer', `The model's ${schemaName} answer does not match its schema: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

/** JSON Schema for a zod schema, trimmed to what both OpenAI structured outputs and llama.cpp grammars accept. */
export function jsonSchemaFor(schema: z.ZodTypeAny): Record<string, unknown> {
  const js = z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as Record<string, unknown>;
  delete js.$schema;
  return js;
}

/**
 * The same JSON Schema as node-llama-cpp's grammar builder needs it: it knows `oneOf` but not
 * `anyOf` (what zod emits for a union), and silently turns an `anyOf` into a grammar that only
 * allows `null`. For a grammar both mean "one of these alternatives", so renaming is exact.
 */
export function llamaGrammarSchema(schema: unknown, isPropertyMap = false): unknown {
  if (Array.isArray(schema)) return schema.map((s) => llamaGrammarSchema(s));
  if (!schema || typeof schema !== 'object') return schema;
  // Keys of a `properties` map are field names (a field may be called "anyOf"), not keywords.
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k === 'anyOf' && !isPropertyMap ? 'oneOf' : k,
      llamaGrammarSchema(v, !isPropertyMap && (k === 'properties' || k === '$defs' || k === 'definitions')),
    ]),
  );
}
