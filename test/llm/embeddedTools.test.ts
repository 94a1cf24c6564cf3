/**
 * Tool calls from the real embedded model (Gemma 3 270M by default). A model this small is not
 * expected to choose well, so only the shape is asserted: the grammar must yield a readable list
 * of calls, each either schema-valid or reported. What it produced is printed for the record.
 */
import { z } from 'zod';
import { LocalProvider } from '../../src/llm/localProvider';
import { DEFAULT_EMBEDDED_MODEL } from '../../src/llm/models';
import type { ToolSpec } from '../../src/llm/types';
import { createThoughtboxActivities } from '../../src/activities/thoughtbox';
import { applyAnswer, openSession, thinkRequest } from '../../src/agent/thoughtbox';

jest.setTimeout(10 * 60_000);

// One thread and a generous timeout, as in embedded.test.ts: in CI other test files share the two
// cores, and llama.cpp threads that compete for a core slow generation tenfold (this test took
// 9-15 s alone and over 90 s in a loaded CI run). It checks the answer's shape, not speed.
const provider = new LocalProvider({ modelId: process.env.GRUE_EVAL_MODEL ?? DEFAULT_EMBEDDED_MODEL, threads: 1, timeoutMs: 600_000 });
afterAll(() => provider.close());

const TOOLS: ToolSpec[] = [
  {
    name: 'update_location',
    description: 'Remember a place the player has seen.',
    schema: z.object({
      name: z.string().min(1).max(30).describe('the place name'),
      summary: z.string().max(60).describe('what is there, briefly'),
    }),
  },
  {
    name: 'update_item',
    description: 'Remember where an object is.',
    schema: z.object({
      name: z.string().min(1).max(30).describe('the object'),
      location: z.string().max(30).describe('the place it is in, or "player" if carried'),
    }),
  },
];

const TRANSCRIPT = [
  'West of House',
  'You are standing in an open field west of a white house, with a boarded front door.',
  'There is a small mailbox here.',
  '',
  '> open mailbox',
  'Opening the small mailbox reveals a leaflet.',
  '',
  '> take leaflet',
  'Taken.',
].join('\n');

describe(`embedded model (${DEFAULT_EMBEDDED_MODEL}) tool calls`, () => {
  it('answers with a structurally valid list of calls, each valid or reported, with token usage', async () => {
    const started = Date.now();
    const r = await provider.callTools({
      messages: [
        {
          role: 'system',
          content: 'You keep the notes of a text adventure player. Record the places and objects in the transcript with the tools.',
        },
        { role: 'user', content: `Transcript:\n${TRANSCRIPT}` },
      ],
      tools: TOOLS,
      // Small caps keep the worst case (two calls of maximal strings) near 250 tokens: well under a minute on 2 cores.
      maxCalls: 2,
      maxTokens: 256,
    });

    console.log(
      `embedded tool calls in ${Date.now() - started} ms, usage ${JSON.stringify(r.usage)}\n` +
        `calls: ${JSON.stringify(r.calls)}\ninvalid: ${JSON.stringify(r.invalid)}\nraw: ${r.raw}`,
    );
    expect(Array.isArray(r.calls)).toBe(true);
    expect(r.calls.length + r.invalid.length).toBeLessThanOrEqual(2);
    for (const c of r.calls) {
      const spec = TOOLS.find((t) => t.name === c.tool);
      expect(spec).toBeDefined();
      expect(spec!.schema.safeParse(c.arguments).success).toBe(true);
    }
    for (const bad of r.invalid) expect(bad.error.length).toBeGreaterThan(0);
    expect(r.model).toBe(DEFAULT_EMBEDDED_MODEL);
    expect(r.usage.promptTokens).toBeGreaterThan(100);
    expect(r.usage.completionTokens).toBeGreaterThan(3);
  });
});

describe(`embedded model (${DEFAULT_EMBEDDED_MODEL}) in the thoughtbox`, () => {
  it('answers a think call with a step the session accepts (the grammar allows only valid next steps)', async () => {
    const options = ['stand up', 'sleep', 'answer phone'].map((command) => ({
      command,
      resultHash: `h-${command}`,
      scoreDelta: 0,
      outcome: 'continue' as const,
    }));
    const think = createThoughtboxActivities(() => provider).think;
    let session = openSession(0, 'blocker: you are in bed', true, 3);
    const turn = {
      observation: 'You are in bed. The phone is ringing.',
      lastAction: null,
      validActions: options.map((o) => o.command),
      context: [],
      seed: 1,
    };
    const started = Date.now();
    const result = await think(thinkRequest(session, turn, null));
    session = applyAnswer(session, result.answer, result.usage, options);

    console.log(`embedded think in ${Date.now() - started} ms: ${JSON.stringify(result.answer)}`);
    expect(result.answer.kind).toBe('step');
    expect(session.invalidSteps).toBe(0);
    expect(session.thoughts).toHaveLength(1);
    expect(result.usage.promptTokens).toBeGreaterThan(0);
    if (session.outcome === 'concluded') expect(turn.validActions).toContain(session.action);
  });
});
