/**
 * A worker's cap on LLM calls in flight. An embedded model runs on the worker's own cores: a
 * second inference at once (a second episode, or a second model named by another episode) only
 * slows both, so every embedded model of a worker shares one slot. A remote endpoint takes
 * `GRUE_LLM_CONCURRENCY` calls at once, its rate limit being the usual bound. A call waiting
 * for a slot is still inside its activity's heartbeating LLM boundary, so a crowded worker is not
 * mistaken for a dead one; its provider's own timeout starts once it has the slot.
 */
import type { LlmProvider } from './types';

export class Slots {
  private inUse = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly size: number) {
    if (!Number.isInteger(size) || size < 1) throw new RangeError(`a slot count must be a positive integer, got ${size}`);
  }

  get busy(): number {
    return this.inUse;
  }

  async run<T>(work: () => Promise<T>): Promise<T> {
    if (this.inUse >= this.size) await new Promise<void>((resolve) => this.waiting.push(resolve));
    else this.inUse++;
    try {
      return await work();
    } finally {
      // The slot passes straight to the next in line, so a newcomer cannot take it first.
      const next = this.waiting.shift();
      if (next) next();
      else this.inUse--;
    }
  }
}

/** The provider with every call (completion or tool call) taking one of `slots`. */
export function withSlots(provider: LlmProvider, slots: Slots): LlmProvider {
  return {
    name: provider.name,
    model: provider.model,
    complete: (request) => slots.run(() => provider.complete(request)),
    callTools: (request) => slots.run(() => provider.callTools(request)),
    preflight: () => provider.preflight(),
    close: () => provider.close(),
  };
}

/** Embedded models share one slot per worker; any other provider shares `remoteSlots()` (made on first use). */
export function slotsFor(provider: LlmProvider, embedded: Slots, remoteSlots: () => Slots): Slots {
  return provider.name === 'local' ? embedded : remoteSlots();
}
