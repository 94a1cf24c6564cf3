/**
 * Any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server) via
 * the `openai` package. Structured output through `response_format: json_schema`; a server that
 * rejects it gets JSON mode plus zod validation instead, remembered for the rest of the process.
 * Tool calls use the API's own `tools` / `tool_calls`.
 */
import OpenAI from 'openai';
import { z } from 'zod';
import { kindForStatus, LlmError } from './errors';
import { jsonSchemaFor, parseAnswer } from './json';
import { CandidateCall, checkToolRequest, DEFAULT_TOOL_MAX_TOKENS, validateCalls } from './tools';
import type { ChatMessage, Completion, CompletionRequest, LlmProvider, ToolCallRequest, ToolCallResult, ToolSpec, Usage } from './types';

type ChatCompletion = OpenAI.Chat.Completions.ChatCompletion;
type CreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;

export interface OpenAiProviderOptions {
  baseURL?: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
}

export function classifyOpenAiError(err: unknown, timedOut = false): LlmError {
  if (err instanceof LlmError) return err;
  if (err instanceof OpenAI.APIConnectionTimeoutError || (timedOut && err instanceof OpenAI.APIConnectionError)) {
    return new LlmError('timeout', `The LLM endpoint did not answer in time: ${err.message}`);
  }
  if (err instanceof OpenAI.APIConnectionError) return new LlmError('connection', `Cannot reach the LLM endpoint: ${err.message}`);
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const kind = kindForStatus(err.status);
    const hint =
      kind === 'auth'
        ? ' Check GRUE_LLM_API_KEY.'
        : kind === 'not-found'
          ? ' Check GRUE_LLM_MODEL and GRUE_LLM_BASE_URL.'
          : kind === 'bad-request' && /tool/i.test(err.message)
            ? ' The endpoint or model may not support tool calling; choose a model that does.'
            : '';
    return new LlmError(kind, `The LLM endpoint answered ${err.status}: ${err.message}.${hint}`, err.status);
  }
  return new LlmError('connection', `LLM call failed: ${err instanceof Error ? err.message : String(err)}`);
}

function usageOf(response: ChatCompletion): Usage {
  return { promptTokens: response.usage?.prompt_tokens ?? 0, completionTokens: response.usage?.completion_tokens ?? 0 };
}

function toolDefinition(t: ToolSpec): OpenAI.Chat.Completions.ChatCompletionTool {
  return { type: 'function', function: { name: t.name, description: t.description, parameters: jsonSchemaFor(t.schema) } };
}

/** Our message as the chat-completions API spells it. */
function apiMessage(m: ChatMessage): OpenAI.Chat.Completions.ChatCompletionMessageParam {
  if (m.role === 'tool') return { role: 'tool', tool_call_id: m.toolCallId, content: m.content };
  if (m.role === 'assistant' && m.toolCalls?.length) {
    return {
      role: 'assistant',
      content: m.content || null,
      tool_calls: m.toolCalls.map((c) => ({
        id: c.id,
        type: 'function' as const,
        function: { name: c.tool, arguments: JSON.stringify(c.arguments ?? {}) },
      })),
    };
  }
  return { role: m.role, content: m.content };
}

/** One of the API's tool calls as a candidate: arguments arrive as a JSON string, which may not be JSON. */
function candidateOf(call: unknown): CandidateCall {
  const c = (call ?? {}) as { type?: string; function?: { name?: unknown; arguments?: unknown } };
  const tool = typeof c.function?.name === 'string' ? c.function.name : '(no name)';
  if (c.type !== undefined && c.type !== 'function') return { tool, unreadable: `a "${c.type}" tool call, not a function call`, raw: call };
  const args = c.function?.arguments;
  if (typeof args !== 'string') return { tool, unreadable: 'the call has no arguments string', raw: args };
  try {
    // Some servers send "" for a call without arguments.
    return { tool, arguments: args.trim() === '' ? {} : JSON.parse(args) };
  } catch (err) {
    return { tool, unreadable: `the arguments are not JSON (${(err as Error).message})`, raw: args };
  }
}

/** How long the preflight waits for the endpoint's model list. */
export const PREFLIGHT_TIMEOUT_MS = 15_000;

export class OpenAiProvider implements LlmProvider {
  readonly name = 'openai';
  readonly model: string;
  private readonly client: OpenAI;
  private jsonSchemaSupported = true;
  private readonly timeoutMs: number;

  constructor(opts: OpenAiProviderOptions) {
    this.model = opts.model;
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    // Retries belong to Temporal's activity retry policy, so the client itself never retries.
    this.client = new OpenAI({ baseURL: opts.baseURL, apiKey: opts.apiKey ?? 'not-needed', timeout: this.timeoutMs, maxRetries: 0 });
  }

