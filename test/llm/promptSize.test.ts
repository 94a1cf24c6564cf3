/**
 * A server declared small (GRUE_LLM_CONTEXT_TOKENS under 16,384) is sent the short prompts and
 * answers of the embedded models; a server of unknown context, the generous ones of hosted models.
 */
import { promptBudget } from '../../src/activities/oracle';
import { createProvider, loadLlmConfig, promptSize } from '../../src/llm';

const server = (extra: Record<string, string> = {}) =>
  createProvider(
    loadLlmConfig({ GRUE_LLM_PROVIDER: 'openai', GRUE_LLM_MODEL: 'gemma', GRUE_LLM_BASE_URL: 'http://127.0.0.1:8080/v1', ...extra }),
  );

describe('promptSize', () => {
  it('is small for the embedded models, whatever their context', () => {
    expect(promptSize({ name: 'local' })).toBe('small');
  });

  it('is large for a server whose context nobody declared, small for one declared under 16,384 tokens', () => {
    expect(promptSize(server())).toBe('large');
    expect(promptSize(server({ GRUE_LLM_CONTEXT_TOKENS: '8192' }))).toBe('small');
    expect(promptSize(server({ GRUE_LLM_CONTEXT_TOKENS: '16384' }))).toBe('large');
  });

  it('sizes the oracle prompt by it', () => {
    expect(promptBudget(server({ GRUE_LLM_CONTEXT_TOKENS: '4096' }))).toBeLessThan(promptBudget(server()));
  });

  it('refuses a context that is not a number of tokens, naming the variable', () => {
    expect(() => loadLlmConfig({ GRUE_LLM_CONTEXT_TOKENS: 'big' })).toThrow(/GRUE_LLM_CONTEXT_TOKENS/);
    expect(() => loadLlmConfig({ GRUE_LLM_CONTEXT_TOKENS: '100' })).toThrow(/GRUE_LLM_CONTEXT_TOKENS/);
  });
});
