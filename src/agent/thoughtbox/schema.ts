/**
 * The thoughtbox's shapes (seed 003): the step a model sends, the tool result it gets back, and
 * the session the workflow keeps while one turn is thought through. A session lives within one
 * turn; what outlives it is its record (history, the `thinking` query, thoughts.jsonl).
 */
import { z } from 'zod';
import { OracleUsageSchema, TurnRequestSchema } from '../../schemas/oracle';

/** Long enough for a real thought, short enough that 20 of them fit a small model's context. */
export const MAX_THOUGHT_CHARS = 400;
export const MAX_BRANCH_ID_CHARS = 40;

/**
 * The seed's ThinkingStep. Optional fields are also nullable: a grammar-constrained model must
 * write every field, and null is how it says "not this time". `action` is ours: the concluding
 * step (nextThoughtNeeded false) names the command to play, one of the valid actions.
 */
export const ThinkingStepSchema = z.object({
  thought: z.string().min(1).max(MAX_THOUGHT_CHARS).describe('this thought, in a sentence or two'),
  thoughtNumber: z.number().int().min(1).describe("this thought's number: 1, 2, 3, ... in order"),
  totalThoughts: z.number().int().min(1).describe('how many thoughts you now expect in all (may grow)'),
  nextThoughtNeeded: z.boolean().describe('false on your last thought'),
  isRevision: z.boolean().nullable().optional().describe('true when this thought corrects an earlier one'),
  revisesThought: z.number().int().min(1).nullable().optional().describe('with isRevision: the number of the thought corrected'),
  branchFromThought: z.number().int().min(1).nullable().optional().describe('to explore an alternative: the thought it branches from'),
  branchId: z
    .string()
    .max(MAX_BRANCH_ID_CHARS)
    .nullable()
    .optional()
    .describe("the branch's name (keep it for every thought of that branch)"),
  needsMoreThoughts: z.boolean().nullable().optional().describe('true to go past totalThoughts'),
  includePatternsCookbook: z.boolean().nullable().optional().describe('true to get the reasoning patterns cookbook in the result'),
  action: z.string().max(80).nullable().optional().describe('on your last thought: the command to play now, one of the valid actions'),
});
export type ThinkingStep = z.infer<typeof ThinkingStepSchema>;

export const ThoughtKindSchema = z.enum(['forward', 'revision', 'branch']);

/** One accepted thought, as the chain records it. */
export const ThoughtSchema = z.object({
  number: z.number().int().min(1),
  kind: ThoughtKindSchema,
  revises: z.number().int().min(1).optional(),
  branchFromThought: z.number().int().min(1).optional(),
  branchId: z.string().optional(),
  text: z.string(),
});
export type Thought = z.infer<typeof ThoughtSchema>;

/** The seed's echo of the session after a step, plus what was wrong when the step was refused. */
export const ToolResultSchema = z.object({
  thoughtNumber: z.number().int(),
  totalThoughts: z.number().int(),
  nextThoughtNeeded: z.boolean(),
  branches: z.array(z.string()),
  thoughtHistoryLength: z.number().int(),
  /** The step was refused: what to correct. The session is unchanged. */
  error: z.string().optional(),
  /** The patterns cookbook goes with this result (the activity puts its text in the message). */
  patternsCookbook: z.boolean().optional(),
});
export type ToolResult = z.infer<typeof ToolResultSchema>;

/** One round of the tool-calling loop: what the model sent (as it sent it) and what it got back. */
export const ExchangeSchema = z.object({ call: z.unknown(), result: ToolResultSchema });
export type Exchange = z.infer<typeof ExchangeSchema>;

/**
 * open: still thinking; concluded: a last thought named a valid action; declined: offered, the
 * model chose not to think; abandoned: the model stopped calling the tool before concluding;
 * limit: maxThinkingIterations reached (the seed's MaxIterationsExceeded); unreachable: the LLM
 * failed after its retries. Every outcome but concluded leaves the decision to the oracle and selector.
 */
export const SessionOutcomeSchema = z.enum(['open', 'concluded', 'declined', 'abandoned', 'limit', 'unreachable']);
export type SessionOutcome = z.infer<typeof SessionOutcomeSchema>;

export const ThoughtboxSessionSchema = z.object({
  turn: z.number().int().nonnegative(),
  /** Why it was offered ('always', or what made the turn hard). */
  trigger: z.string(),
  /** The model must think (always) or may decline (auto). */
  required: z.boolean(),
  maxIterations: z.number().int().min(1),
  thoughts: z.array(ThoughtSchema),
  totalThoughts: z.number().int().nonnegative(),
  /** Branch id -> the thought it branched from. */
  branches: z.record(z.string(), z.number().int()),
  exchanges: z.array(ExchangeSchema),
  /** Model calls so far, refused ones included. */
  iterations: z.number().int().nonnegative(),
  invalidSteps: z.number().int().nonnegative(),
  outcome: SessionOutcomeSchema,
  /** The concluding step's action, matched to a valid action. */
  action: z.string().nullable(),
  usage: OracleUsageSchema,
});
export type ThoughtboxSession = z.infer<typeof ThoughtboxSessionSchema>;

/** What the model answered to one `think` call. */
export const ThinkAnswerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('step'), step: ThinkingStepSchema }),
  /** A call the provider could not accept (bad JSON, wrong schema): answered with the error. */
  z.object({ kind: z.literal('invalid'), call: z.unknown(), error: z.string() }),
  /** No call at all: the model declined to think (or stopped). */
  z.object({ kind: z.literal('none'), text: z.string() }),
]);
export type ThinkAnswer = z.infer<typeof ThinkAnswerSchema>;

export const ThinkResultSchema = z.object({ answer: ThinkAnswerSchema, usage: OracleUsageSchema });
export type ThinkResult = z.infer<typeof ThinkResultSchema>;

/** What the oracle said this turn, shown to the thinking model beside the context. */
export const OracleReadingSchema = z.object({
  goal: z.string(),
  blocker: z.string(),
  recommended: z.string(),
  reasoning: z.string(),
});
export type OracleReading = z.infer<typeof OracleReadingSchema>;

/**
 * One `think` activity's input: the turn's whole original context (what recall built for the
 * oracle), what the oracle said, and every earlier round of this session, so each call sees it all.
 */
export const ThinkRequestSchema = z.object({
  turn: TurnRequestSchema,
  oracle: OracleReadingSchema.nullable(),
  trigger: z.string(),
  required: z.boolean(),
  exchanges: z.array(ExchangeSchema).max(100),
  seed: z.number().int(),
  /** This call is the last the session allows (maxThinkingIterations): the model is asked to conclude. */
  lastCall: z.boolean().default(false),
});
export type ThinkRequest = z.infer<typeof ThinkRequestSchema>;
