/**
 * The openai provider against servers as users run them (a scripted double of llama-cpp-python's
 * server, see compatServer.ts): capabilities negotiated by real calls, refusals that name a
 * feature switching mode at once, a preflight that fails early, one repair with the validation
 * error, cut-off answers, and text where tool calls were asked counted as invalid.
 */
import OpenAI from 'openai';
import { z } from 'zod';
import { preflightLlm } from '../../src/cli/llmCheck';
import { UsageError } from '../../src/cli/args';
import { FULL_CAPABILITIES } from '../../src/llm/capabilities';
import { LlmError } from '../../src/llm/errors';
import { classifyOpenAiError, MUST_CALL, OpenAiProvider } from '../../src/llm/openaiProvider';
import type { ToolSpec } from '../../src/llm/types';
import { CompatServer, LLAMA_CPP_DEFAULT, LLAMA_CPP_FUNCTIONARY, startCompatServer } from './compatServer';

const Answer = z.object({ recommended_action: z.enum(['stand up', 'look']), reasoning: z.string() });
const ask = (p: OpenAiProvider) =>
  p.complete({ schema: Answer, schemaName: 'answer', maxTokens: 100, messages: [{ role: 'user', content: 'what now?' }] });
const TOOLS: ToolSpec[] = [{ name: 'record_room', description: 'Record a room.', schema: z.object({ name: z.string() }) }];
const callTools = (p: OpenAiProvider, toolChoice: 'auto' | 'required' = 'auto') =>
  p.callTools({
    messages: [
      { role: 'system', content: 'You keep records.' },
      { role: 'user', content: 'Hall.' },
    ],
    tools: TOOLS,
    toolChoice,
  });

let server: CompatServer;
afterEach(() => server?.close());
const provider = (over: Partial<ConstructorParameters<typeof OpenAiProvider>[0]> = {}) =>
  new OpenAiProvider({ baseURL: server.url, model: 'gemma', timeoutMs: 2000, ...over });
const calls = () => server.requests.filter((r) => !r.probe && r.path.endsWith('/chat/completions'));

describe('structured output', () => {
  it("negotiates json_object with the schema when json_schema is refused with llama-cpp-python's 500", async () => {
    server = await startCompatServer(LLAMA_CPP_DEFAULT);
    const p = provider();
    expect(await p.preflight()).toMatch(
      /^structured output json_object with the schema; tools emulated as JSON answers \(json_schema refused \(500\)/,
    );
    expect((await ask(p)).value).toEqual({ recommended_action: 'stand up', reasoning: 'the fake model says so' });
    expect(calls()).toHaveLength(1);
    const body = calls()[0].body;
    expect(body.response_format).toMatchObject({ type: 'json_object', schema: { type: 'object' } });
    expect(JSON.stringify(body.messages)).toContain('JSON Schema');
  });

  it('a 500 naming json_schema at run time steps down at once: no retry, no error', async () => {
    server = await startCompatServer(LLAMA_CPP_DEFAULT);
    const p = provider({ capabilities: FULL_CAPABILITIES });
    expect((await ask(p)).value.recommended_action).toBe('stand up');
    expect(calls().map((r) => [r.status, (r.body.response_format as { type: string }).type])).toEqual([
      [500, 'json_schema'],
      [200, 'json_object'],
    ]);
    await ask(p);
    expect(calls()).toHaveLength(3);
  });

  it('falls to plain text with the schema when JSON mode ignores the schema', async () => {
    server = await startCompatServer({ ...LLAMA_CPP_DEFAULT, jsonObject: 'ignores schema' });
    const p = provider();
    expect(await p.preflight()).toMatch(
      /^structured output as plain text with the schema in the prompt;.*json_object gave no valid answer/,
    );
    expect((await ask(p)).value.recommended_action).toBe('stand up');
    expect(calls()[0].body.response_format).toBeUndefined();
  });
});

describe('answers', () => {
  it('asks again once with the validation error, not the same request unchanged', async () => {
    server = await startCompatServer(LLAMA_CPP_DEFAULT);
    server.contents = [{ content: '{"recommended_action": "dance", "reasoning": "why not"}' }];
    const r = await ask(provider());
    expect(r.value.recommended_action).toBe('stand up');
    const [first, second] = calls();
    expect(second.body.messages).not.toEqual(first.body.messages);
    const last = (second.body.messages as Array<{ role: string; content: string }>).slice(-2);
    expect(last[0]).toEqual({ role: 'assistant', content: '{"recommended_action": "dance", "reasoning": "why not"}' });
    expect(last[1].content).toMatch(/could not be used: .*recommended_action/);
  });

  it('an answer still invalid after its repair is an invalid answer no retry of the same request fixes', async () => {
    server = await startCompatServer(LLAMA_CPP_DEFAULT);
    server.contents = [{ content: '{"recommended_action": "sta\u0001nd"' }, { content: '{"recommended_action": "sta\u0001nd"' }];
    const err = await ask(provider()).catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'bad-answer', retryable: false, failure: 'invalid answer' });
    expect(calls()).toHaveLength(2);
  });

  it('finish_reason length marks the answer cut off, and a cut-off answer is repaired with that said', async () => {
    server = await startCompatServer(LLAMA_CPP_DEFAULT);
    server.contents = [{ content: '{"recommended_action": "look", "reasoning": "the room is d', finishReason: 'length' }];
    await ask(provider());
    expect(JSON.stringify(calls()[1].body.messages)).toMatch(/cut off at the limit of 100 tokens/);
    server.contents = [{ content: '{"recommended_action": "look", "reasoning": "dark"}', finishReason: 'length' }];
    expect(await ask(provider())).toMatchObject({ value: { recommended_action: 'look' }, cutOff: true });
  });
});

