import type { z } from 'zod';
import { sharedProviders } from '../../src/activities';
import { Slots } from '../../src/llm/slots';
import type { Completion, CompletionRequest, LlmProvider, ToolCallResult } from '../../src/llm/types';

/** A provider that records how many of its siblings' calls run at the same moment. */
class CountingProvider implements LlmProvider {
  constructor(
    readonly name: string,
    readonly model: string,
    private readonly gauge: { now: number; peak: number },
  ) {}
  private async busy<T>(value: T): Promise<T> {
    this.gauge.now++;
    this.gauge.peak = Math.max(this.gauge.peak, this.gauge.now);
    await new Promise((resolve) => setImmediate(resolve));
    await new Promise((resolve) => setImmediate(resolve));
    this.gauge.now--;
    return value;
  }
  complete<S extends z.ZodTypeAny>(_request: CompletionRequest<S>): Promise<Completion<z.infer<S>>> {
    return this.busy({ value: {} as z.infer<S>, usage: { promptTokens: 1, completionTokens: 1 } } as Completion<z.infer<S>>);
  }
  callTools(): Promise<ToolCallResult> {
    return this.busy({ calls: [], invalid: [], usage: { promptTokens: 1, completionTokens: 1 } } as unknown as ToolCallResult);
  }
  async preflight(): Promise<void> {}
  async close(): Promise<void> {}
}

const request = { messages: [{ role: 'user', content: 'hi' }], schemaName: 'x' } as unknown as CompletionRequest<z.ZodTypeAny>;

describe('LLM slots', () => {
  it('runs at most `size` calls at once and serves the waiting ones in order', async () => {
    const slots = new Slots(2);
    const order: number[] = [];
    let now = 0;
    let peak = 0;
    await Promise.all(
      [0, 1, 2, 3, 4, 5].map((index) =>
        slots.run(async () => {
          now++;
          peak = Math.max(peak, now);
          order.push(index);
          await new Promise((resolve) => setImmediate(resolve));
          now--;
        }),
      ),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5]);
    expect(slots.busy).toBe(0);
  });

  it('frees the slot when a call fails', async () => {
    const slots = new Slots(1);
    await expect(slots.run(() => Promise.reject(new Error('boom')))).rejects.toThrow('boom');
    await expect(slots.run(async () => 'next')).resolves.toBe('next');
  });

  it('gives a worker’s embedded models one inference at a time, even two different models', async () => {
    const gauge = { now: 0, peak: 0 };
    const provider = sharedProviders((model) => new CountingProvider('local', model ?? 'default', gauge));
    const calls = [null, 'qwen', null, 'qwen', null, 'qwen'].map((model) => provider(model).complete(request));
    await Promise.all(calls);
    expect(gauge.peak).toBe(1);
    // One provider per model, made once.
    expect(provider('qwen')).toBe(provider('qwen'));
  });

  it('lets a remote endpoint take GRUE_LLM_CONCURRENCY calls at once', async () => {
    const saved = process.env.GRUE_LLM_CONCURRENCY;
    process.env.GRUE_LLM_CONCURRENCY = '3';
    try {
      const gauge = { now: 0, peak: 0 };
      const provider = sharedProviders((model) => new CountingProvider('openai', model ?? 'gpt', gauge));
      await Promise.all(Array.from({ length: 8 }, () => provider(null).callTools({} as never)));
      expect(gauge.peak).toBe(3);
    } finally {
      if (saved === undefined) delete process.env.GRUE_LLM_CONCURRENCY;
      else process.env.GRUE_LLM_CONCURRENCY = saved;
    }
  });
});
