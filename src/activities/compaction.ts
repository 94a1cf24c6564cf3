/**
 * The `compact` activity (seed 001): one LLM call that turns the raw turns since the last
 * compaction into updater tool calls. It only asks; the merge with the engine's ground truth is
 * pure code in the workflow (src/memory/compaction), so a retried activity cannot apply anything
 * twice.
 */
import { describeProvider, LlmProvider, promptSize } from '../llm';
import { CompactRequest, CompactRequestSchema, CompactResult } from '../memory/compaction';
import { compactionPrompt } from '../memory/compaction/prompt';
import { COMPACTION_TOOLS } from '../memory/compaction/tools';
import { parseInput } from './failures';
import { heartbeat } from './heartbeat';
import { classifiedLlmCall } from './llmBoundary';
import { recordLlmWork } from '../telemetry/metrics';

/** Prompt budget by provider: the embedded model's 2,048-token context leaves room for ~8 tool calls. */
const promptBudget = (provider: LlmProvider) => (promptSize(provider) === 'small' ? 1200 : 6000);

export function createCompactionActivities(llm: () => LlmProvider) {
  return {
    async compact(raw: CompactRequest): Promise<CompactResult> {
      const request = parseInput(CompactRequestSchema, raw, 'compact input');
      const provider = llm();
      const onProgress = heartbeat();
      const answer = await classifiedLlmCall(provider, () =>
        provider.callTools({
          messages: compactionPrompt(request, promptBudget(provider)),
          tools: [...COMPACTION_TOOLS],
          maxCalls: 8,
          maxTokens: 700,
          temperature: 0,
          seed: request.seed,
          onProgress,
        }),
      );
      await recordLlmWork('compactions', describeProvider(provider));
      return {
        calls: answer.calls,
        invalid: answer.invalid.map((i) => ({ tool: i.tool, error: i.error })),
        usage: { calls: 1, ...answer.usage },
      };
    },
  };
}
