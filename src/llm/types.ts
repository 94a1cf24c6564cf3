/**
 * Provider-neutral calls: messages and a zod schema in, a validated value and token usage out
 * (`complete`); or messages and tools in, validated tool calls out (`callTools`).
 */
import { z } from 'zod';

/** A tool call the conversation already holds: `id` pairs it with its tool message. */
export const PastToolCallSchema = z.object({ id: z.string().min(1), tool: z.string(), arguments: z.unknown() });
export type PastToolCall = z.infer<typeof PastToolCallSchema>;

/**
 * One message. A tool-calling loop replays its rounds as an assistant message with `toolCalls`
 * followed by one `tool` message per call (OpenAI's shape; the embedded provider renders both as text).
 */
export const ChatMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('system'), content: z.string() }),
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(PastToolCallSchema).optional() }),
  z.object({ role: z.literal('tool'), toolCallId: z.string().min(1), content: z.string() }),
]);
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

export const UsageSchema = z.object({ promptTokens: z.number().int().nonnegative(), completionTokens: z.number().int().nonnegative() });
export type Usage = z.infer<typeof UsageSchema>;

export interface CompletionRequest<S extends z.ZodTypeAny> {
  messages: ChatMessage[];
  schema: S;
  /** A name for the schema (OpenAI's json_schema needs one; also used in errors). */
  schemaName: string;
  maxTokens?: number;
  temperature?: number;
  seed?: number;
  /** Called now and then during long local generations (activities heartbeat from it). */
  onProgress?: () => void;
}

/**
 * Where a local generation's time went, for measuring speed: reading the prompt (until the first
 * answer token) and writing the answer. Remote providers do not report it.
 */
export interface GenerationTiming {
  promptMs: number;
  generationMs: number;
  /** Tokens the model evaluated to read the prompt, chat template included (usage counts the messages' text alone). */
  promptTokensEvaluated: number;
}

export interface Completion<T> {
  value: T;
  usage: Usage;
  model: string;
  /** Raw text the model produced, for logs and evaluation. */
  raw: string;
  timing?: GenerationTiming;
  /** The answer stopped at maxTokens (`finish_reason: length`) and was still usable. */
  cutOff?: boolean;
}

/** A tool the model may call: its arguments are checked with `schema` (which must describe an object). */
export interface ToolSpec {
  /** Letters, digits, `_` and `-`, at most 64 characters (OpenAI's rule, kept for every provider). */
  name: string;
  description: string;
  schema: z.ZodTypeAny;
}

export interface ToolCallRequest {
  messages: ChatMessage[];
  tools: ToolSpec[];
  /** At most this many calls are accepted from one answer (default 8); the rest go to `invalid`. */
  maxCalls?: number;
  /** auto (default): the model may answer with no call; required: it must call a tool. */
  toolChoice?: 'auto' | 'required';
  maxTokens?: number;
  temperature?: number;
  seed?: number;
  /** Called now and then during long local generations (activities heartbeat from it). */
  onProgress?: () => void;
}

export interface ToolCall {
  tool: string;
  /** The tool schema's parse result (defaults applied). */
  arguments: unknown;
}

/** A call that was not accepted; one bad call does not discard the good ones. */
export interface InvalidToolCall {
  tool: string;
  error: string;
  /** The arguments as the model gave them (a string when they were not JSON). */
  raw: unknown;
}

export interface ToolCallResult {
  /** Valid calls in the model's order; empty when the model had nothing to call. */
  calls: ToolCall[];
  invalid: InvalidToolCall[];
  usage: Usage;
  model: string;
  /** What the model produced, for logs and evaluation. */
  raw: string;
  /** The answer stopped at maxTokens: a call cut off in it is among `invalid`. */
  cutOff?: boolean;
}

export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  /** Tokens the model's context holds, when known (a server declared with GRUE_LLM_CONTEXT_TOKENS); see promptSize. */
  readonly contextTokens?: number;
  complete<S extends z.ZodTypeAny>(request: CompletionRequest<S>): Promise<Completion<z.infer<S>>>;
  /**
   * Ask for tool calls. Bad individual calls land in `invalid`; an answer that cannot be read at
   * all throws a retryable `LlmError('bad-answer')`, and a bad tool list a non-retryable `config` one.
   */
  callTools(request: ToolCallRequest): Promise<ToolCallResult>;
  /**
   * Fail fast with a clear message when the configured LLM cannot work at all. May return what
   * the LLM can do and the modes grue will use with it, in words (a remote endpoint's
   * negotiated capabilities).
   */
  preflight(): Promise<string | void>;
  close(): Promise<void>;
}

/** Below this many tokens of context a model is sent the short prompts and answers written for the embedded models. */
export const SMALL_CONTEXT_TOKENS = 16_384;

/**
 * How much to send and ask for: `small` for the embedded models and for a server whose declared
 * context is under SMALL_CONTEXT_TOKENS (a 4B model behind llama.cpp or Ollama has 4–8k: the
 * generous prompts and 2,500-token answers meant for hosted models would not fit, or would take
 * minutes), `large` otherwise.
 */
export function promptSize(provider: Pick<LlmProvider, 'name' | 'contextTokens'>): 'small' | 'large' {
  if (provider.name === 'local') return 'small';
  return provider.contextTokens !== undefined && provider.contextTokens < SMALL_CONTEXT_TOKENS ? 'small' : 'large';
}
