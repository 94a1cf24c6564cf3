/** Making sure the configured LLM can work before any workflow starts (grue play, campaign, setup). */
import { createProvider, describeProvider, loadLlmConfig, LlmError } from '../llm';
import { DEFAULT_EMBEDDED_MODEL, ensureModel } from '../llm/models';
import { log, UsageError } from './args';

/** Fetch the embedded model if needed, then ask the provider to prove it works. Returns "provider:model". */
export async function preflightLlm(model: string | null = null): Promise<string> {
  let config;
  try {
    config = loadLlmConfig(model ? { ...process.env, GRUE_LLM_MODEL: model } : process.env);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (config.GRUE_LLM_PROVIDER === 'local') await ensureModel(config.GRUE_LLM_MODEL ?? DEFAULT_EMBEDDED_MODEL, log);
  const provider = createProvider(config);
  try {
    await provider.preflight();
  } catch (err) {
    const detail = err instanceof LlmError ? err.message : (err as Error).message;
    throw new UsageError(`the LLM (${describeProvider(provider)}) cannot be used: ${detail}`);
  } finally {
    await provider.close();
  }
  return describeProvider(provider);
}
