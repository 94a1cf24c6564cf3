/** The agent's belief state (seed 004 AgentBeliefs): bounded, serialisable, carried in workflow state. */
import { z } from 'zod';

export const BeliefsSchema = z.object({
  location: z.string().default('unknown'),
  inventory: z.array(z.string()).default([]),
  overallGoal: z.string().default('unknown'),
  currentSubgoal: z.string().default('unknown'),
  accomplished: z.array(z.string()).default([]),
  blockingCondition: z.string().nullable().default(null),
  failedActions: z.array(z.object({ action: z.string(), reason: z.string() })).default([]),
  trackedState: z.record(z.string(), z.string()).default({}),
  actionHistory: z.array(z.string()).default([]),
});
export type Beliefs = z.infer<typeof BeliefsSchema>;

export const LIMITS = { accomplished: 20, failedActions: 10, actionHistory: 20, trackedState: 8 } as const;

export function freshBeliefs(overallGoal = 'unknown'): Beliefs {
  return BeliefsSchema.parse({ overallGoal });
}

/** Beliefs as the prompt shows them (seed: to_prompt_context). */
export function beliefsContext(b: Beliefs): string {
  const lines = [
    `LOCATION: ${b.location}`,
    `INVENTORY: ${b.inventory.length ? b.inventory.join(', ') : 'empty'}`,
    `OVERALL GOAL: ${b.overallGoal}`,
    `CURRENT SUBGOAL: ${b.currentSubgoal}`,
  ];
  if (b.accomplished.length) lines.push(`ACCOMPLISHED: ${b.accomplished.slice(-8).join(', ')}`);
  if (b.blockingCondition) lines.push(`BLOCKED BY: ${b.blockingCondition}`);
  if (b.failedActions.length)
    lines.push(
      `RECENT FAILURES: ${b.failedActions
        .slice(-5)
        .map((f) => `'${f.action}' (${f.reason})`)
        .join('; ')}`,
    );
  const tracked = Object.entries(b.trackedState);
  if (tracked.length) lines.push(`TRACKED STATE: ${tracked.map(([k, v]) => `${k}=${v}`).join(', ')}`);
  if (b.actionHistory.length) lines.push(`RECENT ACTIONS: ${b.actionHistory.slice(-8).join(' -> ')}`);
  return lines.join('\n');
}

export const pushBounded = <T>(list: T[], item: T, max: number): T[] => [...list, item].slice(-max);