  private base(req: Pick<ToolCallRequest, 'messages' | 'maxTokens' | 'temperature' | 'seed'>, maxTokens: number): CreateParams {
    return {
      model: this.model,
      messages: req.messages.map(apiMessage),
      max_tokens: req.maxTokens ?? maxTokens,
      temperature: req.temperature ?? 0,
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
    };
  }

  /** Run a request, turning every failure into a classified LlmError. */
  private async send(request: () => Promise<ChatCompletion>): Promise<ChatCompletion> {
    const started = Date.now();
    try {
      return await request();
    } catch (err) {
      // Some fetch implementations report an aborted (timed-out) request as a plain connection error.
      throw classifyOpenAiError(err, Date.now() - started >= this.timeoutMs * 0.9);
    }
  }

  async complete<S extends z.ZodTypeAny>(req: CompletionRequest<S>): Promise<Completion<z.infer<S>>> {
    const base = this.base(req, 400);
    const response = await this.send(async () => {
      if (!this.jsonSchemaSupported) return this.jsonMode(base, req);
      try {
        return await this.client.chat.completions.create({
          ...base,
          response_format: { type: 'json_schema', json_schema: { name: req.schemaName, schema: jsonSchemaFor(req.schema), strict: false } },
        });
      } catch (err) {
        if (!(err instanceof OpenAI.APIError && err.status === 400 && /response_format|json_schema/i.test(err.message))) throw err;
        this.jsonSchemaSupported = false;
        return this.jsonMode(base, req);
      }
    });
    const raw = response.choices[0]?.message?.content ?? '';
    return {
      value: parseAnswer(req.schema, raw, req.schemaName),
      usage: usageOf(response),
      model: response.model || this.model,
      raw,
    };
  }

  async callTools(req: ToolCallRequest): Promise<ToolCallResult> {
    const { maxCalls } = checkToolRequest(req);
    const response = await this.send(() =>
      this.client.chat.completions.create({
        ...this.base(req, DEFAULT_TOOL_MAX_TOKENS),
        tools: req.tools.map(toolDefinition),
        tool_choice: req.toolChoice ?? 'auto',
      }),
    );
    const message = response.choices?.[0]?.message;
    if (!message)
      throw new LlmError('bad-answer', `The model's tool call answer has no message: ${JSON.stringify(response).slice(0, 200)}`);
    // A model with nothing to call answers in words and no tool_calls: zero calls, not an error.
    const toolCalls: unknown = message.tool_calls ?? [];
    if (!Array.isArray(toolCalls))
      throw new LlmError('bad-answer', `The model's tool_calls is not a list: ${JSON.stringify(toolCalls).slice(0, 200)}`);
    return {
      ...validateCalls(req.tools, toolCalls.map(candidateOf), maxCalls),
      usage: usageOf(response),
      model: response.model || this.model,
      raw: JSON.stringify({ content: message.content ?? null, tool_calls: toolCalls }),
    };
  }

  private jsonMode<S extends z.ZodTypeAny>(base: CreateParams, req: CompletionRequest<S>) {
    const schemaHint = `Answer with one JSON object matching this JSON Schema:\n${JSON.stringify(jsonSchemaFor(req.schema))}`;
    return this.client.chat.completions.create({
      ...base,
      messages: [...base.messages, { role: 'system', content: schemaHint }],
      response_format: { type: 'json_object' },
    });
  }

  async preflight(): Promise<void> {
    // An endpoint that takes the connection and never answers would hold `grue play` for the
    // whole call timeout: the preflight has its own, short one.
    const timeout = Math.min(PREFLIGHT_TIMEOUT_MS, this.timeoutMs);
    const started = Date.now();
    try {
      const models = await this.client.models.list({ timeout });
      const ids = models.data.map((m) => m.id);
      if (ids.length && !ids.includes(this.model)) {
        throw new LlmError(
          'config',
          `The LLM endpoint does not serve model "${this.model}"; it has: ${ids.slice(0, 10).join(', ')}. Set GRUE_LLM_MODEL.`,
        );
      }
    } catch (err) {
      const e = classifyOpenAiError(err, Date.now() - started >= timeout * 0.9);
      if (e.kind === 'timeout')
        throw new LlmError('timeout', `The LLM endpoint took the connection but did not answer within ${timeout / 1000} s.`);
      // Some servers have no /models route: that alone is not a reason to refuse.
      if (e.kind === 'not-found' && !(err instanceof LlmError)) return;
      throw e;
    }
  }

  async close(): Promise<void> {}
}
