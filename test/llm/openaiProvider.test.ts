/**
 * The openai provider against a local fake chat-completions server: every fault is retried or
 * classified as specified, and a full short episode runs through it on the real dev server.
 */
import { MockActivityEnvironment, TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { z } from 'zod';
import { createActivities } from '../../src/activities';
import { readTranscript } from '../../src/activities/files';
import { loadLlmConfig } from '../../src/llm';
import { LlmError, scrubSecrets } from '../../src/llm/errors';
import { OpenAiProvider } from '../../src/llm/openaiProvider';
import { episodeWorkflow } from '../../src/workflows';
import { createEnv, tempDataDir, uniqueQueue, workflowBundle } from '../platform/env';
import { episodeInput } from '../helpers';
import { FakeOpenAi, startFakeOpenAi } from './fakeOpenAi';

const Answer = z.object({ recommended_action: z.enum(['stand up', 'look']), confidence: z.enum(['low', 'high']) });
const ask = (p: OpenAiProvider) => p.complete({ schema: Answer, schemaName: 'answer', messages: [{ role: 'user', content: 'what now?' }] });

let fake: FakeOpenAi;
beforeEach(async () => {
  fake = await startFakeOpenAi();
});
afterEach(async () => {
  await fake.close();
});

const provider = (timeoutMs = 2000) => new OpenAiProvider({ baseURL: fake.url, apiKey: 'sk-test', model: 'fake-model', timeoutMs });

describe('OpenAiProvider fault classification', () => {
  it('returns a validated value and token usage', async () => {
    const r = await ask(provider());
    expect(r.value).toEqual({ recommended_action: 'stand up', confidence: 'low' });
    expect(r.usage).toEqual({ promptTokens: 100, completionTokens: 20 });
    expect((fake.requests[0].body!.response_format as { type: string }).type).toBe('json_schema');
  });

  it.each([
    ['429', 'rate-limited', true],
    ['500', 'server', true],
    ['timeout', 'timeout', true],
    ['401', 'auth', false],
  ] as const)('%s -> %s (retryable: %s)', async (fault, kind, retryable) => {
    fake.faults = [fault];
    const err = await ask(provider(1000)).catch((e) => e);
    expect(err).toBeInstanceOf(LlmError);
    expect(err).toMatchObject({ kind, retryable });
  });

  it.each([['malformed'], ['schema-mismatch']] as const)(
    'a %s answer is asked again once with what was wrong; twice is an invalid answer no retry fixes',
    async (fault) => {
      fake.faults = [fault];
      expect((await ask(provider())).value.recommended_action).toBe('stand up');
      expect(JSON.stringify(fake.requests[1].body!.messages)).toMatch(/That answer could not be used/);
      fake.faults = [fault, fault];
      const err = await ask(provider()).catch((e) => e);
      expect(err).toMatchObject({ kind: 'bad-answer', retryable: false, failure: 'invalid answer' });
    },
  );

  it('falls back to JSON mode + zod validation when json_schema is not supported, and remembers', async () => {
    fake.faults = ['400-response-format'];
    const p = provider();
    expect((await ask(p)).value.recommended_action).toBe('stand up');
    await ask(p);
    const formats = fake.requests.map((r) => (r.body!.response_format as { type: string }).type);
    expect(formats).toEqual(['json_schema', 'json_object', 'json_object']);
  });

  it('preflight rejects a model the endpoint does not serve', async () => {
    const p = new OpenAiProvider({ baseURL: fake.url, model: 'gpt-nonexistent' });
    await expect(p.preflight()).rejects.toThrow(/does not serve model "gpt-nonexistent"/);
    await expect(provider().preflight()).resolves.toBe("structured output json_schema; tools native; tool_choice 'required' native");
  });

  it('preflight gives up on an endpoint that takes the connection and never answers', async () => {
    fake.hangModels = true;
    const p = new OpenAiProvider({ baseURL: fake.url, model: 'fake-model', timeoutMs: 1000 });
    await expect(p.preflight()).rejects.toMatchObject({
      kind: 'timeout',
      message: expect.stringMatching(/took the connection but did not answer within 1 s/),
    });
  });

  it('the preflight waits at most its own short timeout, not the call timeout', async () => {
    fake.hangModels = true;
    const p = new OpenAiProvider({ baseURL: fake.url, model: 'fake-model', timeoutMs: 600_000 });
    const settled = p.preflight().then(
      () => 'answered',
      (err: LlmError) => err.kind,
    );
    // Jest's 30 s limit would fail this test if the 600 s call timeout applied.
    await expect(settled).resolves.toBe('timeout');
  }, 30_000);

  it('an LLM activity heartbeats while a slow endpoint has not answered yet', async () => {
    fake.delayMs = 1500;
    const activities = createActivities({ dataDir: tempDataDir(), llm: () => provider(5000) });
    const env = new MockActivityEnvironment({ heartbeatTimeoutMs: 600 });
    let beats = 0;
    env.on('heartbeat', () => beats++);
    const request = { observation: 'You are in a hall.', lastAction: null, validActions: ['stand up', 'look'], context: [], seed: 1 };
    const answer = (await env.run(activities.analyseTurn, request)) as Awaited<ReturnType<typeof activities.analyseTurn>>;
    expect(answer.usage.calls).toBe(1);
    // Every 200 ms (a third of the heartbeat timeout) for 1.5 s, though the endpoint said nothing.
    expect(beats).toBeGreaterThanOrEqual(4);
  });
});

describe('a full episode through the openai provider with injected faults', () => {
  let env: TestWorkflowEnvironment;
  beforeAll(async () => {
    env = await createEnv();
  }, 120_000);
  afterAll(async () => {
    await env?.teardown();
  });

  it('retries 429/500/timeouts/malformed answers, and falls back for a turn when the endpoint stays down', async () => {
    const dataDir = tempDataDir();
    const taskQueue = uniqueQueue('openai');
    const worker = await Worker.create({
      connection: env.nativeConnection,
      taskQueue,
      workflowBundle: await workflowBundle(),
      activities: createActivities({
        dataDir,
        llm: () => new OpenAiProvider({ baseURL: fake.url, apiKey: 'sk-test', model: 'fake-model', timeoutMs: 1500 }),
      }),
    });
    // Without an assist the model's advice is typed as a player types it, but its sample answer
    // ("the fake model says so") is a sentence, not a command, so the explorer moves: a turn after
    // a move that changed nothing asks the failure analysis after the turn query. Turn 1: 429, 500,
    // timeout, then an answer; the explorer tries to take the chest the shore lists (fixed in
    // place: nothing changed). Turn 2: malformed then its repair answers (in the same attempt), and
    // the failure analysis answers; the explorer opens the chest. Turn 3: four 500s in a row (the
    // activity's whole retry budget): the turn falls back (and asks nothing more) to the explorer,
    // whose "north" changes nothing, so turn 4 asks the failure analysis too.
    fake.faults = ['429', '500', 'timeout', 'ok', 'malformed', 'ok', 'ok', '500', '500', '500', '500'];
    const result = await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(episodeWorkflow, {
        taskQueue,
        workflowId: `openai-episode-${Date.now()}`,
        // Compaction off: this test counts the oracle's requests and retries.
        // The oracle's faults are counted call by call: no compaction or thoughtbox calls in between,
        // and no turn decided without the oracle (with the probe, one novel move alone is just played).
        args: [
          episodeInput({
            game: 'lighthouse',
            seed: 1,
            maxTurns: 4,
            policy: 'full',
            compactEvery: 0,
            thoughtbox: 'off',
            knowledgeEvery: 0,
            assist: 'none',
          }),
        ],
      });
      const r = await handle.result();
      const history = await handle.fetchHistory();
      // History keeps only the last attempt of an activity: its attempt number counts the retries.
      const retries = history.events!.reduce((n, e) => n + Math.max(0, (e.activityTaskStartedEventAttributes?.attempt ?? 1) - 1), 0);
      return { r, retries, turns: readTranscript(dataDir, handle.workflowId) };
    });
    expect(result.r.turns).toBe(4);
    expect(result.r.llm).toMatchObject({ fallbackTurns: 1 });
    expect(result.turns.map((t) => t.fallback)).toEqual([false, false, true, false]);
    // The failure is named by its kind in the turn's record and counted in the result.
    expect(result.turns.map((t) => t.llmFailures ?? [])).toEqual([[], [], [{ call: 'oracle', kind: 'unreachable' }], []]);
    expect(result.r.llm).toMatchObject({ answered: { oracle: 3, 'failure analysis': 2 }, failed: { unreachable: 1 } });
    expect(result.turns.map((t) => t.command)).toEqual(['take chest', 'open chest', 'north', 'examine chest']);
    expect(result.turns.map((t) => t.reason)).not.toContain('recommended');
    // 3 retries in turn 1, none in turn 2 (the repair is part of the attempt), 3 in turn 3 (whose 4th attempt failed too).
    expect(result.retries).toBe(6);
    // 4 + 3 + 4 + 2 (turn 4: the turn query and the failure analysis, answered).
    expect(fake.requests.filter((r) => r.path.endsWith('/chat/completions'))).toHaveLength(13);
    // Successful LLM calls were counted: 1 + 2 + 0 + 2; with their tokens, the repair's too (6 answered requests of 100).
    expect(result.r.llm!.calls).toBe(5);
    expect(result.r.llm!.promptTokens).toBe(600);
  });
});