describe('tool calls', () => {
  it('a server that ignores tools (a text answer) gets tool calls emulated as JSON answers', async () => {
    server = await startCompatServer(LLAMA_CPP_DEFAULT);
    const r = await callTools(provider());
    expect(r.calls).toEqual([{ tool: 'record_room', arguments: { name: 'the fake model says so' } }]);
    expect(calls().every((c) => c.body.tools === undefined)).toBe(true);
  });

  it('a text answer where tool calls were asked is an invalid answer, not zero calls', async () => {
    server = await startCompatServer(LLAMA_CPP_DEFAULT);
    const r = await callTools(provider({ capabilities: FULL_CAPABILITIES }));
    expect(r.calls).toEqual([]);
    expect(r.invalid).toEqual([expect.objectContaining({ tool: '(no call)', error: expect.stringMatching(/answered in words/) })]);
  });

  it("tool_choice 'required' refused at negotiation is sent as 'auto' with an instruction", async () => {
    server = await startCompatServer(LLAMA_CPP_FUNCTIONARY);
    const p = provider();
    expect(await p.preflight()).toMatch(/tools native; tool_choice 'required' sent as 'auto' with an instruction/);
    const r = await callTools(p, 'required');
    expect(r.calls).toHaveLength(1);
    expect(calls()).toHaveLength(1);
    expect(calls()[0].body.tool_choice).toBe('auto');
    expect(JSON.stringify(calls()[0].body.messages)).toContain(MUST_CALL);
  });

  it('a refusal naming tool_choice at run time steps down at once, never retried as a server error', async () => {
    server = await startCompatServer({ ...LLAMA_CPP_FUNCTIONARY, required: 'refused by name' });
    const p = provider({ capabilities: FULL_CAPABILITIES });
    expect((await callTools(p, 'required')).calls).toHaveLength(1);
    expect(calls().map((c) => [c.status, c.body.tool_choice])).toEqual([
      [400, 'required'],
      [200, 'auto'],
    ]);
    await callTools(p, 'required');
    expect(calls().map((c) => c.body.tool_choice)).toEqual(['required', 'auto', 'auto']);
    // A 500 that names the feature is a refusal too, never a server error to retry.
    const named = new OpenAI.InternalServerError(500, { message: "tool_choice 'required' is not supported" }, undefined, new Headers());
    expect(classifyOpenAiError(named)).toMatchObject({ kind: 'refused', failure: 'refused', retryable: false });
  });
});

describe('preflight', () => {
  it('a base URL without /v1 fails at once with a hint, also through grue setup / play (exit 2)', async () => {
    server = await startCompatServer(LLAMA_CPP_DEFAULT);
    const err = await provider({ baseURL: server.rootUrl })
      .preflight()
      .catch((e: unknown) => e);
    expect(err).toMatchObject({ kind: 'not-found', failure: 'refused' });
    expect((err as Error).message).toMatch(/answered 404.*Is \/v1 missing from GRUE_LLM_BASE_URL\?/);
    const saved = { ...process.env };
    Object.assign(process.env, { GRUE_LLM_PROVIDER: 'openai', GRUE_LLM_BASE_URL: server.rootUrl, GRUE_LLM_MODEL: 'gemma' });
    try {
      const cli = await preflightLlm().catch((e: unknown) => e);
      expect(cli).toBeInstanceOf(UsageError);
      expect((cli as Error).message).toMatch(/cannot be used: .*Is \/v1 missing/);
    } finally {
      for (const key of ['GRUE_LLM_PROVIDER', 'GRUE_LLM_BASE_URL', 'GRUE_LLM_MODEL']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });

  it("with no base URL set, the message says it was OpenAI's API that was tried", () => {
    const err = classifyOpenAiError(new OpenAI.APIConnectionError({ message: 'getaddrinfo ENOTFOUND' }));
    expect(err.message).toMatch(/^Cannot reach OpenAI's API \(https:\/\/api\.openai\.com\/v1; GRUE_LLM_BASE_URL is not set\)/);
  });

  it('prints what the endpoint supports through the LLM check', async () => {
    server = await startCompatServer(LLAMA_CPP_FUNCTIONARY);
    const saved = { ...process.env };
    Object.assign(process.env, { GRUE_LLM_PROVIDER: 'openai', GRUE_LLM_BASE_URL: server.url, GRUE_LLM_MODEL: 'gemma' });
    try {
      await expect(preflightLlm()).resolves.toMatch(/^openai:gemma; structured output json_object with the schema; tools native/);
    } finally {
      for (const key of ['GRUE_LLM_PROVIDER', 'GRUE_LLM_BASE_URL', 'GRUE_LLM_MODEL']) {
        if (saved[key] === undefined) delete process.env[key];
        else process.env[key] = saved[key];
      }
    }
  });

  it('names failures by kind', () => {
    expect(new LlmError('server', 'x').failure).toBe('unreachable');
    expect(new LlmError('timeout', 'x').failure).toBe('timed out');
    expect(new LlmError('refused', 'x').failure).toBe('refused');
    expect(new LlmError('bad-answer', 'x').failure).toBe('invalid answer');
  });
});
