/**
 * The `compact` activity (seed 001): one LLM call that turns the raw turns since the last
 * compaction into updater tool calls. It only asks; the merge with the engine's ground truth is
 * pure code in the workflow (src/memory/compaction), so a retried activity cannot apply anything
 * twice.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { LlmError, LlmProvider } from '../llm';
import { CompactRequestSchema, CompactResult } from '../memory/compaction';
import { compactionPrompt } from '../memory/compaction/prompt';
import { COMPACTION_TOOLS } from '../memory/compaction/tools';
import { parseInput } from './failures';

/** Prompt budget by provider: the embedded model's 2,048-token context leaves room for ~8 tool calls. */
const promptBudget = (provider: LlmProvider) => (provider.name === 'local' ? 1200 : 6000);

export function createCompactionActivities(llm: () => LlmProvider) {
  return {
    async compact(raw: unknown): Promise<CompactResult> {
      const request = parseInput(CompactRequestSchema, raw, 'compact input');
      const provider = llm();
      const heartbeat = activityHeartbeat();
      try {
        const answer = await provider.callTools({
          messages: compactionPrompt(request, promptBudget(provider)),
          tools: [...COMPACTION_TOOLS],
          maxCalls: 8,
          maxTokens: 700,
          temperature: 0,
          seed: request.seed,
          onProgress: heartbeat,
        });
        return {
          calls: answer.calls,
          invalid: answer.invalid.map((i) => ({ tool: i.tool, error: i.error })),
          usage: { calls: 1, ...answer.usage },
        };
      } catch (err) {
        if (err instanceof LlmError && !err.retryable) throw ApplicationFailure.nonRetryable(err.message, `LLM_${err.kind.toUpperCase().replace('-', '_')}`);
        throw err;
      }
    },
  };
}

function activityHeartbeat(): () => void {
  try {
    const ctx = Context.current();
    return () => ctx.heartbeat();
  } catch {
    return () => undefined; // called outside an activity (benchmarks)
  }
}
