/**
 * The seed's model-facing tests, against the embedded model (Gemma 3 270M by default). One
 * sample from a model this small is noise, so each runs as a small evaluation over variants and
 * asserts a pass rate; the rates are printed for the record.
 */
import { z } from 'zod';
import { createOracleActivities } from '../../src/activities/oracle';
import { beliefsContext, freshBeliefs } from '../../src/agent/beliefs';
import { LocalProvider } from '../../src/llm/localProvider';
import { DEFAULT_EMBEDDED_MODEL } from '../../src/llm/models';

jest.setTimeout(10 * 60_000);

// One thread and a generous timeout: in CI other test files share the two cores, and llama.cpp threads that
// compete for a core slow generation tenfold. These tests measure answers, not speed.
const provider = new LocalProvider({ modelId: process.env.GRUE_EVAL_MODEL ?? DEFAULT_EMBEDDED_MODEL, threads: 1, timeoutMs: 600_000 });
const oracle = createOracleActivities(() => provider);
afterAll(() => provider.close());

const OPENINGS = [
  'The phone rings. Oh, no - how long have you been asleep? This is bad.\n\nBedroom (in bed)\nThis bedroom is extremely spare, with dirty laundry scattered haphazardly all over the floor. A bathroom lies to the south, while a door to the east leads to the living room.\n\nOn the end table are a telephone, a wallet and some keys.',
  "The phone is ringing loudly. You are lying in bed, still groggy. The alarm clock shows 9:05 AM. You're going to be late for work!",
  'Bedroom (in bed)\nThe phone rings. You are still in bed and you are late. A door to the east leads out.',
  'You wake up in bed. The telephone on the end table is ringing. You should have left for work an hour ago.',
  "The phone rings and rings. You're in bed, it's 9:05, and you were due at work at 8.",
];
const ACTIONS = ['answer phone', 'stand up', 'take wallet', 'take keys', 'sleep', 'look', 'inventory'];
const beliefs = (location = 'unknown') => [{ title: "AGENT'S BELIEFS", text: beliefsContext({ ...freshBeliefs(), location }) }];
const USEFUL = new Set(['answer phone', 'stand up']);

const FAILURES = [
  { observation: 'You are lying in bed.', action: 'go east', response: "You'll have to get up first." },
  { observation: 'Bedroom (in bed)', action: 'south', response: "You'll have to get up first." },
  { observation: 'You are in bed, under the covers.', action: 'take keys', response: "You'll have to get up first." },
  { observation: 'You are lying in bed. The phone rings.', action: 'east', response: "You'll have to get up first." },
  { observation: 'Bedroom (in bed). Laundry is everywhere.', action: 'open dresser', response: "You'll have to get up first." },
];

describe(`embedded model (${DEFAULT_EMBEDDED_MODEL}) as the oracle`, () => {
  it('recommends a useful action at the 9:05 opening (seed test 1) at least 3 times in 5', async () => {
    let good = 0;
    const picks: string[] = [];
    for (const observation of OPENINGS) {
      const r = await oracle.analyseTurn({ observation, lastAction: null, validActions: ACTIONS, context: beliefs(), seed: 0 });
      picks.push(r.answer.recommended_action);
      if (USEFUL.has(r.answer.recommended_action)) good++;
    }

    console.log(`seed test 1: useful recommendation ${good}/${OPENINGS.length}: ${JSON.stringify(picks)}`);
    expect(good).toBeGreaterThanOrEqual(3);
  });

  it('names getting up as the prerequisite of "You\'ll have to get up first" (seed test 2) at least 3 times in 5', async () => {
    let good = 0;
    const answers: string[] = [];
    for (const f of FAILURES) {
      // The focused failure question the pipeline asks when the last action changed nothing.
      const situation = beliefsContext({ ...freshBeliefs(), location: f.observation });
      const r = await oracle.analyseFailure({ situation, failedAction: f.action, response: f.response, seed: 0 });
      const text = `${r.answer.prerequisite} ${r.answer.suggested_action}`.toLowerCase();
      answers.push(r.answer.prerequisite);
      if (/get up|stand|out of bed|leave the bed|up first/.test(text)) good++;
    }

    console.log(`seed test 2: prerequisite about getting up ${good}/${FAILURES.length}: ${JSON.stringify(answers)}`);
    expect(good).toBeGreaterThanOrEqual(3);
  });

  it('always answers in the schema, with token usage', async () => {
    const r = await oracle.analyseTurn({
      observation: 'You get out of bed.',
      lastAction: 'stand up',
      validActions: ACTIONS,
      context: beliefs('Bedroom'),
      seed: 0,
    });
    expect(typeof r.answer.last_action_made_progress).toBe('boolean');
    expect(ACTIONS).toContain(r.answer.recommended_action);
    expect(r.usage.calls).toBe(1);
    expect(r.usage.promptTokens).toBeGreaterThan(20);
    expect(r.usage.completionTokens).toBeGreaterThan(3);
  });

  it("says where a generation's time went: reading the prompt (chat template included), then writing the answer", async () => {
    const r = await provider.complete({
      messages: [
        { role: 'system', content: 'Answer as JSON.' },
        { role: 'user', content: 'Is a lamp a light source?' },
      ],
      schema: z.object({ yes: z.boolean() }),
      schemaName: 'yes_no',
      maxTokens: 20,
    });
    expect(r.timing).toBeDefined();
    // The template's turn markers are evaluated too, so more tokens are read than the messages' text holds.
    expect(r.timing!.promptTokensEvaluated).toBeGreaterThan(r.usage.promptTokens);
    expect(r.timing!.promptMs).toBeGreaterThan(0);
    expect(r.timing!.generationMs).toBeGreaterThan(0);
  });
});
