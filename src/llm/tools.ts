/**
 * The provider-neutral half of tool calling: checking a tool list, validating the calls a model
 * made one by one (a bad call is reported, never allowed to sink the good ones), and the
 * `{ "calls": [...] }` answer shape used by providers without native tool calling.
 */
import { z } from 'zod';
import { describeZodError } from '../schemas/describe';
import { LlmError } from './errors';
import { jsonSchemaFor, parseJsonObject } from './json';
import type { ChatMessage, InvalidToolCall, ToolCall, ToolCallRequest, ToolSpec } from './types';

export const DEFAULT_MAX_CALLS = 8;
/** Room for several calls with short arguments; callers with big arguments should say so. */
export const DEFAULT_TOOL_MAX_TOKENS = 800;

function isObjectSchema(js: Record<string, unknown>): boolean {
  if (js.type === 'object') return true;
  return Array.isArray(js.anyOf) && js.anyOf.length > 0 && js.anyOf.every((s) => isObjectSchema(s as Record<string, unknown>));
}

const ToolRequestSchema = z.object({
  tools: z
    .array(
      z.object({
        name: z.string().regex(/^[a-zA-Z0-9_-]{1,64}$/, 'a tool name is 1-64 letters, digits, _ or -'),
        description: z.string(),
        schema: z.custom<z.ZodTypeAny>((s) => s instanceof z.ZodType, 'a zod schema'),
      }),
    )
    .min(1, 'give at least one tool')
    .superRefine((tools, ctx) => {
      const seen = new Set<string>();
      tools.forEach((t, i) => {
        if (seen.has(t.name)) ctx.addIssue({ code: 'custom', path: [i, 'name'], message: `duplicate tool name "${t.name}"` });
        seen.add(t.name);
        // Function parameters are an object in every tool-calling API (a grammar also takes a union of objects).
        if (!isObjectSchema(jsonSchemaFor(t.schema)))
          ctx.addIssue({
            code: 'custom',
            path: [i, 'schema'],
            message: `the arguments of "${t.name}" must be a z.object (or, for the embedded model, a union of them)`,
          });
      });
    }),
  maxCalls: z.number().int().min(1).max(64).default(DEFAULT_MAX_CALLS),
});

/** Check a tool request before spending a call on it; a bad one is a programming error, not retryable. */
export function checkToolRequest(req: ToolCallRequest): { maxCalls: number } {
  const parsed = ToolRequestSchema.safeParse({ tools: req.tools, maxCalls: req.maxCalls });
  if (!parsed.success) throw new LlmError('config', `Invalid tool call request: ${describeZodError(parsed.error)}`);
  return { maxCalls: parsed.data.maxCalls };
}

/** One call as the model made it: arguments already decoded, or the reason they could not be. */
export type CandidateCall = { tool: string; arguments: unknown } | { tool: string; unreadable: string; raw: unknown };

function checkCall(byName: Map<string, ToolSpec>, c: CandidateCall): ToolCall | InvalidToolCall {
  if ('unreadable' in c) return { tool: c.tool, error: c.unreadable, raw: c.raw };
  const spec = byName.get(c.tool);
  if (!spec) return { tool: c.tool, error: `unknown tool "${c.tool}"; the tools are ${[...byName.keys()].join(', ')}`, raw: c.arguments };
  const parsed = spec.schema.safeParse(c.arguments);
  if (!parsed.success)
    return { tool: c.tool, error: `arguments do not match the schema of ${c.tool}: ${describeZodError(parsed.error)}`, raw: c.arguments };
  return { tool: c.tool, arguments: parsed.data };
}

/** Sort candidates into valid calls (schema-parsed) and invalid ones, keeping the first `maxCalls`. */
export function validateCalls(
  tools: ToolSpec[],
  candidates: CandidateCall[],
  maxCalls: number,
): { calls: ToolCall[]; invalid: InvalidToolCall[] } {
  const byName = new Map(tools.map((t) => [t.name, t]));
  const calls: ToolCall[] = [];
  const invalid: InvalidToolCall[] = [];
  candidates.forEach((c, i) => {
    if (i >= maxCalls) {
      invalid.push({
        tool: c.tool,
        error: `call ${i + 1} is over the limit of ${maxCalls} calls per answer`,
        raw: 'unreadable' in c ? c.raw : c.arguments,
      });
      return;
    }
    const checked = checkCall(byName, c);
    if ('error' in checked) invalid.push(checked);
    else calls.push(checked);
  });
  return { calls, invalid };
}

const LooseCallSchema = z.object({ tool: z.string(), arguments: z.unknown() });
const LooseAnswerSchema = z.object({ calls: z.array(z.unknown()) });

/** One item of a `calls` array as a candidate; an item without a tool name cannot be judged. */
function candidateOfItem(item: unknown): CandidateCall {
  const parsed = LooseCallSchema.safeParse(item);
  if (parsed.success) return { tool: parsed.data.tool, arguments: parsed.data.arguments };
  return { tool: '(no tool)', unreadable: `not a {tool, arguments} call: ${describeZodError(parsed.error)}`, raw: item };
}

/**
 * The complete items of a `calls` array whose answer was cut off (a constrained answer is only
 * ever invalid JSON when generation stopped early), plus the text of the unfinished one.
 */
