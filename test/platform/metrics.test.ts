/**
 * `grue worker --metrics-port` serves Prometheus metrics on loopback: the SDK's own and grue's
 * counters, which move while an episode plays and end equal to what its history shows. The
 * episode is the full agent against the fake OpenAI endpoint, so the LLM counters move too; its
 * first LLM call fails once (500, retried) and then for good (401), which is a fallback. The LLM
 * boundary's own checks run it in a mock activity context against the same server: the game of
 * an episode whose turns this worker never saw comes from its GrueGame search attribute.
 */
import type { Client } from '@temporalio/client';
import type { MetricCounter, MetricMeter, MetricTags } from '@temporalio/common';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import { createServer } from 'node:net';
import { DEFAULT_METRICS_PORT } from '../../src/temporal/runtime';
import { classifiedLlmCall } from '../../src/activities/llmBoundary';
import { LlmError } from '../../src/llm/errors';
import type { LlmProvider } from '../../src/llm/types';
import { GAME_KEY } from '../../src/schemas/searchAttributes';
import { episodeWorkflow } from '../../src/workflows';
import { episodeInput } from '../helpers';
import type { FakeOpenAi } from '../llm/fakeOpenAi';
import { activitiesByType, fakeLlmLab, FakeLlmLab, GrueWorkerProcess, Sample, scrape, spawnGrueWorker, total } from './grueWorker';
import { waitFor } from './scripted';
import { freePort } from './server';

jest.setTimeout(6 * 60_000);

const LLM_ACTIVITIES = ['analyseTurn', 'analyseFailure', 'think', 'compact', 'updateKnowledge', 'synthesizeWisdom'];
const MODEL = 'openai:metrics-model';
/** The SDK's log line once the worker polls its task queue. */
const WORKER_RUNNING = /Worker state changed \{[^}]*RUNNING/;

/** Listen on a loopback port, as another worker's metrics endpoint would. */
function holdPort(port: number): Promise<{ port: number; close(): void }> {
  const holder = createServer();
  return new Promise((resolve, reject) => {
    holder.once('error', reject);
    holder.listen(port, '127.0.0.1', () => resolve({ port, close: () => holder.close() }));
  });
}

