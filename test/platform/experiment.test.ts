/**
 * An experiment end to end on a real dev server, with the scripted LLM (the test is about the
 * experiment's control flow and the report, not about a model): one campaign child per arm, in
 * turn, the same seeds in every arm, each arm's config reaching its episodes, the progress query,
 * results.json, per-turn timings in the transcripts, and a report built from what it wrote.
 */
import { WorkflowFailedError } from '@temporalio/client';
import { ApplicationFailure } from '@temporalio/common';
import { existsSync, readFileSync } from 'node:fs';
import { readExperimentResults, readTranscript } from '../../src/activities/files';
import { designArms } from '../../src/experiment/arms';
import { buildReport } from '../../src/report/build';
import { bestScores, llmCallsPerEpisodeTurn, scorePoints } from '../../src/report/charts';
import { loadReportData } from '../../src/report/load';
import { reportDir, writeReport } from '../../src/report/write';
import { ExperimentResultSchema } from '../../src/experiment/results';
import { experimentProgressQuery, experimentWorkflow } from '../../src/workflows/experiment';
import { ScriptedProvider } from '../llm/scriptedProvider';
import { tempDataDir, uniqueQueue } from './env';
import { ownServerForTests, withScriptedWorker } from './scripted';

jest.setTimeout(10 * 60_000);

const dev = ownServerForTests();

describe('experimentWorkflow', () => {
  it('runs one campaign per arm with the same seeds, writes results.json, and its report is built from the files', async () => {
    const dataDir = tempDataDir();
    const taskQueue = uniqueQueue('experiment');
    const experimentId = `experiment-${Date.now()}`;
    const arms = designArms(
      { game: 'lighthouse', seed: 3, episodes: 1, maxTurns: 3, policy: 'full', compactEvery: 0, knowledgeEvery: 0 },
      { factors: ['thoughtbox'] },
    );
    expect(arms.map((a) => a.name)).toEqual(['baseline', 'thoughtbox=off', 'thoughtbox=always']);

    const { result, progress, parents } = await withScriptedWorker(dev.address, taskQueue, dataDir, new ScriptedProvider(), async () => {
      const handle = await dev.client.workflow.start(experimentWorkflow, {
        taskQueue,
        workflowId: experimentId,
        args: [{ factors: ['thoughtbox'], factorial: false, arms }],
      });
      const result = await handle.result();
      const parents = await Promise.all(
        result.arms.map(async (a) => (await dev.client.workflow.getHandle(a.campaignId).describe()).parentExecution?.workflowId),
      );
      return { result, progress: await handle.query(experimentProgressQuery), parents };
    });

    // One campaign child per arm, named by the arm, each started after the previous one ended.
    expect(result.arms.map((a) => a.campaignId)).toEqual([
      `${experimentId}-arm-01-baseline`,
      `${experimentId}-arm-02-thoughtbox-off`,
      `${experimentId}-arm-03-thoughtbox-always`,
    ]);
    expect(parents).toEqual([experimentId, experimentId, experimentId]);
    const spans = await Promise.all(result.arms.map(async (a) => dev.client.workflow.getHandle(a.campaignId).describe()));
    for (let i = 1; i < spans.length; i++) expect(spans[i].startTime.getTime()).toBeGreaterThanOrEqual(spans[i - 1].closeTime!.getTime());
    expect(progress).toEqual({
      completedArms: 3,
      totalArms: 3,
      currentArm: null,
      currentCampaign: null,
      finished: result.arms.map((a) => ({ name: a.name, scores: a.campaign.episodes.map((e) => e.score) })),
    });

    // The same seeds in every arm; each arm's config (and the campaign's recorded config) is the arm's.
    for (const arm of result.arms) {
      expect(arm.campaign.episodes.map((e) => [e.seed, e.turns])).toEqual([[3, 3]]);
      expect(arm.campaign.config).toEqual(arm.config);
    }
    // The thoughtbox setting reached the episodes: never with off, every turn with always.
    const thought = (i: number) => readTranscript(dataDir, result.arms[i].campaign.episodes[0].workflowId).map((t) => t.usedThoughtbox);
    expect(thought(1)).toEqual([false, false, false]);
    expect(thought(2)).toEqual([true, true, true]);

    // results.json is the workflow's result, zod-valid; every turn has its workflow-time duration.
    expect(readExperimentResults(dataDir, experimentId)).toEqual(result);
    expect(ExperimentResultSchema.parse(JSON.parse(readFileSync(result.resultsPath, 'utf8')))).toEqual(result);
    for (const arm of result.arms) {
      for (const t of readTranscript(dataDir, arm.campaign.episodes[0].workflowId)) expect(t.elapsedMs).toEqual(expect.any(Number));
    }

    // The report: its data points are those of the transcripts and results.
    const data = loadReportData(dataDir, experimentId);
    expect(data.arms.map((a) => a.name)).toEqual(['baseline', 'thoughtbox=off', 'thoughtbox=always']);
    expect(scorePoints(data)).toHaveLength(9);
    expect(bestScores(data).map((b) => b.arm)).toEqual(['baseline', 'thoughtbox=off', 'thoughtbox=always']);
    const calls = llmCallsPerEpisodeTurn(data).map((c) => c.value);
    // Thinking every turn costs more calls than never thinking.
    expect(calls[2]).toBeGreaterThan(calls[1]);
    const report = await buildReport(data);
    const paths = writeReport(reportDir(dataDir, experimentId), report);
    for (const p of paths) expect(existsSync(p)).toBe(true);
    expect(report.summary.map((s) => [s.arm, s.thoughtbox, s.policy, s.assist])).toEqual([
      ['baseline', 'auto', 'full', 'probe'],
      ['thoughtbox=off', 'off', 'full', 'probe'],
      ['thoughtbox=always', 'always', 'full', 'probe'],
    ]);
    expect(report.files['report.html']).toMatch(/Seconds per turn/);
  });

  it('refuses arms that do not play the same seeds, naming the field, before any campaign starts', async () => {
    const taskQueue = uniqueQueue('experiment-invalid');
    const [baseline, off] = designArms(
      { game: 'ferry', seed: 1, episodes: 1, maxTurns: 2, policy: 'oracle-free' },
      { factors: ['thoughtbox'] },
    );
    const err = await withScriptedWorker(dev.address, taskQueue, tempDataDir(), new ScriptedProvider(), async () => {
      const handle = await dev.client.workflow.start(experimentWorkflow, {
        taskQueue,
        workflowId: `experiment-invalid-${Date.now()}`,
        args: [{ factors: ['thoughtbox'], factorial: false, arms: [baseline, { ...off, config: { ...off.config, seed: 2 } }] }],
      });
      const failure = await handle.result().catch((e) => e);
      const history = await handle.fetchHistory();
      expect(history.events!.some((e) => e.startChildWorkflowExecutionInitiatedEventAttributes)).toBe(false);
      return failure;
    });
    expect(err).toBeInstanceOf(WorkflowFailedError);
    const cause = (err as WorkflowFailedError).cause as ApplicationFailure;
    expect(cause.type).toBe('InvalidInput');
    expect(cause.nonRetryable).toBe(true);
    expect(cause.message).toMatch(/arms\.1\.config\.seed: every arm plays the same seed/);
  });
});
