/**
 * Running a search written as a generator that yields between tries: to the end on this thread,
 * or giving the event loop back every so often so an activity can heartbeat (a large story's
 * thousands of tries take seconds, and a turn that holds the thread past its heartbeat timeout is
 * retried from the start).
 */
import type { GameSession } from './session';
import type { VmState } from './vmState';

/**
 * Puts the session back to `from` and runs one command, as a search's try does: false where the
 * story faults on it (a fault is no way anywhere, and the search goes on with its other tries).
 */
export function triedFrom(session: GameSession, from: VmState, command: string): boolean {
  session.restoreState(from);
  try {
    session.tryCommand(command);
    return true;
  } catch {
    return false;
  }
}

/** Tries a search makes between its yields: the points where runYielding may give the thread back. */
export const TRIES_PER_YIELD = 16;

/** Options of runYielding: how often the thread is given back, and what to do each time (heartbeat). */
export interface YieldOptions {
  yieldEveryMs?: number;
  onYield?: () => void;
}

export function runToEnd<T>(steps: Generator<void, T>): T {
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
  }
}

export async function runYielding<T>(steps: Generator<void, T>, options: YieldOptions = {}): Promise<T> {
  const every = options.yieldEveryMs ?? 250;
  let since = performance.now();
  for (;;) {
    const next = steps.next();
    if (next.done) return next.value;
    if (performance.now() - since < every) continue;
    options.onYield?.();
    await new Promise((resolve) => setImmediate(resolve));
    since = performance.now();
  }
}
