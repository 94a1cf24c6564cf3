/**
 * The provider-neutral tool-calling pieces: the `{ "calls": [...] }` schema the embedded model's
 * grammar is built from, and the tool list it is told in words.
 */
import { z } from 'zod';
import { jsonSchemaFor, llamaGrammarSchema } from '../../src/llm/json';
import { LlmError } from '../../src/llm/errors';
import { messagesAsText, readCallsAnswer, toolCallsAnswerSchema, toolListPrompt, validateCalls } from '../../src/llm/tools';
import type { ToolSpec } from '../../src/llm/types';

const TOOLS: ToolSpec[] = [
  {
    name: 'update_location',
    description: 'Record what a location is like.',
    schema: z.object({ name: z.string().max(40).describe('the room name'), summary: z.string() }),
  },
  {
    name: 'update_item',
    description: 'Record where an item is.',
    schema: z.object({ name: z.string(), location: z.string().nullable(), state: z.enum(['open', 'closed']) }),
  },
];

describe('tool calls as a constrained JSON answer', () => {
  it('is an array of at most maxCalls items, each one tool (const name) with its own arguments, with oneOf and no anyOf', () => {
    const schema = llamaGrammarSchema(jsonSchemaFor(toolCallsAnswerSchema(TOOLS, 3))) as {
      properties: {
        calls: {
          maxItems: number;
          items: { oneOf: Array<{ properties: { tool: { const: string }; arguments: { required: string[] } } }> };
        };
      };
    };
    // node-llama-cpp turns anyOf into a null-only grammar: none may be left anywhere.
    expect(JSON.stringify(schema)).not.toContain('anyOf');
    const calls = schema.properties.calls;
    expect(calls.maxItems).toBe(3);
    expect(calls.items.oneOf.map((o) => o.properties.tool.const)).toEqual(['update_location', 'update_item']);
    expect(calls.items.oneOf.map((o) => o.properties.arguments.required)).toEqual([
      ['name', 'summary'],
      ['name', 'location', 'state'],
    ]);
  });

  it('keeps a field that happens to be called anyOf', () => {
    const js = llamaGrammarSchema(jsonSchemaFor(z.object({ anyOf: z.union([z.string(), z.object({ a: z.string() })]) }))) as {
      properties: Record<string, { oneOf?: unknown }>;
    };
    expect(Object.keys(js.properties)).toEqual(['anyOf']);
    expect(js.properties.anyOf.oneOf).toHaveLength(2);
  });

  it('tells the model each tool, what it is for and its argument fields', () => {
    const prompt = toolListPrompt(TOOLS, 3);
    expect(prompt).toContain('at most 3 calls');
    expect(prompt).toContain(
      '- update_location: Record what a location is like.\n  arguments: name (string, at most 40 characters): the room name; summary (string)',
    );
    expect(prompt).toContain('location (string or null); state (one of "open", "closed")');
  });
});

describe('reading a {"calls": [...]} answer', () => {
  it('reads every call of a whole answer, and zero calls is an answer', () => {
    expect(readCallsAnswer('{"calls": [{"tool": "update_item", "arguments": {"name": "lamp"}}, {"arguments": {}}]}', 300)).toEqual([
      { tool: 'update_item', arguments: { name: 'lamp' } },
      { tool: '(no tool)', unreadable: expect.stringMatching(/^not a \{tool, arguments\} call: tool: /), raw: { arguments: {} } },
    ]);
    expect(readCallsAnswer('{"calls": []}', 300)).toEqual([]);
  });

  it('keeps the complete calls of an answer cut off at maxTokens and reports the cut one', () => {
    const text =
      '{"calls": [{"tool": "update_item", "arguments": {"name": "a \\"}\\" b", "location": "x"}}, {"tool": "update_location", "arguments": {"name": "Hal';
    const candidates = readCallsAnswer(text, 300);
    expect(candidates).toEqual([
      { tool: 'update_item', arguments: { name: 'a "}" b', location: 'x' } },
      {
        tool: 'update_location',
        unreadable: expect.stringMatching(/cut off inside this call \(maxTokens 300\)/),
        raw: '{"tool": "update_location", "arguments": {"name": "Hal',
      },
    ]);
    const { calls, invalid } = validateCalls(TOOLS, candidates, 8);
    expect(calls).toHaveLength(0); // update_item's schema needs a state
    expect(invalid.map((i) => i.tool)).toEqual(['update_item', 'update_location']);
  });

  it('reports an answer cut off between two calls', () => {
    expect(readCallsAnswer('{"calls": [{"tool": "update_item", "arguments": {}},', 50)).toEqual([
      { tool: 'update_item', arguments: {} },
      { tool: '(cut off)', unreadable: expect.stringMatching(/cut off/), raw: '' },
    ]);
  });

  it.each([
    ['no JSON at all', 'I would update the mailbox.'],
    ['JSON without a calls list', '{"tool": "update_item"}'],
    ['broken JSON without a calls list', '{"updates": [{"tool": '],
  ])('throws a retryable bad answer for %s', (_, text) => {
    let err: unknown;
    try {
      readCallsAnswer(text, 300);
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ kind: 'bad-answer', retryable: true });
  });
});

describe('messagesAsText', () => {
  it('renders earlier tool calls and their results as text for a model without native tool calling', () => {
    const text = messagesAsText([
      { role: 'user', content: 'context' },
      { role: 'assistant', content: '', toolCalls: [{ id: 'thought-1', tool: 'thoughtbox', arguments: { thought: 'go north' } }] },
      { role: 'tool', toolCallId: 'thought-1', content: '{"thoughtNumber":1}' },
    ]);
    expect(text).toEqual([
      { role: 'user', content: 'context' },
      { role: 'assistant', content: 'CALL thought-1: {"calls":[{"tool":"thoughtbox","arguments":{"thought":"go north"}}]}' },
      { role: 'user', content: 'RESULT OF CALL thought-1:\n{"thoughtNumber":1}' },
    ]);
  });
});
