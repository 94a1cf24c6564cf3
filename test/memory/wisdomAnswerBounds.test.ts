/**
 * What `synthesizeWisdom` asks of a model, by its context: a small-context model (the embedded one)
 * gets the bounds its knowledge items have, so that a text that runs on still ends inside the
 * answer's tokens; a large one gets the whole schema. The provider here only records the request:
 * the test is about the activity's request, not about what a model writes.
 */
import type { z } from 'zod';
import { createKnowledgeActivities } from '../../src/activities/knowledge';
import { StorySessions } from '../../src/activities/stories';
import type { Completion, CompletionRequest, LlmProvider } from '../../src/llm/types';
import { LIMITS, type WisdomRequest } from '../../src/memory/knowledge/schema';

class RecordingProvider implements LlmProvider {
  readonly model = 'recording';
  readonly requests: CompletionRequest<z.ZodTypeAny>[] = [];
  constructor(readonly name: string) {}
  async complete<S extends z.ZodTypeAny>(request: CompletionRequest<S>): Promise<Completion<z.infer<S>>> {
    this.requests.push(request);
    const value = { insights: [{ layer: 'PRINCIPLE', text: 'Light a lamp before dark rooms.', keywords: ['lamp'] }] };
    return {
      value: request.schema.parse(value),
      usage: { promptTokens: 1, completionTokens: 1 },
      model: this.model,
      raw: JSON.stringify(value),
    };
  }
  callTools(): never {
    throw new Error('wisdom makes no tool call');
  }
  async preflight(): Promise<void> {}
  async close(): Promise<void> {}
}

const REQUEST: WisdomRequest = {
  game: 'zork1',
  episode: 1,
  summary: { turns: 10, score: 0, maxScore: 350, died: false, victory: false, deaths: [], rooms: 3, scoreChanges: [] },
  items: [],
  wisdom: [],
  seed: 1,
};

const insight = (text: string, keywords: string[] = []) => ({ layer: 'PRINCIPLE' as const, text, keywords });

async function requestOf(providerName: string): Promise<CompletionRequest<z.ZodTypeAny>> {
  const provider = new RecordingProvider(providerName);
  const activities = createKnowledgeActivities(() => provider, new StorySessions());
  await activities.synthesizeWisdom(REQUEST);
  expect(provider.requests).toHaveLength(1);
  return provider.requests[0];
}

describe("synthesizeWisdom's request", () => {
  it('bounds the embedded model to 3 lessons of at most 160 characters and 3 keywords, in 700 tokens', async () => {
    const request = await requestOf('local');
    const { schema } = request;
    expect(request.maxTokens).toBe(700);
    expect(schema.safeParse({ insights: [1, 2, 3].map(() => insight('x'.repeat(160), ['a', 'b', 'c'])) }).success).toBe(true);
    expect(schema.safeParse({ insights: [1, 2, 3, 4].map(() => insight('a lesson')) }).success).toBe(false);
    expect(schema.safeParse({ insights: [insight('1'.repeat(161))] }).success).toBe(false);
    expect(schema.safeParse({ insights: [insight('a lesson', ['a', 'b', 'c', 'd'])] }).success).toBe(false);
    // Offered an empty list, the embedded model takes it (as with its knowledge items).
    expect(schema.safeParse({ insights: [] }).success).toBe(false);
  });

  it('gives a model with a large context the whole schema', async () => {
    const request = await requestOf('openai');
    const { schema } = request;
    expect(request.maxTokens).toBe(1500);
    const most = Array.from({ length: LIMITS.wisdom }, () => insight('y'.repeat(LIMITS.text), ['k']));
    expect(schema.safeParse({ insights: most }).success).toBe(true);
    expect(schema.safeParse({ insights: [...most, insight('one more')] }).success).toBe(false);
  });
});
