/**
 * The dynamics model P(s', r | s, a) over world-hash states (seed 004), learned from every step
 * and carried across episodes. Bounded: the oldest state-action entries are dropped first.
 */
import { z } from 'zod';

const EntrySchema = z.object({
  count: z.number().int().positive(),
  rewardSum: z.number(),
  /** next world hash -> times seen */
  next: z.record(z.string(), z.number().int().positive()),
});

export const DynamicsSchema = z.object({ entries: z.record(z.string(), EntrySchema).default({}) });
export type Dynamics = z.infer<typeof DynamicsSchema>;

/**
 * Bounded so the model fits in a workflow payload with room to spare (it travels through
 * continue-as-new and from episode to episode): an entry is ~60-80 bytes of JSON, so 400 entries
 * take ~32 KB, about half of the carried state's budget. The least recently updated go first, so paths in use stay.
 */
export const MAX_DYNAMICS_ENTRIES = 400;
/** The prefix of a world hash the model keys states by. */
export const shortState = (hash: string) => hash.slice(0, 12);
const key = (state: string, action: string) => `${shortState(state)}|${action}`;

export function freshDynamics(): Dynamics {
  return { entries: {} };
}

export function observe(d: Dynamics, state: string, action: string, next: string, reward: number): Dynamics {
  const k = key(state, action);
  const old = d.entries[k];
  const entry = old
    ? {
        count: old.count + 1,
        rewardSum: old.rewardSum + reward,
        next: { ...old.next, [shortState(next)]: (old.next[shortState(next)] ?? 0) + 1 },
      }
    : { count: 1, rewardSum: reward, next: { [shortState(next)]: 1 } };
  const entries = { ...d.entries };
  delete entries[k];
  entries[k] = entry; // re-inserted last: most recently used
  const keys = Object.keys(entries);
  for (let i = 0; i < keys.length - MAX_DYNAMICS_ENTRIES; i++) delete entries[keys[i]];
  return { entries };
}

export function observationCount(d: Dynamics, state: string, action: string): number {
  return d.entries[key(state, action)]?.count ?? 0;
}

export function expectedReward(d: Dynamics, state: string, action: string): number {
  const e = d.entries[key(state, action)];
  return e ? e.rewardSum / e.count : 0;
}

/** P(s' | s, a) keyed by the first 12 hex digits of s', or null when (s, a) was never observed. */
export function nextStateDistribution(d: Dynamics, state: string, action: string): Record<string, number> | null {
  const e = d.entries[key(state, action)];
  if (!e) return null;
  return Object.fromEntries(Object.entries(e.next).map(([s, n]) => [s, n / e.count]));
}

/** Every state the model has seen, as a source or a result, in any episode (short form). */
export function knownStates(d: Dynamics): Set<string> {
  const known = new Set<string>();
  for (const [k, e] of Object.entries(d.entries)) {
    known.add(k.slice(0, k.indexOf('|')));
    for (const s of Object.keys(e.next)) known.add(s);
  }
  return known;
}
