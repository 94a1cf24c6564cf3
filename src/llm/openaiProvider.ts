/**
 * Any OpenAI-compatible chat-completions endpoint (OpenAI, vLLM, Ollama, llama.cpp's servers) via
 * the `openai` package. What the endpoint can do is negotiated once per process, endpoint and
 * model with real calls (./openaiNegotiation.ts), and a refusal that names a feature at run time
 * steps its mode down at once (./capabilities.ts): structured output as `json_schema`, else JSON
 * mode with the schema, else plain text with the schema; tools natively, else as a JSON answer of
 * calls; `tool_choice: 'required'`, else 'auto' with an instruction. An unusable answer is asked
 * again once with what was wrong (./repair.ts).
 */
import OpenAI from 'openai';
import { z } from 'zod';
import {
  Capabilities,
  describeCapabilities,
  Feature,
  lowerStructuredMode,
  negotiatedOnce,
  refusedFeature,
  remember,
  StructuredMode,
} from './capabilities';
import { kindForStatus, LlmError } from './errors';
import { jsonSchemaFor, parseAnswer } from './json';
import { negotiate, ProbeAnswer, Prober } from './openaiNegotiation';
import { answeredWithRepair } from './repair';
import {
  CandidateCall,
  checkToolRequest,
  DEFAULT_TOOL_MAX_TOKENS,
  messagesAsText,
  readCallsAnswer,
  toolCallsAnswerSchema,
  toolListPrompt,
  validateCalls,
} from './tools';
import type { ChatMessage, Completion, CompletionRequest, LlmProvider, ToolCallRequest, ToolCallResult, ToolSpec, Usage } from './types';

type ChatCompletion = OpenAI.Chat.Completions.ChatCompletion;
type CreateParams = OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming;
type Sampling = Pick<ToolCallRequest, 'maxTokens' | 'temperature' | 'seed'>;

export interface OpenAiProviderOptions {
  baseURL?: string;
  apiKey?: string;
  model: string;
  timeoutMs?: number;
  /** Tokens the served model's context holds (GRUE_LLM_CONTEXT_TOKENS); unknown: a hosted model's. */
  contextTokens?: number;
  /** Skip negotiation and start from these modes (tests; a refusal still steps them down). */
  capabilities?: Capabilities;
}

/** Where calls go when GRUE_LLM_BASE_URL is not set: the `openai` package's default. */
export const OPENAI_API_URL = 'https://api.openai.com/v1';

/** The endpoint as messages name it: a user who set no base URL must see that it was OpenAI's own API. */
export function describeEndpoint(baseURL: string | undefined): string {
  return baseURL ? `the LLM endpoint ${baseURL}` : `OpenAI's API (${OPENAI_API_URL}; GRUE_LLM_BASE_URL is not set)`;
}

function notFoundHint(baseURL: string | undefined): string {
  if (baseURL && !/\/v\d+\/?$/.test(baseURL))
    return ` Is /v1 missing from GRUE_LLM_BASE_URL? OpenAI-compatible servers serve ${baseURL.replace(/\/$/, '')}/v1.`;
  return ' Check GRUE_LLM_MODEL and GRUE_LLM_BASE_URL.';
}

export function classifyOpenAiError(err: unknown, timedOut = false, baseURL?: string): LlmError {
  if (err instanceof LlmError) return err;
  const where = describeEndpoint(baseURL);
  if (err instanceof OpenAI.APIConnectionTimeoutError || (timedOut && err instanceof OpenAI.APIConnectionError)) {
    return new LlmError('timeout', `${where} did not answer in time: ${err.message}`);
  }
  if (err instanceof OpenAI.APIConnectionError) return new LlmError('connection', `Cannot reach ${where}: ${err.message}`);
  if (err instanceof OpenAI.APIError && typeof err.status === 'number') {
    const kind = kindForStatus(err.status, err.message);
    const hint =
      kind === 'auth'
        ? ' Check GRUE_LLM_API_KEY.'
        : kind === 'not-found'
          ? notFoundHint(baseURL)
          : (kind === 'bad-request' || kind === 'refused') && /tool/i.test(err.message)
            ? ' The endpoint or model may not support tool calling; choose a model that does.'
            : '';
    return new LlmError(kind, `${where[0].toUpperCase()}${where.slice(1)} answered ${err.status}: ${err.message}.${hint}`, err.status);
  }
  return new LlmError('connection', `LLM call to ${where} failed: ${err instanceof Error ? err.message : String(err)}`);
}

