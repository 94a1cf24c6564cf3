/**
 * The compaction model's free text screened before it reaches the world model: a description, a
 * scene's summary, outcome and story, a character's status and wants, a quest's title and what
 * blocks it must read as words (see notWords). A call carrying text that does not is rejected
 * whole, with the reason, and counted: the memory views never show it.
 */
import { notWords } from '../../text';
import { COMPACTION_SYSTEM_PROMPT, COMPACTION_TOOLS, ToolCall } from './tools';

/** The free-text fields of each tool (names and state words are checked against the engine's facts by the merge). */
const FREE_TEXT: Record<string, readonly string[]> = {
  update_location: ['description'],
  update_character: ['status', 'wants'],
  update_quest: ['title', 'blocked_by'],
  record_scene: ['summary', 'outcome', 'narrative'],
};

/** What the model was told: the system prompt, each tool's description and each field's. */
const INSTRUCTIONS: string[] = [
  COMPACTION_SYSTEM_PROMPT,
  ...COMPACTION_TOOLS.flatMap((tool) => [
    tool.description,
    ...Object.values(tool.schema.shape as Record<string, { description?: string }>).flatMap((field) =>
      field.description ? [field.description] : [],
    ),
  ]),
];

export interface ScreenedCalls {
  kept: ToolCall[];
  rejected: Array<{ call: ToolCall; reason: string }>;
}

export function screenFreeText(calls: readonly ToolCall[]): ScreenedCalls {
  const kept: ToolCall[] = [];
  const rejected: ScreenedCalls['rejected'] = [];
  for (const call of calls) {
    const args = (call.arguments ?? {}) as Record<string, unknown>;
    const problems = (FREE_TEXT[call.tool] ?? []).flatMap((field) => {
      const value = args[field];
      if (typeof value !== 'string') return [];
      const problem = notWords(value, INSTRUCTIONS);
      return problem ? [`${field} is not words (${problem}): ${JSON.stringify(value.slice(0, 40))}`] : [];
    });
    if (problems.length) rejected.push({ call, reason: problems.join('; ') });
    else kept.push(call);
  }
  return { kept, rejected };
}
