/**
 * Tool calling through the openai provider against the local fake chat-completions server: calls
 * are validated one by one (bad ones reported, good ones kept), and faults are classified like
 * every other call's.
 */
import { z } from 'zod';
import { LlmError } from '../../src/llm/errors';
import { OpenAiProvider } from '../../src/llm/openaiProvider';
import type { ToolSpec } from '../../src/llm/types';
import { FakeOpenAi, startFakeOpenAi } from './fakeOpenAi';

const TOOLS: ToolSpec[] = [
  {
    name: 'update_location',
    description: 'Record what a location is like.',
    schema: z.object({ name: z.string().min(1), summary: z.string() }),
  },
  {
    name: 'update_item',
    description: 'Record where an item is.',
    schema: z.object({ name: z.string().min(1), location: z.string(), count: z.number().int().default(1) }),
  },
];
const MESSAGES = [{ role: 'user' as const, content: 'West of House. There is a small mailbox here.' }];

let fake: FakeOpenAi;
beforeEach(async () => {
  fake = await startFakeOpenAi();
});
afterEach(async () => {
  await fake.close();
});

const provider = (timeoutMs = 2000) => new OpenAiProvider({ baseURL: fake.url, apiKey: 'sk-test', model: 'fake-model', timeoutMs });
const ask = (p = provider(), maxCalls?: number) => p.callTools({ messages: MESSAGES, tools: TOOLS, maxCalls });
const call = (name: string, args: unknown) => ({ name, arguments: typeof args === 'string' ? args : JSON.stringify(args) });