describe('API keys stay on the worker', () => {
  it.each([['500-echo-auth'], ['401-echo-auth']] as const)(
    'an endpoint that echoes the key (%s) fails the activity without it',
    async (fault) => {
      const key = 'sk-canary-0123456789abcdef';
      const previous = process.env.GRUE_LLM_API_KEY;
      process.env.GRUE_LLM_API_KEY = key;
      try {
        fake.faults = [fault];
        const activities = createActivities({
          dataDir: tempDataDir(),
          llm: () => new OpenAiProvider({ baseURL: fake.url, apiKey: key, model: 'fake-model', timeoutMs: 2000 }),
        });
        const request = { observation: 'You are in a hall.', lastAction: null, validActions: ['stand up', 'look'], context: [], seed: 1 };
        const err = await new MockActivityEnvironment().run(activities.analyseTurn, request).then(
          () => null,
          (e: Error) => e,
        );
        expect(err).toBeInstanceOf(Error);
        expect(fake.requests.at(-1)?.fault).toBe(fault); // the endpoint did see (and echo) the key
        const everything = JSON.stringify({
          message: err!.message,
          stack: err!.stack,
          cause: String((err as Error & { cause?: unknown }).cause ?? ''),
        });
        expect(everything).not.toContain('canary-0123456789abcdef');
        expect(err!.message).toMatch(/\[redacted\]/);
      } finally {
        if (previous === undefined) delete process.env.GRUE_LLM_API_KEY;
        else process.env.GRUE_LLM_API_KEY = previous;
      }
    },
  );

  it('scrubs the configured keys and anything shaped like a key', () => {
    const env = { OPENAI_API_KEY: 'plain-secret-value' };
    expect(scrubSecrets('got plain-secret-value and Bearer abc.def and sk-proj-1234567890 back', env)).toBe(
      'got [redacted] and Bearer [redacted] and [redacted] back',
    );
    expect(scrubSecrets('nothing secret here', env)).toBe('nothing secret here');
  });
});

describe('LLM configuration', () => {
  it('refuses a per-call timeout the LLM activities could never wait for', () => {
    expect(loadLlmConfig({ GRUE_LLM_TIMEOUT_MS: '270000' }).GRUE_LLM_TIMEOUT_MS).toBe(270_000);
    expect(() => loadLlmConfig({ GRUE_LLM_TIMEOUT_MS: '600000' })).toThrow(
      /GRUE_LLM_TIMEOUT_MS.*at most 270000: the LLM activities time out after 5 minutes/,
    );
  });
});
