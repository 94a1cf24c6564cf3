/** Making sure the configured LLM can work before any workflow starts (grue play, campaign, setup). */
import { createProvider, describeProvider, loadLlmConfig, LlmError, LlmProvider, scrubSecrets } from '../llm';
import { LocalProvider } from '../llm/localProvider';
import { DEFAULT_EMBEDDED_MODEL, EMBEDDED_MODELS, ensureModel } from '../llm/models';
import { UsageError } from './args';
import { log } from '../log';

/** Ask the provider to prove it works (load the model, or reach the endpoint); a failure is the user's to fix. */
async function prove(provider: LlmProvider): Promise<string> {
  let found: string | void;
  try {
    // A remote endpoint answers with what it supports and the modes grue will use with it.
    found = await provider.preflight();
  } catch (err) {
    const detail = scrubSecrets(err instanceof LlmError ? err.message : (err as Error).message);
    throw new UsageError(`the LLM (${describeProvider(provider)}) cannot be used: ${detail}`);
  } finally {
    await provider.close();
  }
  return found ? `${describeProvider(provider)}; ${found}` : describeProvider(provider);
}

/** Fetch the embedded model if needed, then ask the provider to prove it works. Returns "provider:model" (and an endpoint's modes). */
export async function preflightLlm(model: string | null = null): Promise<string> {
  let config;
  try {
    config = loadLlmConfig(model ? { ...process.env, GRUE_LLM_MODEL: model } : process.env);
  } catch (err) {
    throw new UsageError((err as Error).message);
  }
  if (config.GRUE_LLM_PROVIDER === 'local') await ensureModel(config.GRUE_LLM_MODEL ?? DEFAULT_EMBEDDED_MODEL, log);
  return prove(createProvider(config));
}

/** The embedded model ids a `--model` list names: comma-separated ids, or `all`. */
export function parseEmbeddedModelList(list: string): string[] {
  const ids =
    list === 'all'
      ? Object.keys(EMBEDDED_MODELS)
      : list
          .split(',')
          .map((s) => s.trim())
          .filter(Boolean);
  const unknown = ids.filter((id) => !EMBEDDED_MODELS[id]);
  if (ids.length === 0 || unknown.length) {
    throw new UsageError(
      `--model: unknown embedded model ${unknown.map((u) => `"${u}"`).join(', ') || '(none given)'}; ` +
        `choose from ${Object.keys(EMBEDDED_MODELS).join(', ')} or all.`,
    );
  }
  return ids;
}

/** Fetch one embedded model (whatever GRUE_LLM_PROVIDER says) and load it once. Returns "local:model". */
export async function prepareEmbeddedModel(id: string): Promise<string> {
  await ensureModel(id, log);
  return prove(new LocalProvider({ modelId: id }));
}
