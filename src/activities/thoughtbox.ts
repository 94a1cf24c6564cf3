/**
 * The `think` activity (seed 003): one model call, one thought. It only asks: the session's rules
 * (numbering, revisions, branches, the conclusion) are applied by the pure reducer in the
 * workflow, so a retried call cannot record a thought twice, and a worker that dies mid-session
 * leaves every earlier thought in the history for the next one to continue from.
 */
import { ApplicationFailure } from '@temporalio/common';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { constrainedThoughtboxTool, thinkingMessages, thoughtboxTool } from '../agent/thoughtbox/prompt';
import { ThinkingStepSchema, ThinkRequest, ThinkRequestSchema, ThinkResult } from '../agent/thoughtbox/schema';
import { describeProvider, LlmProvider, promptSize } from '../llm';
import { recordLlmWork } from '../telemetry/metrics';
import { GAME_FILES_DIR } from '../paths';
import { parseInput } from './failures';
import { heartbeat } from './heartbeat';
import { classifiedLlmCall } from './llmBoundary';

export const COOKBOOK_FILE = join(GAME_FILES_DIR, 'thinking_patterns.md');

/** Prompt budget by provider: the embedded model's 4,096-token context keeps room for one step. */
const promptBudget = (provider: LlmProvider) => (promptSize(provider) === 'small' ? 3300 : 12000);

function readCookbook(file: string): string {
  if (!existsSync(file))
    throw ApplicationFailure.nonRetryable(
      `The thinking patterns cookbook ${file} is missing; restore game_files/thinking_patterns.md from the repository.`,
      'CookbookMissing',
    );
  return readFileSync(file, 'utf8').trim();
}

/** A remote model gets the seed's open schema; the embedded one a grammar of only the steps valid now. */
function toolFor(provider: LlmProvider, request: ThinkRequest) {
  if (provider.name !== 'local') return thoughtboxTool(request.turn.validActions);
  const accepted = request.exchanges.filter((e) => !e.result.error).length;
  return constrainedThoughtboxTool(request.turn.validActions, accepted + 1, { lastCall: request.lastCall });
}

export function createThoughtboxActivities(llm: () => LlmProvider, cookbookFile = COOKBOOK_FILE) {
  let cookbook: string | null = null;
  return {
    async think(raw: ThinkRequest): Promise<ThinkResult> {
      const request = parseInput(ThinkRequestSchema, raw, 'think input');
      cookbook ??= readCookbook(cookbookFile);
      const provider = llm();
      const onProgress = heartbeat();
      const answer = await classifiedLlmCall(provider, () =>
        provider.callTools({
          messages: thinkingMessages(request, cookbook!, promptBudget(provider)),
          tools: [toolFor(provider, request)],
          toolChoice: request.required ? 'required' : 'auto',
          maxCalls: 1,
          // Room for the step with the whitespace a grammar lets a small model indent with.
          maxTokens: 500,
          temperature: 0,
          seed: request.seed,
          onProgress,
        }),
      );
      const usage = { calls: 1, ...answer.usage };
      const [call] = answer.calls;
      const [invalid] = answer.invalid;
      await recordLlmWork('thoughts', describeProvider(provider), { answer: call ? 'step' : invalid ? 'invalid' : 'none' });
      // The tool's schema narrows the action to the valid ones; the session keeps the seed's shape.
      if (call) return { answer: { kind: 'step', step: ThinkingStepSchema.parse(call.arguments) }, usage };
      if (invalid) return { answer: { kind: 'invalid', call: invalid.raw ?? null, error: invalid.error }, usage };
      return { answer: { kind: 'none', text: answer.raw.slice(0, 500) }, usage };
    },
  };
}