describe('grue worker --metrics-port', () => {
  let lab: FakeLlmLab;
  let client: Client;
  let fake: FakeOpenAi;
  let worker: GrueWorkerProcess;
  let metricsUrl: string;
  let env: Record<string, string>;

  beforeAll(async () => {
    lab = await fakeLlmLab({ queue: 'metrics', model: 'metrics-model', apiKey: 'sk-metrics-test' });
    ({ client, fake, env } = lab);
    const port = await freePort();
    worker = spawnGrueWorker(['--metrics-port', String(port)], env);
    metricsUrl = (await worker.waitForLog(/metrics: (http:\/\/\S+)/))[1];
    expect(metricsUrl).toBe(`http://127.0.0.1:${port}/metrics`);
    await worker.waitForLog(WORKER_RUNNING);
  }, 180_000);

  afterAll(async () => {
    await worker?.stop();
    await lab?.close();
  });

  it("serves the SDK's metrics at the address it logs", async () => {
    // The SDK's worker metrics appear once its pollers have run.
    const samples = await waitFor('the SDK metrics', async () => {
      const found = await scrape(metricsUrl);
      return found.some((sample) => sample.name.startsWith('temporal_')) ? found : null;
    });
    expect(samples.filter((sample) => sample.name.startsWith('temporal_')).length).toBeGreaterThan(0);
  });

  it("grue's counters move during an episode and end equal to its history", async () => {
    fake.faults = ['500', '401'];
    fake.delayMs = 150; // turns take long enough to be seen mid-episode
    const workflowId = `metrics-${Date.now()}`;
    const input = episodeInput({
      game: 'lighthouse',
      policy: 'full',
      seed: 1,
      maxTurns: 12,
      compactEvery: 3,
      knowledgeEvery: 3,
      thoughtbox: 'always',
      maxThinkingIterations: 2,
      stopOnDeath: false,
    });
    const handle = await client.workflow.start(episodeWorkflow, { taskQueue: env.GRUE_TASK_QUEUE, workflowId, args: [input] });

    const during = await waitFor('grue_turns_total to count two turns', async () => {
      const samples = await scrape(metricsUrl);
      return total(samples, 'grue_turns_total', { game: 'lighthouse' }) >= 2 ? samples : null;
    });
    expect((await handle.describe()).status.name).toBe('RUNNING');
    expect(total(during, 'grue_llm_calls_total', { game: 'lighthouse', model: MODEL })).toBeGreaterThan(0);

    const result = await handle.result();
    const { completed } = await activitiesByType(client, workflowId);
    const after: Sample[] = await scrape(metricsUrl);
    const tags = { game: 'lighthouse', model: MODEL };
    const answered = LLM_ACTIVITIES.reduce((sum, type) => sum + (completed[type] ?? 0), 0);

    expect(completed.stepGame).toBe(result.turns);
    expect(total(after, 'grue_turns_total', { game: 'lighthouse' })).toBe(completed.stepGame);
    expect(total(after, 'grue_turns_total', { game: 'lighthouse', activityType: 'stepGame' })).toBe(completed.stepGame);
    expect(total(after, 'grue_llm_calls_total', { ...tags, outcome: 'ok' })).toBe(answered);
    expect(total(after, 'grue_llm_calls_total', { ...tags, outcome: 'error' })).toBe(1);
    expect(total(after, 'grue_llm_calls_total', { ...tags, outcome: 'fallback', activityType: 'analyseTurn' })).toBe(1);
    expect(total(after, 'grue_llm_fallbacks_total', tags)).toBe(1);
    expect(result.llm?.fallbackTurns).toBe(1);
    // The fake endpoint reports 100 prompt and 20 completion tokens for every answer.
    expect(total(after, 'grue_llm_prompt_tokens_total', tags)).toBe(100 * answered);
    expect(total(after, 'grue_llm_completion_tokens_total', tags)).toBe(20 * answered);
    expect(completed.compact).toBeGreaterThan(0);
    expect(total(after, 'grue_compactions_total', tags)).toBe(completed.compact);
    expect(completed.think).toBeGreaterThan(0);
    expect(total(after, 'grue_thoughts_total', tags)).toBe(completed.think);
    expect(completed.updateKnowledge).toBeGreaterThan(0);
    expect(total(after, 'grue_knowledge_updates_total', tags)).toBe(completed.updateKnowledge);
    // Every counter is named once: no `_total_total` from the exporter.
    expect(after.some((sample) => sample.name.endsWith('_total_total'))).toBe(false);
  });

  it('a port someone chose that is taken is an error (exit 2) naming the way out', async () => {
    const holder = await holdPort(await freePort());
    try {
      const chosen = spawnGrueWorker(['--metrics-port', String(holder.port)], env);
      expect(await chosen.exited).toBe(2);
      expect(chosen.log()).toMatch(
        new RegExp(`^grue: cannot serve metrics on 127\\.0\\.0\\.1:${holder.port}: .*Address already in use.*--metrics-port`, 'm'),
      );
    } finally {
      holder.close();
    }
  });

  it('with the default port taken (another worker), a worker warns and serves episodes without metrics', async () => {
    // Taken by this test, or already by something else on the machine: either way it is taken.
    const holder = await holdPort(DEFAULT_METRICS_PORT).catch(() => null);
    try {
      const second = spawnGrueWorker([], { ...env, GRUE_METRICS_ADDRESS: undefined });
      await second.waitForLog(new RegExp(`grue: metrics are off: 127\\.0\\.0\\.1:${DEFAULT_METRICS_PORT} is taken .*--metrics-port`));
      await second.waitForLog(WORKER_RUNNING);
      const workflowId = `metrics-default-${Date.now()}`;
      const result = await client.workflow.execute(episodeWorkflow, {
        taskQueue: env.GRUE_TASK_QUEUE,
        workflowId,
        args: [episodeInput({ game: 'lighthouse', policy: 'oracle-free', maxTurns: 3 })],
      });
      expect(result.turns).toBe(3);
      expect(await second.stop()).toBe(0);
    } finally {
      holder?.close();
    }
  });

  describe('the LLM boundary on a worker that has not seen the episode', () => {
    /** A metric meter that keeps what is counted. */
    function recordingMeter(): { meter: MetricMeter; counted: Array<{ name: string; value: number; tags: MetricTags }> } {
      const counted: Array<{ name: string; value: number; tags: MetricTags }> = [];
      const meter = {
        createCounter: (name: string) =>
          ({
            name,
            kind: 'counter',
            valueType: 'int',
            add: (value: number, tags: MetricTags = {}) => counted.push({ name, value, tags }),
          }) as unknown as MetricCounter,
        withTags: () => meter,
      } as unknown as MetricMeter;
      return { meter, counted };
    }
    const provider = { name: 'openai', model: 'lookup-model' } as LlmProvider;
    const quiet = new DefaultLogger('ERROR'); // the failures are on purpose
    const grueTags = ({ namespace: _namespace, taskQueue: _taskQueue, activityType: _activityType, ...tags }: MetricTags) => tags;
    const retryable = () => Promise.reject(new LlmError('server', 'the endpoint answered 500', 500));

    it("tags a call with the episode's game from its GrueGame search attribute, and tells a retried failure from a fallback", async () => {
      // An episode nobody serves: its game is known only to the server.
      const workflowId = `metrics-lookup-${Date.now()}`;
      const handle = await client.workflow.start(episodeWorkflow, {
        taskQueue: 'metrics-nobody',
        workflowId,
        args: [episodeInput({ game: 'lighthouse', maxTurns: 1 })],
        typedSearchAttributes: [{ key: GAME_KEY, value: 'lighthouse' }],
      });
      try {
        const info = (attempt: number) => ({
          workflowExecution: { workflowId, runId: handle.firstExecutionRunId },
          attempt,
          retryPolicy: { maximumAttempts: 4 },
        });
        const { meter, counted } = recordingMeter();
        await new MockActivityEnvironment(info(1), { client, metricMeter: meter, logger: quiet }).run(() =>
          classifiedLlmCall(provider, async () => ({ usage: { promptTokens: 7, completionTokens: 3 } })),
        );
        await expect(
          new MockActivityEnvironment(info(2), { client, metricMeter: meter, logger: quiet }).run(() =>
            classifiedLlmCall(provider, retryable),
          ),
        ).rejects.toThrow(/500/);
        await expect(
          new MockActivityEnvironment(info(4), { client, metricMeter: meter, logger: quiet }).run(() =>
            classifiedLlmCall(provider, retryable),
          ),
        ).rejects.toThrow(/500/);
        const tags = { game: 'lighthouse', model: 'openai:lookup-model' };
        // Beside the SDK's own tags (namespace, taskQueue, activityType).
        expect(counted.map((entry) => ({ ...entry, tags: grueTags(entry.tags) }))).toEqual([
          { name: 'grue_llm_calls_total', value: 1, tags: { ...tags, outcome: 'ok' } },
          { name: 'grue_llm_prompt_tokens_total', value: 7, tags },
          { name: 'grue_llm_completion_tokens_total', value: 3, tags },
          // A failed call is tagged with its kind: a 500 the provider retries counts as the server unreachable.
          { name: 'grue_llm_calls_total', value: 1, tags: { ...tags, outcome: 'error', failure: 'unreachable' } },
          { name: 'grue_llm_calls_total', value: 1, tags: { ...tags, outcome: 'fallback', failure: 'unreachable' } },
          { name: 'grue_llm_fallbacks_total', value: 1, tags },
        ]);
      } finally {
        await handle.terminate('metrics test: lookup checked');
      }
    });

    it("tags a call of a workflow the server does not know with game 'unknown', and the call still succeeds", async () => {
      const { meter, counted } = recordingMeter();
      const answer: { value: string } = await new MockActivityEnvironment(
        { workflowExecution: { workflowId: `no-such-workflow-${Date.now()}`, runId: 'none' } },
        { client, metricMeter: meter, logger: quiet },
      ).run(() => classifiedLlmCall(provider, async () => ({ usage: { promptTokens: 1, completionTokens: 1 }, value: 'fine' })));
      expect(answer.value).toBe('fine');
      expect({ ...counted[0], tags: grueTags(counted[0].tags) }).toEqual({
        name: 'grue_llm_calls_total',
        value: 1,
        tags: { game: 'unknown', model: 'openai:lookup-model', outcome: 'ok' },
      });
    });
  });
});