describe('OpenAiProvider.callTools', () => {
  it("replays earlier rounds in the API's own shape (assistant tool_calls, tool messages) and passes tool_choice", async () => {
    fake.toolCalls = [call('update_location', { name: 'Kitchen', summary: 'a table' })];
    await provider().callTools({
      messages: [
        ...MESSAGES,
        {
          role: 'assistant',
          content: '',
          toolCalls: [{ id: 'thought-1', tool: 'update_location', arguments: { name: 'West of House', summary: 'a mailbox' } }],
        },
        { role: 'tool', toolCallId: 'thought-1', content: '{"ok":true}' },
      ],
      tools: TOOLS,
      toolChoice: 'required',
    });
    const body = fake.requests[0].body!;
    expect(body.tool_choice).toBe('required');
    expect(body.messages).toEqual([
      MESSAGES[0],
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          {
            id: 'thought-1',
            type: 'function',
            function: { name: 'update_location', arguments: '{"name":"West of House","summary":"a mailbox"}' },
          },
        ],
      },
      { role: 'tool', tool_call_id: 'thought-1', content: '{"ok":true}' },
    ]);
  });

  it('offers each tool as a function with its JSON schema, and returns the calls parsed by their schemas', async () => {
    fake.toolCalls = [
      call('update_location', { name: 'West of House', summary: 'a white house, a mailbox' }),
      call('update_item', { name: 'mailbox', location: 'West of House' }),
    ];
    const r = await ask();
    expect(r.calls).toEqual([
      { tool: 'update_location', arguments: { name: 'West of House', summary: 'a white house, a mailbox' } },
      // The schema's default applies.
      { tool: 'update_item', arguments: { name: 'mailbox', location: 'West of House', count: 1 } },
    ]);
    expect(r.invalid).toEqual([]);
    expect(r.usage).toEqual({ promptTokens: 100, completionTokens: 20 });
    expect(r.model).toBe('fake-model');
    const body = fake.requests[0].body!;
    expect(body.tool_choice).toBe('auto');
    expect(body.response_format).toBeUndefined();
    const tools = body.tools as Array<{
      type: string;
      function: { name: string; description: string; parameters: { type: string; required: string[] } };
    }>;
    expect(tools.map((t) => [t.type, t.function.name, t.function.description])).toEqual([
      ['function', 'update_location', 'Record what a location is like.'],
      ['function', 'update_item', 'Record where an item is.'],
    ]);
    expect(tools[1].function.parameters).toMatchObject({ type: 'object', required: ['name', 'location', 'count'] });
  });

  it('reports an unknown tool and arguments that fail the schema in invalid, and keeps the good calls', async () => {
    fake.toolCalls = [
      call('update_location', { name: 'Kitchen', summary: 'a table' }),
      call('delete_everything', {}),
      call('update_item', { name: 'lamp', location: 42 }),
      call('update_item', { name: 'sword', location: 'Living Room' }),
    ];
    const r = await ask();
    expect(r.calls.map((c) => c.tool)).toEqual(['update_location', 'update_item']);
    expect(r.calls[1].arguments).toEqual({ name: 'sword', location: 'Living Room', count: 1 });
    expect(r.invalid).toEqual([
      {
        tool: 'delete_everything',
        error: expect.stringMatching(/unknown tool "delete_everything"; the tools are update_location, update_item/),
        raw: {},
      },
      {
        tool: 'update_item',
        error: expect.stringMatching(/^arguments do not match the schema of update_item: location: /),
        raw: { name: 'lamp', location: 42 },
      },
    ]);
  });

  it('reports an arguments string that is not JSON in invalid', async () => {
    fake.toolCalls = [call('update_item', '{"name": "lamp", "location": '), call('update_location', { name: 'Attic', summary: 'dark' })];
    const r = await ask();
    expect(r.calls).toEqual([{ tool: 'update_location', arguments: { name: 'Attic', summary: 'dark' } }]);
    expect(r.invalid).toEqual([
      { tool: 'update_item', error: expect.stringMatching(/^the arguments are not JSON/), raw: '{"name": "lamp", "location": ' },
    ]);
  });

  it('takes an answer in words where tool calls were asked as an invalid answer, not as zero calls', async () => {
    fake.toolCalls = [];
    const r = await ask();
    expect(r).toMatchObject({ calls: [], usage: { promptTokens: 100, completionTokens: 20 } });
    expect(r.invalid).toEqual([
      { tool: '(no call)', error: 'the model answered in words where tool calls were asked', raw: 'Nothing to update.' },
    ]);
    expect(JSON.parse(r.raw)).toEqual({ content: 'Nothing to update.', tool_calls: [] });
  });

  it('accepts at most maxCalls calls and reports the rest', async () => {
    fake.toolCalls = ['a', 'b', 'c'].map((name) => call('update_item', { name, location: 'here' }));
    const r = await ask(provider(), 2);
    expect(r.calls.map((c) => (c.arguments as { name: string }).name)).toEqual(['a', 'b']);
    expect(r.invalid).toEqual([
      { tool: 'update_item', error: 'call 3 is over the limit of 2 calls per answer', raw: { name: 'c', location: 'here' } },
    ]);
  });

  it.each([
    ['429', 'rate-limited', true],
    ['500', 'server', true],
    ['timeout', 'timeout', true],
    ['malformed', 'bad-answer', true],
    ['401', 'auth', false],
  ] as const)('%s -> %s (retryable: %s)', async (fault, kind, retryable) => {
    fake.faults = [fault];
    const err = await ask(provider(1000)).catch((e) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ kind, retryable });
  });

  it('a refusal naming tools switches to tool calls emulated as a JSON answer at once, without a retry', async () => {
    fake.faults = ['400-tools'];
    fake.toolCalls = [call('update_item', { name: 'lamp', location: 'here' })];
    const p = provider();
    const r = await ask(p);
    expect(r.invalid).toEqual([]);
    expect(fake.requests.map((q) => Boolean(q.body!.tools))).toEqual([true, false]);
    expect(fake.requests[1].body!.response_format).toMatchObject({ type: 'json_schema' });
    await ask(p);
    expect(fake.requests).toHaveLength(3);
    expect(fake.requests[2].body!.tools).toBeUndefined();
  });

  it('refuses a bad tool list before calling the endpoint, without retry', async () => {
    const bad: ToolSpec[][] = [
      [],
      [TOOLS[0], TOOLS[0]],
      [{ name: 'has space', description: '', schema: z.object({}) }],
      [{ name: 'scalar', description: '', schema: z.string() }],
    ];
    for (const tools of bad) {
      const err = await provider()
        .callTools({ messages: MESSAGES, tools })
        .catch((e) => e);
      expect(err).toMatchObject({ kind: 'config', retryable: false });
    }
    expect(fake.requests).toHaveLength(0);
  });
});
