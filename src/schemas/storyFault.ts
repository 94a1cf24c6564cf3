/**
 * A story that faults on the agent's command (an illegal instruction, a stack overflow, a loop
 * that never asks for input) faults the same way from the same snapshot every time: no retry can
 * play that turn. The episode ends there, keeping the turns it played and the score it reached.
 */
import { z } from 'zod';

/** The failure types (engine error codes, as the activity boundary names them) of a story's own fault. */
export const STORY_FAULT_TYPES: readonly string[] = ['VM_FAULT', 'INSTRUCTION_BUDGET'];

export const StoryFaultSchema = z.object({
  /** The turn the command was made on: the episode played the turns before it. */
  turn: z.number().int().positive(),
  command: z.string(),
  /** The engine's error: the story, pc and instruction where it stopped. */
  message: z.string(),
});
export type StoryFault = z.infer<typeof StoryFaultSchema>;
