/**
 * The oracle activities: each query to the LLM is one retryable activity. The provider (embedded
 * model or an OpenAI-compatible endpoint) is the worker's one provider, created from its
 * environment; secrets stay in the worker's environment. Long local generations heartbeat.
 *
 * One merged query a turn (the seed's lesson: fewer calls), plus the seed's failure analysis when
 * the engine saw the last action change nothing (the small model names a prerequisite in the
 * focused question, not in the merged one). The seed's progress and state-variable queries are
 * not activities: the engine's ground truth judges progress (score, new world state) better than
 * a model's claim, and its object tree is the state the seed asked the model to track.
 */
import { z } from 'zod';
import { failurePrompt, PROMPT_ACTIONS, turnAnalysisPrompt } from '../agent/prompts';
import { describeProvider, LlmProvider, promptSize } from '../llm';
import type { ChatMessage } from '../llm/types';
import {
  FailureAnalysisSchema,
  FailureAnswer,
  FailureRequest,
  FailureRequestSchema,
  TurnAnalysisSchema,
  TurnAnswer,
  TurnRequest,
  TurnRequestSchema,
} from '../schemas/oracle';
import { parseInput } from './failures';
import { heartbeat } from './heartbeat';
import { classifiedLlmCall } from './llmBoundary';

/** Prompt budget by provider: a small context, or a hosted model's generous one. */
export function promptBudget(provider: LlmProvider): number {
  return promptSize(provider) === 'small' ? 1500 : 6000;
}

/** The turn query as the activity sends it: prompt, answer schema (the recommendation constrained to the valid actions) and token limit. */
export function turnAnalysisQuery(request: TurnRequest, provider: LlmProvider) {
  const messages = turnAnalysisPrompt(request, promptBudget(provider));
  // Constrain the recommendation to the valid actions: even a tiny model then names a real move.
  const actions = [...new Set(request.validActions.slice(0, PROMPT_ACTIONS))];
  const schema = actions.length
    ? TurnAnalysisSchema.extend({
        recommended_action: z.enum(actions as [string, ...string[]]),
        alternative_actions: z.array(z.enum(actions as [string, ...string[]])).max(3),
      })
    : TurnAnalysisSchema;
  return { messages, schema, schemaName: 'turn_analysis', maxTokens: TURN_MAX_TOKENS };
}

/** Tokens the turn answer may take (the full schema's strings at their length limits come to about 300). */
export const TURN_MAX_TOKENS = 320;

/** `llm` gives the worker's one provider (see createActivities). */
export function createOracleActivities(llm: () => LlmProvider) {
  async function ask<S extends z.ZodTypeAny>(schema: S, schemaName: string, messages: ChatMessage[], maxTokens: number, seed = 0) {
    const onProgress = heartbeat();
    const provider = llm();
    const r = await classifiedLlmCall(provider, () =>
      provider.complete({ schema, schemaName, messages, maxTokens, temperature: 0, seed, onProgress }),
    );
    return { answer: r.value as z.infer<S>, usage: { calls: 1, ...r.usage }, model: describeProvider(provider) };
  }

  return {
    async analyseTurn(raw: TurnRequest): Promise<TurnAnswer & { model: string }> {
      const request = parseInput(TurnRequestSchema, raw, 'analyseTurn input');
      const query = turnAnalysisQuery(request, llm());
      return ask(query.schema, query.schemaName, query.messages, query.maxTokens, request.seed);
    },
    async analyseFailure(raw: FailureRequest): Promise<FailureAnswer & { model: string }> {
      const request = parseInput(FailureRequestSchema, raw, 'analyseFailure input');
      return ask(FailureAnalysisSchema, 'failure_analysis', failurePrompt(request), 200, request.seed);
    },
  };
}

export type OracleActivities = ReturnType<typeof createOracleActivities>;
