/**
 * Any OpenAI-compatible chat-completions endpoint (OpenAI, Ollama, vLLM, llama.cpp server) via
 * the `openai` package. Structured output through `response_format: json_schema`; a server that
 * rejects it gets JSON mode plus zod validation instead, remembered for the rest of the process.
 */
import OpenAI from 'openai';
import { z } from 'zod';
import { kindForStatus, LlmError } from './errors';
import { jsonSchemaFor, parseAnswer } from './json';
import type { Completion, CompletionRequest, LlmProvider } from './types';

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
    const hint = kind === 'auth' ? ' Check GRUE_LLM_API_KEY.' : kind === 'not-found' ? ' Check GRUE_LLM_MODEL and GRUE_LLM_BASE_URL.' : '';
    return new LlmError(kind, `The LLM endpoint answered ${err.status}: ${err.message}.${hint}`, err.status);
  }
  return new LlmError('connection', `LLM call failed: ${err instanceof Error ? err.message : String(err)}`);
}

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

  async complete<S extends z.ZodTypeAny>(req: CompletionRequest<S>): Promise<Completion<z.infer<S>>> {
    const base = {
      model: this.model,
      messages: req.messages,
      max_tokens: req.maxTokens ?? 400,
      temperature: req.temperature ?? 0,
      ...(req.seed !== undefined ? { seed: req.seed } : {}),
    };
    let response: OpenAI.Chat.Completions.ChatCompletion;
    const started = Date.now();
    try {
      if (this.jsonSchemaSupported) {
        try {
          response = await this.client.chat.completions.create({
            ...base,
            response_format: { type: 'json_schema', json_schema: { name: req.schemaName, schema: jsonSchemaFor(req.schema), strict: false } },
          });
        } catch (err) {
          if (!(err instanceof OpenAI.APIError && err.status === 400 && /response_format|json_schema/i.test(err.message))) throw err;
          this.jsonSchemaSupported = false;
          response = await this.jsonMode(base, req);
        }
      } else {
        response = await this.jsonMode(base, req);
      }
    } catch (err) {
      // Some fetch implementations report an aborted (timed-out) request as a plain connection error.
      throw classifyOpenAiError(err, Date.now() - started >= this.timeoutMs * 0.9);
    }
    const raw = response.choices[0]?.message?.content ?? '';
    return {
      value: parseAnswer(req.schema, raw, req.schemaName),
      usage: { promptTokens: response.usage?.prompt_tokens ?? 0, completionTokens: response.usage?.completion_tokens ?? 0 },
      model: response.model || this.model,
      raw,
    };
  }

  private jsonMode<S extends z.ZodTypeAny>(base: OpenAI.Chat.Completions.ChatCompletionCreateParamsNonStreaming, req: CompletionRequest<S>) {
    const schemaHint = `Answer with one JSON object matching this JSON Schema:\n${JSON.stringify(jsonSchemaFor(req.schema))}`;
    return this.client.chat.completions.create({
      ...base,
      messages: [...req.messages, { role: 'system', content: schemaHint }],
      response_format: { type: 'json_object' },
    });
  }

  async preflight(): Promise<void> {
    try {
      const models = await this.client.models.list();
      const ids = models.data.map((m) => m.id);
      if (ids.length && !ids.includes(this.model)) {
        throw new LlmError('config', `The LLM endpoint does not serve model "${this.model}"; it has: ${ids.slice(0, 10).join(', ')}. Set GRUE_LLM_MODEL.`);
      }
    } catch (err) {
      const e = classifyOpenAiError(err);
      // Some servers have no /models route: that alone is not a reason to refuse.
      if (e.kind === 'not-found' && !(err instanceof LlmError)) return;
      throw e;
    }
  }

  async close(): Promise<void> {}
}
