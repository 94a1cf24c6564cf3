/**
 * A local server speaking the OpenAI chat-completions protocol, for tests: it answers from a
 * script (valid answers built from the request's JSON schema, or tool calls) and injects faults
 * on demand.
 */
import { createServer, IncomingMessage, Server, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { PROBE_MARK } from '../../src/llm/openaiNegotiation';

export type Fault =
  | 'ok'
  | '429'
  | '500'
  | 'timeout'
  | 'malformed'
  | 'schema-mismatch'
  | '401'
  | '400-response-format'
  | '400-tools'
  | '500-echo-auth'
  | '401-echo-auth';

/** One scripted tool call; `arguments` is sent as given, so it may be a string that is not JSON. */
export interface ScriptedToolCall {
  name: string;
  arguments: string;
}

export interface FakeOpenAi {
  url: string;
  /** Faults to apply to the next requests, in order; after them every request is answered. */
  faults: Fault[];
  requests: Array<{ path: string; body: Record<string, unknown> | null; fault: Fault }>;
  /** The provider's capability checks (always answered, never faulted, not among `requests`). */
  probes: Array<Record<string, unknown> | null>;
  /**
   * The answer to requests with `tools`: these calls (an empty list is an answer in words only),
   * or, when null, one call per offered tool with sample arguments built from its parameters.
   */
  toolCalls: ScriptedToolCall[] | null;
  /** Milliseconds to wait before answering a completion (a slow endpoint). */
  delayMs: number;
  /** Milliseconds to wait before answering the next completions, in order (after them, `delayMs`). */
  delays: number[];
  /** The model list is never answered (an endpoint that takes the connection and hangs). */
  hangModels: boolean;
  close(): Promise<void>;
}

/** A minimal instance of a JSON schema: first enum value, empty strings, false, [] ... */
export function sampleFor(schema: Record<string, unknown>): unknown {
  if (Array.isArray(schema.enum)) return schema.enum[0];
  if (schema.anyOf) return sampleFor((schema.anyOf as Record<string, unknown>[])[0]);
  switch (schema.type) {
    case 'object': {
      const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
      return Object.fromEntries(Object.entries(props).map(([k, v]) => [k, sampleFor(v)]));
    }
    case 'array':
      return schema.items && (schema.items as Record<string, unknown>).enum ? [sampleFor(schema.items as Record<string, unknown>)] : [];
    case 'boolean':
      return false;
    case 'number':
    case 'integer':
      return 0;
    default:
      return 'the fake model says so';
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    let data = '';
    req.on('data', (c) => (data += c));
    req.on('end', () => resolve(data));
  });
}

export async function startFakeOpenAi(model = 'fake-model'): Promise<FakeOpenAi> {
  const state: FakeOpenAi = {
    url: '',
    faults: [],
    requests: [],
    probes: [],
    toolCalls: null,
    delayMs: 0,
    delays: [],
    hangModels: false,
    close: async () => undefined,
  };
  const sockets = new Set<import('node:net').Socket>();
  const server: Server = createServer(async (req: IncomingMessage, res: ServerResponse) => {
    const raw = await readBody(req);
    const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : null;
    const send = (status: number, payload: unknown) => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(payload));
    };
    if (req.url?.endsWith('/models')) {
      state.requests.push({ path: req.url, body, fault: 'ok' });
      if (state.hangModels) return;
      return send(200, { object: 'list', data: [{ id: model, object: 'model', created: 0, owned_by: 'test' }] });
    }
    const probe = raw.includes(PROBE_MARK);
    if (probe) state.probes.push(body);
    const fault = probe ? 'ok' : (state.faults.shift() ?? 'ok');
    const delay = probe ? 0 : (state.delays.shift() ?? state.delayMs);
    if (delay) await new Promise((r) => setTimeout(r, delay));
    if (!probe) state.requests.push({ path: req.url ?? '', body, fault });
    if (fault === '429') return send(429, { error: { message: 'rate limited', type: 'rate_limit' } });
    if (fault === '500') return send(500, { error: { message: 'internal error', type: 'server_error' } });
    if (fault === '401') return send(401, { error: { message: 'bad key', type: 'auth' } });
    // Some proxies put the request's headers into their error text.
    if (fault === '500-echo-auth')
      return send(500, { error: { message: `upstream failed for Authorization: ${req.headers.authorization}`, type: 'server_error' } });
    if (fault === '401-echo-auth')
      return send(401, {
        error: { message: `key ${String(req.headers.authorization).replace(/^Bearer /, '')} is not valid`, type: 'auth' },
      });
    if (fault === '400-response-format')
      return send(400, { error: { message: "response_format 'json_schema' is not supported", type: 'invalid_request' } });
    if (fault === '400-tools') return send(400, { error: { message: 'this model does not support tools', type: 'invalid_request' } });
    if (fault === 'timeout') return; // never answer: the client's timeout fires
    const answer = (message: Record<string, unknown>) =>
      send(200, {
        id: `chatcmpl-${state.requests.length}`,
        object: 'chat.completion',
        created: 0,
        model,
        choices: [{ index: 0, message: { role: 'assistant', ...message }, finish_reason: message.tool_calls ? 'tool_calls' : 'stop' }],
        usage: { prompt_tokens: 100, completion_tokens: 20, total_tokens: 120 },
      });
    if (Array.isArray(body?.tools)) {
      if (fault === 'malformed') return answer({ content: null, tool_calls: { oops: true } });
      const tools = body.tools as Array<{ function: { name: string; parameters: Record<string, unknown> } }>;
      const calls =
        (probe ? null : state.toolCalls) ??
        tools.map((t) => ({ name: t.function.name, arguments: JSON.stringify(sampleFor(t.function.parameters)) }));
      if (!calls.length) return answer({ content: 'Nothing to update.' });
      return answer({ content: null, tool_calls: calls.map((c, i) => ({ id: `call_${i}`, type: 'function', function: c })) });
    }
    const format = body?.response_format as
      { type: string; json_schema?: { schema: Record<string, unknown> }; schema?: Record<string, unknown> } | undefined;
    let content: string;
    if (fault === 'malformed') content = '{"recommended_action": "stand up", oops';
    else if (fault === 'schema-mismatch') content = '{"recommended_action": 42}';
    else if (format?.json_schema) content = JSON.stringify(sampleFor(format.json_schema.schema));
    else if (format?.schema) content = JSON.stringify(sampleFor(format.schema));
    else {
      // Plain text: the schema is on the line after "JSON Schema:" in the system prompt.
      const messages = (body?.messages ?? []) as Array<{ content: string }>;
      const hint = messages.map((m) => m.content ?? '').find((c) => c.includes('JSON Schema:\n')) ?? '';
      const schema = JSON.parse(hint.slice(hint.indexOf('JSON Schema:\n') + 13).split('\n')[0]);
      content = JSON.stringify(sampleFor(schema));
    }
    answer({ content });
  });
  server.on('connection', (s) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  state.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  state.close = () =>
    new Promise((r) => {
      for (const s of sockets) s.destroy();
      server.close(() => r());
    });
  return state;
}
