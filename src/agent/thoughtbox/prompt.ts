/**
 * The thoughtbox's conversation, rebuilt for every `think` call as the seed's message list: the
 * system prompt, the turn's whole context, then each earlier round as the model's tool call and
 * its result. Pure: the activity sends what this builds. Over the token budget, the context is cut
 * first (observation, then the lowest-priority sections), then earlier thoughts are shortened;
 * every round stays in, so numbering, revisions and branches keep their referents.
 */
import { z } from 'zod';
import type { ChatMessage, ToolSpec } from '../../llm/types';
import { TYPED_COMMAND_LIMITS } from '../advice';
import { PROMPT_ACTIONS } from '../prompts';
import { approxTokens, clip } from '../../text';
import { ThinkingStepSchema, ThinkRequest, ToolResult } from './schema';

export const THOUGHTBOX_TOOL = 'thoughtbox';

const DESCRIPTION =
  'Structured workspace for a hard turn: one numbered thought per call, before acting. Supports forward thinking, ' +
  'backward chaining from a goal, revising an earlier thought and branching to explore alternatives.';

/** The tool, with its action constrained to the valid actions (a grammar then cannot name another). */
export function thoughtboxTool(validActions: readonly string[]): ToolSpec {
  const actions = promptActions(validActions);
  const schema = actions.length
    ? ThinkingStepSchema.extend({
        action: z
          .enum(actions)
          .nullable()
          .optional()
          .describe(ThinkingStepSchema.shape.action.description ?? ''),
      })
    : ThinkingStepSchema;
  return { name: THOUGHTBOX_TOOL, description: DESCRIPTION, schema };
}

/** The embedded model's thoughts are shorter: its grammar's cost grows with a string's maximum length. */
const GRAMMAR_THOUGHT_CHARS = 200;

const promptActions = (validActions: readonly string[]) => [...new Set(validActions.slice(0, PROMPT_ACTIONS))] as [string, ...string[]];
const oneOf = (numbers: number[]) =>
  numbers.length === 1
    ? z.literal(numbers[0])
    : z.union(numbers.map((n) => z.literal(n)) as unknown as [z.ZodLiteral<number>, z.ZodLiteral<number>]);

/**
 * The tool for a grammar-constrained model, narrowed to the steps that can be valid as thought
 * `next`: its number, revisions and branches of earlier thoughts only, each kind's fields
 * consistent, and an action exactly when it concludes (in a forward thought). A 270M model cannot keep these rules from
 * a description (it sets every field); under this grammar it cannot break them. The reducer still
 * checks what the grammar cannot (a branch id reused from another thought).
 */
export function constrainedThoughtboxTool(validActions: readonly string[], next: number, { lastCall = false } = {}): ToolSpec {
  const actions = promptActions(validActions);
  const earlier = Array.from({ length: next - 1 }, (_, i) => i + 1);
  const common = {
    thoughtNumber: z.literal(next),
    totalThoughts: oneOf(Array.from({ length: 8 }, (_, i) => next + i)),
    needsMoreThoughts: z.boolean(),
    includePatternsCookbook: z.boolean(),
  };
  // Written after the fields that tell the variants apart: a grammar keeps every variant alive
  // until the text rules all but one out, and a long string shared by all of them made one
  // step take minutes on two cores.
  const thought = {
    thought: z
      .string()
      .min(1)
      .max(GRAMMAR_THOUGHT_CHARS)
      .describe(ThinkingStepSchema.shape.thought.description ?? ''),
  };
  const kinds = [
    { isRevision: z.literal(false), revisesThought: z.null(), branchFromThought: z.null(), branchId: z.null() },
    ...(earlier.length
      ? [
          { isRevision: z.literal(true), revisesThought: oneOf(earlier), branchFromThought: z.null(), branchId: z.null() },
          {
            isRevision: z.literal(false),
            revisesThought: z.null(),
            branchFromThought: oneOf(earlier),
            branchId: z.string().min(1).max(20),
          },
        ]
      : []),
  ];
  // The concluding thought is a plain forward one: one variant carries the action list, which keeps
  // the grammar (and sampling) small. With no list (the `none` assist) it carries a typed command.
  // On the last call it is the only variant, so a session always ends with a command to play.
  // A typed command no longer than the reducer takes (asCommand).
  const action = actions.length ? z.enum(actions) : z.string().min(1).max(TYPED_COMMAND_LIMITS.chars);
  const concluding = z.object({ ...kinds[0], nextThoughtNeeded: z.literal(false), action, ...thought, ...common });
  const variants = lastCall
    ? [concluding]
    : [
        ...kinds.map((kind) => z.object({ ...kind, nextThoughtNeeded: z.literal(true), action: z.null(), ...thought, ...common })),
        concluding,
      ];
  const schema = variants.length === 1 ? variants[0] : z.union(variants as unknown as [z.ZodTypeAny, z.ZodTypeAny]);
  return { name: THOUGHTBOX_TOOL, description: DESCRIPTION, schema };
}

