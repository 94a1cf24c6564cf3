/**
 * Commands that name nothing and go nowhere ("inventory", "laugh", "meditate"), typed under
 * `none`: what they answer seldom depends on the room, yet each room made them untried again —
 * plundered's explorer laughed five times and took inventory six, trinity's took inventory eight.
 * One that got the same reply twice and gained nothing is not typed again in the episode. A reply
 * that changes (the inventory after something was taken, a prayer at an altar) keeps it typed.
 */
import { z } from 'zod';
import { asCompared } from './replyReading';

export const IdleTriesSchema = z.object({
  /** Command -> the last reply it had that gained nothing, whitespace and case aside. */
  replies: z.record(z.string(), z.string()),
  /** Commands answered alike twice: not typed again this episode. */
  struck: z.array(z.string()),
});
export type IdleTries = z.infer<typeof IdleTriesSchema>;

const LIMITS = { replies: 64, struck: 100 } as const;

/** What a step teaches of idle commands: `shape` is the command's shape, `directions` the story's moves. */
export function idleAfter(
  idle: IdleTries | undefined,
  step: { command: string; shape: string; reply: string; gained: boolean },
  directions: readonly string[],
): IdleTries | undefined {
  const known = idle ?? { replies: {}, struck: [] };
  const command = step.command;
  const isIdle = step.shape === command && !command.includes('$') && !directions.includes(command);
  if (!isIdle || step.gained || known.struck.includes(command)) return idle;
  const reply = asCompared(step.reply);
  if (known.replies[command] === reply) {
    const { [command]: _, ...replies } = known.replies;
    return { replies, struck: [...known.struck, command].slice(-LIMITS.struck) };
  }
  const { [command]: _, ...others } = known.replies;
  const kept = Object.keys(others).slice(-(LIMITS.replies - 1));
  return { replies: { ...Object.fromEntries(kept.map((key) => [key, others[key]])), [command]: reply }, struck: known.struck };
}
