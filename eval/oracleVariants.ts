/**
 * Ways of asking the oracle for its recommendation, to measure against the production query
 * (src/activities/oracle.ts turnAnalysisQuery) on the same states:
 *
 * - answer form: `enum` (production: the recommendation is constrained to the valid actions'
 *   names), `free` (any text, matched to a valid action afterwards with the selector's
 *   matchAction), `index` (the actions are numbered and the model answers a number);
 * - answer shape: `full` (production: the recommendation is the 8th of 11 fields, written after
 *   the model's goals and blockers), `first` (the same prompt and fields, the recommendation
 *   first), `only` (a focused prompt that asks only which action makes progress, and a schema of
 *   that one field).
 */
import { z } from 'zod';
import { turnAnalysisQuery, TURN_MAX_TOKENS, promptBudget } from '../src/activities/oracle';
import { PROMPT_ACTIONS, turnAnalysisPrompt } from '../src/agent/prompts';
import { matchAction } from '../src/agent/selector';
import type { ChatMessage, LlmProvider } from '../src/llm/types';
import { TurnAnalysisSchema, TurnRequest } from '../src/schemas/oracle';

export const AnswerFormSchema = z.enum(['enum', 'free', 'index']);
export type AnswerForm = z.infer<typeof AnswerFormSchema>;
export const AnswerShapeSchema = z.enum(['full', 'first', 'only']);
export type AnswerShape = z.infer<typeof AnswerShapeSchema>;

export interface VariantQuery {
  messages: ChatMessage[];
  schema: z.ZodTypeAny;
  schemaName: string;
  maxTokens: number;
  /** The valid action the answer recommends, or null when it names none. */
  recommendation: (answer: unknown) => string | null;
}

const RECOMMENDATION_KEYS = new Set(['recommended_action', 'recommended_action_number']);

/** The turn schema with the recommendation field replaced: in production order, with the recommendation first, or that field alone. */
function shapedSchema(
  recommendationKey: string,
  recommendation: z.ZodTypeAny,
  alternative: z.ZodTypeAny,
  shape: AnswerShape,
): z.ZodTypeAny {
  if (shape === 'only') return z.object({ [recommendationKey]: recommendation });
  const fields: Record<string, z.ZodTypeAny> = {};
  for (const [key, field] of Object.entries(TurnAnalysisSchema.shape)) {
    if (key === 'recommended_action') fields[recommendationKey] = recommendation;
    else if (key === 'alternative_actions') fields[key] = z.array(alternative).max(3);
    else fields[key] = field;
  }
  if (shape === 'full') return z.object(fields);
  const first = Object.fromEntries(
    Object.entries(fields).sort(([a], [b]) => Number(RECOMMENDATION_KEYS.has(b)) - Number(RECOMMENDATION_KEYS.has(a))),
  );
  return z.object(first);
}

export function variantQuery(request: TurnRequest, provider: LlmProvider, form: AnswerForm, shape: AnswerShape): VariantQuery {
  const actions = [...new Set(request.validActions.slice(0, PROMPT_ACTIONS))];
  const budget = promptBudget(provider);
  const ask = shape === 'only' ? 'action' : 'analysis';
  const base = { schemaName: 'turn_analysis', maxTokens: TURN_MAX_TOKENS };
  if (form === 'enum' && shape === 'full') {
    // Exactly what the activity sends.
    const production = turnAnalysisQuery(request, provider);
    return { ...production, recommendation: (a) => (a as { recommended_action: string }).recommended_action };
  }
  if (form === 'enum') {
    const names = z.enum(actions as [string, ...string[]]);
    return {
      ...base,
      messages: turnAnalysisPrompt(request, budget, 'names', ask),
      schema: shapedSchema('recommended_action', names, names, shape),
      recommendation: (a) => (a as { recommended_action: string }).recommended_action,
    };
  }
  if (form === 'free') {
    const options = actions.map((command) => ({ command }));
    const text = z.string().max(60);
    return {
      ...base,
      messages: turnAnalysisPrompt(request, budget, 'names', ask),
      schema: shapedSchema('recommended_action', text, text, shape),
      recommendation: (a) => matchAction((a as { recommended_action: string }).recommended_action, options)?.command ?? null,
    };
  }
  // The grammar knows no minimum/maximum, but it knows an enum of numbers: the answer is always a listed number.
  const number = z.literal(actions.map((_, i) => i + 1));
  return {
    ...base,
    messages: turnAnalysisPrompt(request, budget, 'numbers', ask),
    schema: shapedSchema('recommended_action_number', number, number, shape),
    recommendation: (a) => actions[(a as { recommended_action_number: number }).recommended_action_number - 1] ?? null,
  };
}
