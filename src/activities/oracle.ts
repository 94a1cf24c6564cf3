/**
 * Oracle activities: each query to the LLM is one retryable activity. The provider (embedded
 * model or an OpenAI-compatible endpoint) is created once per worker from its environment;
 * secrets stay in the worker's environment. Long local generations heartbeat.
 */
import { Context } from '@temporalio/activity';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { BeliefsSchema } from '../agent/beliefs';
import { extractStatePrompt, failurePrompt, progressPrompt, stateVariablesPrompt, turnAnalysisPrompt } from '../agent/prompts';
import { createProvider, describeProvider, LlmError, LlmProvider } from '../llm';
import type { ChatMessage } from '../llm/types';
import { ExtractedStateSchema, FailureAnalysisSchema, ProgressSchema, StateVariablesSchema, TurnAnalysisSchema } from '../schemas/oracle';
import { parseInput } from './failures';

const TurnInputSchema = z.object({
  observation: z.string(),
  beliefs: BeliefsSchema,
  validActions: z.array(z.string()).max(200),
  lastAction: z.string().nullable(),
  lastResponse: z.string().nullable(),
  seed: z.number().int().default(0),
});
const FailureInputSchema = z.object({ observation: z.string(), beliefs: BeliefsSchema, failedAction: z.string(), response: z.string() });
const ProgressInputSchema = z.object({ before: z.string(), action: z.string(), after: z.string(), scoreChange: z.number() });
const VariablesInputSchema = z.object({ observation: z.string(), beliefs: BeliefsSchema, contradictions: z.array(z.string()) });
const ExtractInputSchema = z.object({ observation: z.string(), variables: z.array(z.string()).max(8) });

/** Prompt budget by provider: a small local context, or a generous remote one. */
function promptBudget(provider: LlmProvider): number {
  return provider.name === 'local' ? 1500 : 6000;
}

export function createOracleActivities(makeProvider: () => LlmProvider = () => createProvider()) {
  let provider: LlmProvider | null = null;
  const llm = () => (provider ??= makeProvider());

  async function ask<S extends z.ZodTypeAny>(schema: S, schemaName: string, messages: ChatMessage[], maxTokens: number, seed = 0) {
    const ctx = activityContext();
    try {
      const r = await llm().complete({ schema, schemaName, messages, maxTokens, temperature: 0, seed, onProgress: () => ctx?.heartbeat() });
      return { answer: r.value as z.infer<S>, usage: { calls: 1, ...r.usage }, model: describeProvider(llm()) };
    } catch (err) {
      if (err instanceof LlmError && !err.retryable) throw ApplicationFailure.nonRetryable(err.message, `LLM_${err.kind.toUpperCase().replace('-', '_')}`);
      throw err;
    }
  }

  return {
    async analyseTurn(raw: unknown) {
      const i = parseInput(TurnInputSchema, raw, 'analyseTurn input');
      const messages = turnAnalysisPrompt({ ...i, budgetTokens: promptBudget(llm()) });
      // Constrain the recommendation to the valid actions: even a tiny model then names a real move.
      const actions = [...new Set(i.validActions.slice(0, 30))];
      const schema = actions.length
        ? TurnAnalysisSchema.extend({ recommended_action: z.enum(actions as [string, ...string[]]), alternative_actions: z.array(z.enum(actions as [string, ...string[]])).max(3) })
        : TurnAnalysisSchema;
      return ask(schema, 'turn_analysis', messages, 320, i.seed);
    },
    async analyseFailure(raw: unknown) {
      const i = parseInput(FailureInputSchema, raw, 'analyseFailure input');
      return ask(FailureAnalysisSchema, 'failure_analysis', failurePrompt(i.observation, i.beliefs, i.failedAction, i.response), 200);
    },
    async detectProgress(raw: unknown) {
      const i = parseInput(ProgressInputSchema, raw, 'detectProgress input');
      return ask(ProgressSchema, 'progress', progressPrompt(i.before, i.action, i.after, i.scoreChange), 160);
    },
    async suggestStateVariables(raw: unknown) {
      const i = parseInput(VariablesInputSchema, raw, 'suggestStateVariables input');
      return ask(StateVariablesSchema, 'state_variables', stateVariablesPrompt(i.observation, i.beliefs, i.contradictions), 160);
    },
    async extractState(raw: unknown) {
      const i = parseInput(ExtractInputSchema, raw, 'extractState input');
      return ask(ExtractedStateSchema, 'extracted_state', extractStatePrompt(i.observation, i.variables), 200);
    },
  };
}

function activityContext(): Context | null {
  try {
    return Context.current();
  } catch {
    return null; // called outside an activity (evaluation scripts)
  }
}

export type OracleActivities = ReturnType<typeof createOracleActivities>;