function completeItems(text: string): { items: unknown[]; rest: string; closed: boolean } | null {
  const key = text.search(/"calls"\s*:\s*\[/);
  if (key < 0) return null;
  const items: unknown[] = [];
  let depth = 0;
  let inString = false;
  let escaped = false;
  let itemStart = -1;
  let closed = false;
  for (let i = text.indexOf('[', key) + 1; i < text.length; i++) {
    const ch = text[i];
    if (inString) {
      if (escaped) escaped = false;
      else if (ch === '\\') escaped = true;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === '{' || ch === '[') {
      if (depth++ === 0) itemStart = i;
    } else if (ch === '}' || ch === ']') {
      if (depth === 0) {
        closed = true; // the calls array itself
        break;
      }
      if (--depth > 0) continue;
      try {
        items.push(JSON.parse(text.slice(itemStart, i + 1)));
      } catch {
        return null; // not the output of a grammar: nothing safe to keep
      }
      itemStart = -1;
    }
  }
  return { items, rest: itemStart >= 0 ? text.slice(itemStart) : '', closed };
}

/**
 * Read a `{ "calls": [...] }` answer into candidates. No JSON object with a calls list is a
 * retryable bad answer; an answer cut off at maxTokens keeps its complete calls and reports the
 * cut one, as an API's tool call with truncated arguments would be.
 */
export function readCallsAnswer(text: string, maxTokens: number): CandidateCall[] {
  let whole: unknown;
  try {
    whole = parseJsonObject(text, 'tool calls');
  } catch (err) {
    const partial = completeItems(text);
    if (!partial) throw err;
    const candidates = partial.items.map(candidateOfItem);
    // Cut between two calls there is no text to show, but later calls may have been lost all the same.
    if (partial.rest || !partial.closed) {
      const tool = /"tool"\s*:\s*"([^"]*)"/.exec(partial.rest)?.[1] ?? '(cut off)';
      candidates.push({
        tool,
        unreadable: `the answer was cut off inside this call (maxTokens ${maxTokens}); raise maxTokens or lower maxCalls`,
        raw: partial.rest,
      });
    }
    return candidates;
  }
  const parsed = LooseAnswerSchema.safeParse(whole);
  if (!parsed.success)
    throw new LlmError('bad-answer', `The model's tool calls answer is not a {"calls": [...]} object: ${describeZodError(parsed.error)}`);
  return parsed.data.calls.map(candidateOfItem);
}

/** The strict answer shape for constrained decoding: each item is exactly one tool's call (at least one when required). */
export function toolCallsAnswerSchema(tools: ToolSpec[], maxCalls: number, required = false): z.ZodTypeAny {
  const items = tools.map((t) => z.object({ tool: z.literal(t.name), arguments: t.schema }));
  const item = items.length === 1 ? items[0] : z.union(items);
  return z.object({
    calls: z
      .array(item)
      .min(required ? 1 : 0)
      .max(maxCalls),
  });
}

/**
 * A conversation for a model without native tool calling: earlier calls read as the JSON answer
 * the model gave, and each tool result as a message naming its call.
 */
export function messagesAsText(messages: ChatMessage[]): ChatMessage[] {
  return messages.map((m): ChatMessage => {
    if (m.role === 'tool') return { role: 'user', content: `RESULT OF CALL ${m.toolCallId}:\n${m.content}` };
    if (m.role === 'assistant' && m.toolCalls?.length) {
      const calls = JSON.stringify({ calls: m.toolCalls.map((c) => ({ tool: c.tool, arguments: c.arguments })) });
      return {
        role: 'assistant',
        content: [m.content, `CALL ${m.toolCalls.map((c) => c.id).join(', ')}: ${calls}`].filter(Boolean).join('\n'),
      };
    }
    return m;
  });
}

function describeField(name: string, schema: Record<string, unknown>): string {
  const type = Array.isArray(schema.enum)
    ? `one of ${schema.enum.map((v) => JSON.stringify(v)).join(', ')}`
    : Array.isArray(schema.type)
      ? schema.type.join(' or ')
      : String(schema.type ?? 'any');
  const limit = typeof schema.maxLength === 'number' ? `, at most ${schema.maxLength} characters` : '';
  return `${name} (${type}${limit})${schema.description ? `: ${schema.description}` : ''}`;
}

/**
 * The tools in words, for a model that sees only a grammar: the grammar forces the shape but
 * does not say what the tools are for.
 */
export function toolListPrompt(tools: ToolSpec[], maxCalls: number, required = false): string {
  const lines = tools.map((t) => {
    const props = (jsonSchemaFor(t.schema).properties ?? {}) as Record<string, Record<string, unknown>>;
    const fields = Object.entries(props).map(([k, v]) => describeField(k, v));
    return `- ${t.name}: ${t.description}\n  arguments: ${fields.join('; ') || 'none'}`;
  });
  return [
    `You can call these tools. Answer with JSON {"calls": [{"tool": "<tool name>", "arguments": {...}}]}, at most ` +
      `${maxCalls} calls${required ? ' and at least one' : ', or {"calls": []} when nothing needs to be done'}.`,
    'Tools:',
    ...lines,
  ].join('\n');
}
