/**
 * A scripted OpenAI-compatible server that behaves like the local servers users run, not like
 * OpenAI: llama-cpp-python's refuses `response_format: json_schema` with a 500 (its request
 * validator's message), follows a schema given beside `json_object` only if it is there, ignores
 * `tools` under its default chat format (a text answer comes back), and fails `tool_choice:
 * 'required'` with a bare 500 under `chatml-function-calling`. Routes live under `/v1`; anything
 * else is a 404, as a base URL without `/v1` gets.
 */
import { createServer, IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROBE_MARK } from '../../src/llm/openaiNegotiation';
import { sampleFor } from './fakeOpenAi';

export interface CompatBehaviour {
  /** `response_format: json_schema`: answered, or refused with llama-cpp-python's 500. */
  jsonSchema: 'answered' | 'refused';
  /** `json_object`: follows the schema given beside the type, or ignores it (booleans where strings belong). */
  jsonObject: 'follows schema' | 'ignores schema';
  /** `tools`: called natively, or ignored (an answer in words). */
  tools: 'native' | 'ignored';
  /** `tool_choice: 'required'`: honoured, a 500 that names nothing (llama-cpp-python's AssertionError), or a 400 that names it. */
  required: 'honoured' | 'fails' | 'refused by name';
}

export const LLAMA_CPP_DEFAULT: CompatBehaviour = {
  jsonSchema: 'refused',
  jsonObject: 'follows schema',
  tools: 'ignored',
  required: 'fails',
};
export const LLAMA_CPP_FUNCTIONARY: CompatBehaviour = { ...LLAMA_CPP_DEFAULT, tools: 'native' };

export interface CompatServer {
  /** The base URL with `/v1`. */
  url: string;
  /** The same server without `/v1`: every route is a 404 there. */
  rootUrl: string;
  behaviour: CompatBehaviour;
  /** Structured answers to give, in order, before the generated ones (probes excepted). */
  contents: Array<{ content: string; finishReason?: 'stop' | 'length' }>;
  requests: Array<{ path: string; status: number; probe: boolean; body: Record<string, unknown> }>;
  close(): Promise<void>;
}

type Format = { type?: string; schema?: Record<string, unknown>; json_schema?: { schema: Record<string, unknown> } } | undefined;

/** Every string property given a boolean: the answer JSON mode gives without its schema (`expected string, received boolean`). */
function schemaIgnored(schema: Record<string, unknown>): unknown {
  const props = (schema.properties ?? {}) as Record<string, unknown>;
  return Object.fromEntries(Object.keys(props).map((k) => [k, true]));
}

/** A valid `{"calls": [...]}` answer to emulated tool calls: one call of the first tool, with sample arguments. */
function emulatedCalls(schema: Record<string, unknown>): unknown {
  const calls = (schema.properties as Record<string, Record<string, unknown>>).calls;
  const items = calls.items as Record<string, unknown>;
  const first = (items.anyOf as Record<string, unknown>[] | undefined)?.[0] ?? items;
  const props = first.properties as Record<string, Record<string, unknown>>;
  return { calls: [{ tool: props.tool.const ?? (props.tool.enum as string[])[0], arguments: sampleFor(props.arguments) }] };
}

export async function startCompatServer(behaviour: CompatBehaviour, model = 'gemma'): Promise<CompatServer> {
  const state: CompatServer = { url: '', rootUrl: '', behaviour, contents: [], requests: [], close: async () => undefined };
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    let raw = '';
    req.on('data', (c) => (raw += c));
    req.on('end', () => {
      const body = (raw ? JSON.parse(raw) : {}) as Record<string, unknown>;
      const probe = raw.includes(PROBE_MARK);
      const send = (status: number, payload: unknown) => {
        state.requests.push({ path: req.url ?? '', status, probe, body });
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(payload));
      };
      if (req.url === '/v1/models') return send(200, { object: 'list', data: [{ id: model, object: 'model', owned_by: 'me' }] });
      if (req.url !== '/v1/chat/completions') return send(404, { detail: 'Not Found' });
      const answer = (message: Record<string, unknown>, finishReason = 'stop') =>
        send(200, {
          id: 'chatcmpl-1',
          object: 'chat.completion',
          created: 0,
          model,
          choices: [{ index: 0, message: { role: 'assistant', content: null, ...message }, finish_reason: finishReason }],
          usage: { prompt_tokens: 50, completion_tokens: 10, total_tokens: 60 },
        });
      const b = state.behaviour;
      const format = body.response_format as Format;
      const messages = (body.messages ?? []) as Array<{ content?: string }>;
      if (format?.type === 'json_schema' && b.jsonSchema === 'refused') {
        const detail =
          "[{'type': 'literal_error', 'loc': ('body', 'response_format', 'type'), 'msg': \"Input should be 'text' or 'json_object'\"}]";
        return send(500, { error: { message: detail, type: 'internal_server_error' } });
      }
      if (Array.isArray(body.tools)) {
        if (body.tool_choice === 'required' && b.required === 'fails')
          return send(500, { error: { message: '', type: 'internal_server_error' } });
        if (body.tool_choice === 'required' && b.required === 'refused by name')
          return send(400, { error: { message: "tool_choice 'required' is not supported", type: 'invalid_request_error' } });
        if (b.tools === 'ignored') return answer({ content: 'I would record the answer as yes. '.repeat(3) }, 'stop');
        const tools = body.tools as Array<{ function: { name: string; parameters: Record<string, unknown> } }>;
        const calls = tools.map((t, i) => ({
          id: `call_${i}`,
          type: 'function',
          function: { name: t.function.name, arguments: JSON.stringify(sampleFor(t.function.parameters)) },
        }));
        return answer({ tool_calls: calls.slice(0, 1) }, 'tool_calls');
      }
      const scripted = probe ? undefined : state.contents.shift();
      if (scripted) return answer({ content: scripted.content }, scripted.finishReason);
      const schema =
        format?.json_schema?.schema ??
        format?.schema ??
        JSON.parse(
          (messages.map((m) => m.content ?? '').find((c) => c.includes('JSON Schema:\n')) ?? 'JSON Schema:\n{}')
            .split('JSON Schema:\n')[1]
            .split('\n')[0],
        );
      const ignored = format?.type === 'json_object' && (b.jsonObject === 'ignores schema' || !format.schema);
      const value = ignored ? schemaIgnored(schema) : schema.properties?.calls ? emulatedCalls(schema) : sampleFor(schema);
      return answer({ content: JSON.stringify(value) });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const root = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  state.url = `${root}/v1`;
  state.rootUrl = root;
  state.close = () => new Promise((r) => server.close(() => r()));
  return state;
}
