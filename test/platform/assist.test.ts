/**
 * Assist levels and the episode's model inside real episodes on a real dev server, with the
 * scripted LLM (control flow only: what reaches the model, what is played, what is recorded).
 */
import { NativeConnection } from '@temporalio/worker';
import { readTranscript } from '../../src/activities/files';
import { freshLearned, LearnedState } from '../../src/agent/learned';
import { createGrueWorker } from '../../src/worker';
import { episodeWorkflow } from '../../src/workflows/episode';
import { episodeInput } from '../helpers';
import { ScriptedProvider } from '../llm/scriptedProvider';
import { quietRuntime, tempDataDir, uniqueQueue, workflowBundle } from './env';
import { ownServerForTests } from './scripted';

jest.setTimeout(10 * 60_000);

const dev = ownServerForTests();

const WALKTHROUGH = [
  'open chest',
  'take key',
  'take lamp',
  'turn on lamp',
  'unlock door with key',
  'open door',
  'north',
  'take coin',
  'up',
  'give coin to keeper',
  'put lens in housing',
];

/** An agent that has learned to trust its oracle's recommendations. */
const trusting = (): LearnedState => {
  const learned = freshLearned();
  return { ...learned, reliability: { ...learned.reliability, recommendation: { tried: 400, helped: 400 } } };
};

/** Runs one episode with a worker whose provider factory records the models it is asked for. */
async function play(options: Parameters<typeof episodeInput>[0], provider: ScriptedProvider, learned?: LearnedState) {
  quietRuntime();
  const dataDir = tempDataDir();
  const taskQueue = uniqueQueue('assist');
  const workflowId = `assist-${options.assist}-${Date.now()}`;
  const models: Array<string | null> = [];
  const connection = await NativeConnection.connect({ address: dev.address });
  const worker = await createGrueWorker({
    connection,
    namespace: 'default',
    taskQueue,
    dataDir,
    workflowBundle: await workflowBundle(),
    llm: (model) => {
      models.push(model);
      return provider;
    },
  });
  try {
    const result = await worker.runUntil(
      dev.client.workflow.execute(episodeWorkflow, { taskQueue, workflowId, args: [episodeInput(options, learned)] }),
    );
    return { result, models, turns: readTranscript(dataDir, workflowId) };
  } finally {
    await connection.close();
  }
}

const QUIET = { game: 'lighthouse', seed: 2, policy: 'full', compactEvery: 0, knowledgeEvery: 0, thoughtbox: 'off' } as const;

describe('assist levels in an episode', () => {
  it('none: no list reaches the model, the commands it writes are played as typed, and they win', async () => {
    const provider = new ScriptedProvider({ typed: WALKTHROUGH });
    const { result, turns } = await play({ ...QUIET, assist: 'none', maxTurns: 20 }, provider, trusting());
    expect(provider.turnRequests.length).toBeGreaterThanOrEqual(WALKTHROUGH.length);
    for (const request of provider.turnRequests) expect(request.messages.map((m) => m.content).join('\n')).not.toContain('VALID ACTIONS');
    expect(turns.map((t) => t.command)).toEqual(WALKTHROUGH);
    expect(turns.every((t) => t.validActions === 0 && t.reason === 'recommended')).toBe(true);
    expect(result).toMatchObject({ victory: true, score: 20, assist: 'none' });
  });

  it('valid: the model chooses from the list, and nothing decides from the probe (no move is taken for its reward or win)', async () => {
    const provider = new ScriptedProvider();
    const { result, turns } = await play({ ...QUIET, assist: 'valid', maxTurns: 8 }, provider);
    expect(result.assist).toBe('valid');
    expect(turns.some((t) => t.validActions > 0)).toBe(true);
    expect(turns.map((t) => t.reason)).not.toContain('reward');
    expect(turns.map((t) => t.reason)).not.toContain('won');
    const listed = provider.turnRequests.map((r) => r.messages.map((m) => m.content).join('\n'));
    expect(listed.filter((text) => !text.includes('VALID ACTIONS'))).toEqual([]);
  });

  it('probe: moves are chosen by novelty and the probes, each with its reason, and the oracle is asked only where there is a choice', async () => {
    const provider = new ScriptedProvider();
    const { result, turns } = await play({ ...QUIET, assist: 'probe', maxTurns: 30 }, provider);
    expect(result).toMatchObject({ victory: true, assist: 'probe' });
    expect(turns.every((t) => typeof t.why === 'string' && t.why.length > 0)).toBe(true);
    expect(turns.filter((t) => t.llmCalls === 0).length).toBeGreaterThan(0);
    expect(provider.turnRequests.length).toBe(turns.filter((t) => (t.llmCalls ?? 0) > 0).length);
  });

  it("uses the episode's model for every LLM activity, and the worker's own when the episode names none", async () => {
    const named = await play({ ...QUIET, assist: 'valid', maxTurns: 3, model: 'scripted-big' }, new ScriptedProvider());
    expect(named.models).toEqual(['scripted-big']);
    expect(named.result.llm?.model).toBe('scripted:scripted');
    const unnamed = await play({ ...QUIET, assist: 'valid', maxTurns: 3 }, new ScriptedProvider());
    expect(unnamed.models).toEqual([null]);
  });
});
