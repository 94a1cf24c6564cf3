/** The LLM part of play's and campaign's result: answered and failed calls by kind, and plainly when the model answered nothing. */
import { campaignLlmLine, llmResultLine } from '../../src/cli/llmResult';
import { llmFailureKindOf, llmFailureType } from '../../src/schemas/llmFailure';

const usage = { calls: 0, promptTokens: 0, completionTokens: 0, fallbackTurns: 0 };

describe('the LLM result line', () => {
  it('gives calls answered by what they were for, failed by kind, and fallback turns', () => {
    expect(
      llmResultLine({ ...usage, fallbackTurns: 1, answered: { oracle: 4, compact: 1 }, failed: { 'invalid answer': 1, unreachable: 0 } }),
    ).toBe('llm: 5 LLM calls answered (oracle 4, compact 1), 1 failed (invalid answer 1); 1 fallback turn');
  });

  it('says plainly when the model answered nothing', () => {
    const line = llmResultLine({ ...usage, fallbackTurns: 4, answered: {}, failed: { unreachable: 21 } });
    expect(line).toMatch(/^llm: THE MODEL ANSWERED NOTHING: 0 LLM calls answered, 21 failed \(unreachable 21\); 4 fallback turns\./);
  });

  it('sums a campaign', () => {
    expect(
      campaignLlmLine([
        { llmAnswered: 3, llmFailed: 1, fallbackTurns: 0 },
        { llmAnswered: 0, llmFailed: 2, fallbackTurns: 2 },
      ]),
    ).toBe('llm: 3 LLM calls answered, 3 failed; 2 fallback turns');
    expect(campaignLlmLine([{}])).toBeNull();
  });

  it('reads the failure kind back from the activity failure type', () => {
    expect(llmFailureKindOf(llmFailureType('bad-answer'))).toBe('invalid answer');
    expect(llmFailureKindOf(llmFailureType('not-found'))).toBe('refused');
    expect(llmFailureKindOf(llmFailureType('rate-limited'))).toBe('unreachable');
    expect(llmFailureKindOf('LlmError', true)).toBe('timed out');
  });
});