function system(request: ThinkRequest): string {
  // Under the `none` assist there is no list: the conclusion is a command as a player types it.
  const which = request.turn.validActions.length ? 'one of VALID ACTIONS' : 'a short command as a player types it ("open door", "north")';
  return [
    'You play a text adventure game and think a hard turn through before acting, ' +
      'with the thoughtbox tool: one numbered thought per call (1, 2, 3, ...).',
    'Correct an earlier thought with isRevision true and revisesThought. Explore an alternative with branchFromThought and a branchId.',
    `On your last thought set nextThoughtNeeded false and put the command to play now in action, ${which}.`,
    ...(request.lastCall
      ? [`This call is the last thought you may make: set nextThoughtNeeded false and name the command to type now in action, ${which}.`]
      : []),
    request.required ? 'Call the tool now.' : 'If the advice below is already enough, answer with no call and the agent acts on it.',
  ].join(' ');
}

function contextText(request: ThinkRequest, obsChars: number, sections: number): string {
  const { turn, oracle } = request;
  return [
    `WHY THINK NOW: ${request.trigger}`,
    turn.lastAction ? `LAST ACTION: ${turn.lastAction}` : 'LAST ACTION: none (the game just started)',
    `${turn.lastAction ? "GAME'S RESPONSE" : 'OPENING'}:\n${clip(turn.observation, obsChars)}`,
    ...turn.context.slice(0, sections).map((s) => `${s.title}:\n${s.text}`),
    ...(oracle
      ? [`ORACLE'S ADVICE: goal "${oracle.goal}"; blocked by "${oracle.blocker}"; recommends "${oracle.recommended}" (${oracle.reasoning})`]
      : []),
    ...(turn.validActions.length ? [`VALID ACTIONS: ${JSON.stringify(turn.validActions.slice(0, PROMPT_ACTIONS))}`] : []),
  ].join('\n\n');
}

/** The seed's echo as the model reads it, with the cookbook when the result carries it. */
export function resultText(result: ToolResult, cookbook: string): string {
  const { patternsCookbook, ...echo } = result;
  return patternsCookbook && cookbook ? `${JSON.stringify(echo)}\n\n${cookbook}` : JSON.stringify(echo);
}

/** An earlier call with its thought cut to `thoughtChars` (only accepted steps have a thought to cut). */
function shortened(call: unknown, thoughtChars: number): unknown {
  if (!call || typeof call !== 'object' || typeof (call as { thought?: unknown }).thought !== 'string') return call;
  return { ...call, thought: clip((call as { thought: string }).thought, thoughtChars) };
}

export const callId = (round: number) => `thought-${round + 1}`;

export function thinkingMessages(request: ThinkRequest, cookbook: string, budgetTokens: number): ChatMessage[] {
  const build = (obsChars: number, sections: number, thoughtChars: number): ChatMessage[] => [
    { role: 'system', content: system(request) },
    { role: 'user', content: contextText(request, obsChars, sections) },
    ...request.exchanges.flatMap((exchange, round): ChatMessage[] => [
      {
        role: 'assistant',
        content: '',
        toolCalls: [{ id: callId(round), tool: THOUGHTBOX_TOOL, arguments: shortened(exchange.call, thoughtChars) }],
      },
      { role: 'tool', toolCallId: callId(round), content: resultText(exchange.result, cookbook) },
    ]),
  ];
  const size = (messages: ChatMessage[]) => approxTokens(messages.map((m) => JSON.stringify(m)).join(''));
  let obsChars = 1500;
  let sections = request.turn.context.length;
  let thoughtChars = 400;
  let messages = build(obsChars, sections, thoughtChars);
  while (size(messages) > budgetTokens && (obsChars > 200 || sections > 1 || thoughtChars > 60)) {
    if (obsChars > 200) obsChars = Math.floor(obsChars * 0.7);
    else if (sections > 1) sections--;
    else thoughtChars = Math.floor(thoughtChars * 0.7);
    messages = build(obsChars, sections, thoughtChars);
  }
  return messages;
}
