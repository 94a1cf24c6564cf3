/**
 * One provider-neutral call: messages and a zod schema in, a validated value and token usage out.
 */
import { z } from 'zod';

export const ChatMessageSchema = z.object({ role: z.enum(['system', 'user', 'assistant']), content: z.string() });
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

export interface Completion<T> {
  value: T;
  usage: Usage;
  model: string;
  /** Raw text the model produced, for logs and evaluation. */
  raw: string;
}

export interface LlmProvider {
  readonly name: string;
  readonly model: string;
  complete<S extends z.ZodTypeAny>(request: CompletionRequest<S>): Promise<Completion<z.infer<S>>>;
  /** Fail fast with a clear message when the configured LLM cannot work at all. */
  preflight(): Promise<void>;
  close(): Promise<void>;
}