const usageOf = (response: ChatCompletion): Usage => ({
  promptTokens: response.usage?.prompt_tokens ?? 0,
  completionTokens: response.usage?.completion_tokens ?? 0,
});

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

/**
 * The conversation with a note in its system prompt. Chat templates (Gemma's, Llama's) take one
 * system message at the start and refuse or drop one later on, so the note joins the first.
 */
export function withSystemNote(messages: ChatMessage[], note: string): ChatMessage[] {
  const [first, ...rest] = messages;
  if (first?.role === 'system') return [{ role: 'system', content: `${first.content}\n\n${note}` }, ...rest];
  return [{ role: 'system', content: note }, ...messages];
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

/** What a tool-calling instruction says when the endpoint will not be told `tool_choice: 'required'`. */
export const MUST_CALL = 'You must call one of the tools in this answer; do not answer in words.';

interface Answer extends ProbeAnswer {
  model: string;
}

export class OpenAiProvider implements LlmProvider {
  readonly name = 'openai';
  readonly model: string;
  readonly contextTokens?: number;
  /** Answers counted as they come (eval:servers reads them): every call answered, its seconds, unusable answers, repairs. */
  readonly counts = { calls: 0, seconds: 0, invalidAnswers: 0, repairs: 0 };
  private readonly client: OpenAI;
  private readonly timeoutMs: number;
  private readonly endpointKey: string;
  private pinned: Capabilities | null;

  constructor(private readonly opts: OpenAiProviderOptions) {
    this.model = opts.model;
    if (opts.contextTokens !== undefined) this.contextTokens = opts.contextTokens;
    this.timeoutMs = opts.timeoutMs ?? 60_000;
    this.endpointKey = `${opts.baseURL ?? OPENAI_API_URL}|${opts.model}`;
    this.pinned = opts.capabilities ?? null;
    // Retries belong to Temporal's activity retry policy, so the client itself never retries.
    // No base URL is OpenAI's own API, whatever OPENAI_BASE_URL says: the messages name it so.
    this.client = new OpenAI({
      baseURL: opts.baseURL ?? OPENAI_API_URL,
      apiKey: opts.apiKey ?? 'not-needed',
      timeout: this.timeoutMs,
      maxRetries: 0,
    });
  }

  /** The modes in force: negotiated with real calls the first time this process talks to the endpoint and model. */
  capabilities(): Promise<Capabilities> {
    if (this.pinned) return Promise.resolve(this.pinned);
    return negotiatedOnce(this.endpointKey, () => negotiate(this.prober()));
  }

  private prober(): Prober {
    const sampling = { maxTokens: 40, temperature: 0, seed: 0 };
    return {
      structured: (mode, messages, schema, schemaName) => this.structuredCall(mode, messages, schema, schemaName, sampling),
      tools: (messages, tools, choice) => this.toolCall(messages, tools, choice, sampling),
    };
  }

  /** A refusal naming a feature steps its mode down for everyone using this endpoint and model; false when there is no lower mode. */
  private async stepDown(err: unknown, feature: Feature): Promise<boolean> {
    if (!(err instanceof LlmError) || refusedFeature(err.status, err.message) !== feature) return false;
    const now = await this.capabilities();
    let next: Capabilities | null = null;
    const finding = `${feature} refused at run time (${err.status})`;
    if (feature === 'structured') {
      const lower = lowerStructuredMode(now.structured);
      if (lower) next = { ...now, structured: lower, findings: [...now.findings, finding] };
    } else if (feature === 'tools' && now.tools === 'native') next = { ...now, tools: 'emulated', findings: [...now.findings, finding] };
    else if (feature === 'toolChoice' && now.toolChoiceRequired)
      next = { ...now, toolChoiceRequired: false, findings: [...now.findings, finding] };
    if (!next) return false;
    if (this.pinned) this.pinned = next;
    else remember(this.endpointKey, next);
    return true;
  }

  private params(messages: ChatMessage[], sampling: Sampling, maxTokens: number): CreateParams {
    return {
      model: this.model,
      messages: messages.map(apiMessage),
      max_tokens: sampling.maxTokens ?? maxTokens,
      temperature: sampling.temperature ?? 0,
      ...(sampling.seed !== undefined ? { seed: sampling.seed } : {}),
    };
  }

  /** Run a request, turning every failure into a classified LlmError, and read the first choice. */
  private async send(params: CreateParams): Promise<Answer> {
    const started = Date.now();
    let response: ChatCompletion;
    try {
      response = await this.client.chat.completions.create(params);
    } catch (err) {
      // Some fetch implementations report an aborted (timed-out) request as a plain connection error.
      throw classifyOpenAiError(err, Date.now() - started >= this.timeoutMs * 0.9, this.opts.baseURL);
    }
    this.counts.calls++;
    this.counts.seconds += (Date.now() - started) / 1000;
    const choice = response.choices?.[0];
    if (!choice?.message) throw new LlmError('bad-answer', `The model's answer has no message: ${JSON.stringify(response).slice(0, 200)}`);
    const toolCalls: unknown = choice.message.tool_calls ?? [];
    if (!Array.isArray(toolCalls))
      throw new LlmError('bad-answer', `The model's tool_calls is not a list: ${JSON.stringify(toolCalls).slice(0, 200)}`);
    return {
      raw: choice.message.content ?? '',
      toolCalls,
      cutOff: choice.finish_reason === 'length',
      usage: usageOf(response),
      model: response.model || this.model,
    };
  }

  /** One structured request in the given mode. */
  private structuredCall(mode: StructuredMode, messages: ChatMessage[], schema: z.ZodTypeAny, schemaName: string, sampling: Sampling) {
    const jsonSchema = jsonSchemaFor(schema);
    if (mode === 'json_schema') {
      return this.send({
        ...this.params(messages, sampling, 400),
        response_format: { type: 'json_schema', json_schema: { name: schemaName, schema: jsonSchema, strict: false } },
      });
    }
    const hint = `Answer with one JSON object matching this JSON Schema:\n${JSON.stringify(jsonSchema)}`;
    const params = this.params(withSystemNote(messages, hint), sampling, 400);
    if (mode === 'text') return this.send(params);
    // llama.cpp-based servers constrain JSON mode with a schema given beside the type; others ignore it.
    const format = { type: 'json_object', schema: jsonSchema } as unknown as CreateParams['response_format'];
    return this.send({ ...params, response_format: format });
  }

  /** A structured request in the mode in force, stepping down at once when the endpoint refuses it by name. */
  private async structured(messages: ChatMessage[], schema: z.ZodTypeAny, schemaName: string, sampling: Sampling): Promise<Answer> {
    for (;;) {
      const { structured } = await this.capabilities();
      try {
        return await this.structuredCall(structured, messages, schema, schemaName, sampling);
      } catch (err) {
        if (!(await this.stepDown(err, 'structured'))) throw err;
      }
    }
  }

  private toolCall(messages: ChatMessage[], tools: ToolSpec[], choice: 'auto' | 'required', sampling: Sampling): Promise<Answer> {
    return this.send({
      ...this.params(messages, sampling, DEFAULT_TOOL_MAX_TOKENS),
      tools: tools.map(toolDefinition),
      tool_choice: choice,
    });
  }

  async complete<S extends z.ZodTypeAny>(req: CompletionRequest<S>): Promise<Completion<z.infer<S>>> {
    const maxTokens = req.maxTokens ?? 400;
    const result = await this.counted(
      answeredWithRepair(
        req.messages,
        maxTokens,
        (messages) => this.structured(messages, req.schema, req.schemaName, { ...req, maxTokens }),
        (answer) => parseAnswer(req.schema, answer.raw, req.schemaName),
      ),
    );
    return { value: result.value, usage: result.usage, model: result.answer.model, raw: result.answer.raw, cutOff: result.answer.cutOff };
  }

  /** Count the repairs and the answers that stayed unusable. */
  private async counted<T extends { repaired: boolean }>(work: Promise<T>): Promise<T> {
    try {
      const result = await work;
      if (result.repaired) this.counts.repairs++;
      return result;
    } catch (err) {
      if (err instanceof LlmError && err.kind === 'bad-answer') this.counts.invalidAnswers++;
      throw err;
    }
  }

  async callTools(req: ToolCallRequest): Promise<ToolCallResult> {
    const { maxCalls } = checkToolRequest(req);
    const maxTokens = req.maxTokens ?? DEFAULT_TOOL_MAX_TOKENS;
    for (;;) {
      const caps = await this.capabilities();
      if (caps.tools === 'emulated') return this.emulatedTools(req, maxCalls, maxTokens);
      const required = req.toolChoice === 'required';
      const messages = required && !caps.toolChoiceRequired ? withSystemNote(req.messages, MUST_CALL) : req.messages;
      let answer: Answer;
      try {
        answer = await this.toolCall(messages, req.tools, required && caps.toolChoiceRequired ? 'required' : 'auto', {
          ...req,
          maxTokens,
        });
      } catch (err) {
        if ((await this.stepDown(err, 'toolChoice')) || (await this.stepDown(err, 'tools'))) continue;
        throw err;
      }
      return this.nativeResult(req.tools, answer, maxCalls, maxTokens);
    }
  }

  /** The API's calls validated one by one; an answer in words where calls were asked is an invalid answer, not zero calls. */
  private nativeResult(tools: ToolSpec[], answer: Answer, maxCalls: number, maxTokens: number): ToolCallResult {
    const checked = validateCalls(tools, answer.toolCalls.map(candidateOf), maxCalls);
    const cut = answer.cutOff ? ` (the answer was cut off at the limit of ${maxTokens} tokens)` : '';
    const invalid = checked.invalid.map((i) => ({ ...i, error: `${i.error}${cut}` }));
    if (!answer.toolCalls.length && answer.raw.trim())
      invalid.push({ tool: '(no call)', error: `the model answered in words where tool calls were asked${cut}`, raw: answer.raw });
    if (invalid.length) this.counts.invalidAnswers++;
    return {
      calls: checked.calls,
      invalid,
      usage: answer.usage,
      model: answer.model,
      raw: JSON.stringify({ content: answer.raw || null, tool_calls: answer.toolCalls }),
      cutOff: answer.cutOff,
    };
  }

  /** Tool calls as one structured answer `{ "calls": [...] }`, as the embedded model gives them. */
  private async emulatedTools(req: ToolCallRequest, maxCalls: number, maxTokens: number): Promise<ToolCallResult> {
    const required = req.toolChoice === 'required';
    const schema = toolCallsAnswerSchema(req.tools, maxCalls, required);
    const messages = withSystemNote(messagesAsText(req.messages), toolListPrompt(req.tools, maxCalls, required));
    const result = await this.counted(
      answeredWithRepair(
        messages,
        maxTokens,
        (m) => this.structured(m, schema, 'tool_calls', { ...req, maxTokens }),
        (answer) => readCallsAnswer(answer.raw, maxTokens),
      ),
    );
    const checked = validateCalls(req.tools, result.value, maxCalls);
    if (checked.invalid.length) this.counts.invalidAnswers++;
    return { ...checked, usage: result.usage, model: result.answer.model, raw: result.answer.raw, cutOff: result.answer.cutOff };
  }

  /**
   * The endpoint proves it works: its model list (a 404 there is a wrong base URL, not a server
   * without the route: every OpenAI-compatible server has it), then the negotiation's real calls.
   * Returns the modes chosen, in words.
   */
  async preflight(): Promise<string> {
    // An endpoint that takes the connection and never answers would hold `grue play` for the
    // whole call timeout: the preflight has its own, short one.
    const timeout = Math.min(PREFLIGHT_TIMEOUT_MS, this.timeoutMs);
    const started = Date.now();
    const where = describeEndpoint(this.opts.baseURL);
    try {
      const models = await this.client.models.list({ timeout });
      const ids = models.data.map((m) => m.id);
      if (ids.length && !ids.includes(this.model)) {
        throw new LlmError(
          'config',
          `${where} does not serve model "${this.model}"; it has: ${ids.slice(0, 10).join(', ')}. Set GRUE_LLM_MODEL.`,
        );
      }
    } catch (err) {
      const e = classifyOpenAiError(err, Date.now() - started >= timeout * 0.9, this.opts.baseURL);
      if (e.kind === 'timeout')
        throw new LlmError('timeout', `${where} took the connection but did not answer within ${timeout / 1000} s.`);
      throw e;
    }
    return describeCapabilities(await this.capabilities());
  }

  async close(): Promise<void> {}
}
