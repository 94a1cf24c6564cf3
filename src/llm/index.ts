/** Choosing the LLM from configuration. Secrets come from the environment, never from workflow inputs. */
import { z } from 'zod';
import { describeZodError } from '../schemas/describe';
import { EMBEDDED_MODEL_THREADS, LocalProvider } from './localProvider';
import { DEFAULT_EMBEDDED_MODEL, EMBEDDED_MODELS } from './models';
import { OpenAiProvider } from './openaiProvider';
import type { LlmProvider } from './types';

export * from './types';
export * from './errors';

/** The longest per-call LLM timeout that fits in an LLM activity's start-to-close timeout. */
export const MAX_LLM_TIMEOUT_MS = 270_000;

const LlmConfigSchema = z
  .object({
    GRUE_LLM_PROVIDER: z.enum(['local', 'openai']).default('local'),
    GRUE_LLM_MODEL: z.string().min(1).optional(),
    GRUE_LLM_BASE_URL: z.string().url().optional(),
    GRUE_LLM_API_KEY: z.string().optional(),
    OPENAI_API_KEY: z.string().optional(),
    // Below the LLM activities' 5-minute start-to-close timeout, so a slow answer can still land.
    GRUE_LLM_TIMEOUT_MS: z.coerce
      .number()
      .int()
      .min(1000)
      .max(MAX_LLM_TIMEOUT_MS, `at most ${MAX_LLM_TIMEOUT_MS}: the LLM activities time out after 5 minutes`)
      .default(120_000),
    /** The served model's context in tokens: under 16,384 grue sends it the short prompts it sends the embedded models. */
    GRUE_LLM_CONTEXT_TOKENS: z.coerce.number().int().min(512).optional(),
    GRUE_LLM_THREADS: z.coerce.number().int().min(1).max(256).default(EMBEDDED_MODEL_THREADS),
    /** Calls a worker sends a remote endpoint at once (an embedded model always takes one at a time; see slots.ts). */
    GRUE_LLM_CONCURRENCY: z.coerce.number().int().min(1).max(256).default(4),
  })
  .superRefine((c, ctx) => {
    if (c.GRUE_LLM_PROVIDER === 'local' && c.GRUE_LLM_MODEL && !EMBEDDED_MODELS[c.GRUE_LLM_MODEL]) {
      ctx.addIssue({
        code: 'custom',
        path: ['GRUE_LLM_MODEL'],
        message: `unknown embedded model; choose one of ${Object.keys(EMBEDDED_MODELS).join(', ')}`,
      });
    }
    if (c.GRUE_LLM_PROVIDER === 'openai' && !c.GRUE_LLM_MODEL) {
      ctx.addIssue({
        code: 'custom',
        path: ['GRUE_LLM_MODEL'],
        message: 'required with GRUE_LLM_PROVIDER=openai (e.g. gpt-4o-mini, llama3.1:8b)',
      });
    }
  });
export type LlmConfig = z.infer<typeof LlmConfigSchema>;

export function loadLlmConfig(env: NodeJS.ProcessEnv = process.env): LlmConfig {
  const parsed = LlmConfigSchema.safeParse(env);
  if (!parsed.success) throw new Error(`Invalid LLM configuration: ${describeZodError(parsed.error)}`);
  return parsed.data;
}

export function createProvider(config: LlmConfig = loadLlmConfig()): LlmProvider {
  if (config.GRUE_LLM_PROVIDER === 'openai') {
    return new OpenAiProvider({
      baseURL: config.GRUE_LLM_BASE_URL,
      apiKey: config.GRUE_LLM_API_KEY ?? config.OPENAI_API_KEY,
      model: config.GRUE_LLM_MODEL!,
      timeoutMs: config.GRUE_LLM_TIMEOUT_MS,
      ...(config.GRUE_LLM_CONTEXT_TOKENS ? { contextTokens: config.GRUE_LLM_CONTEXT_TOKENS } : {}),
    });
  }
  return new LocalProvider({
    modelId: config.GRUE_LLM_MODEL ?? DEFAULT_EMBEDDED_MODEL,
    threads: config.GRUE_LLM_THREADS,
    timeoutMs: config.GRUE_LLM_TIMEOUT_MS,
  });
}

/** A short description for status lines and results (no secrets). */
export function describeProvider(p: LlmProvider): string {
  return `${p.name}:${p.model}`;
}
