/**
 * An experiment runs one campaign per arm as a child workflow, one arm after another: the arms
 * share a worker's embedded model, and two campaigns at once would make each arm's seconds per
 * turn measure the other. Every arm plays the same seeds. The arms' configs come complete in the
 * input (see src/experiment/arms.ts); the summary goes to results.json through an idempotent activity.
 */
import { continueAsNew, defineQuery, executeChild, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { ExperimentInput, ExperimentInputSchema } from '../schemas/experiment';
import { ArmResult, ExperimentProgress, ExperimentResult } from '../experiment/results';
import { campaignWorkflow } from './campaign';
import { validatedInput } from './input';
import { GAME_KEY } from '../schemas/searchAttributes';

const files = proxyActivities<Pick<Activities, 'writeExperimentResults'>>({
  startToCloseTimeout: '1 minute',
  // A write takes milliseconds: a worker that died during it is noticed in 10 s, not a minute.
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 20 },
});

/** The same query name as a campaign's, so `grue status` asks either the same way. */
export const experimentProgressQuery = defineQuery<ExperimentProgress>('progress');

/** `<experiment>-arm-02-thoughtbox-off`: findable in the Web UI by the arm's name. */
export function armWorkflowId(experimentId: string, index: number, name: string): string {
  return `${experimentId}-arm-${String(index + 1).padStart(2, '0')}-${name.replace(/[^A-Za-z0-9._-]+/g, '-').slice(0, 80)}`;
}

export async function experimentWorkflow(input: ExperimentInput, carried?: ArmResult[]): Promise<ExperimentResult> {
  const plan = validatedInput(ExperimentInputSchema, input, 'experiment input');
  const experimentId = workflowInfo().workflowId;
  const done: ArmResult[] = [...(carried ?? [])];
  let current: { arm: string; campaign: string } | null = null;

  setHandler(experimentProgressQuery, () => ({
    completedArms: done.length,
    totalArms: plan.arms.length,
    currentArm: current?.arm ?? null,
    currentCampaign: current?.campaign ?? null,
    finished: done.map((a) => ({ name: a.name, scores: a.campaign.episodes.map((e) => e.score) })),
  }));

  while (done.length < plan.arms.length) {
    const index = done.length;
    const arm = plan.arms[index];
    const campaignId = armWorkflowId(experimentId, index, arm.name);
    current = { arm: arm.name, campaign: campaignId };
    const result = await executeChild(campaignWorkflow, {
      workflowId: campaignId,
      args: [arm.config],
      typedSearchAttributes: [{ key: GAME_KEY, value: arm.config.game }],
    });
    const { learned: _learned, ...campaign } = result;
    done.push({ ...arm, campaignId, campaign });
    current = null;
    if (done.length < plan.arms.length && workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof experimentWorkflow>(input, done);
    }
  }

  const summary = {
    experimentId,
    game: plan.arms[0].config.game,
    factors: plan.factors,
    factorial: plan.factorial,
    episodes: plan.arms[0].config.episodes,
    arms: done,
  };
  const resultsPath = await files.writeExperimentResults({ experimentId, results: summary });
  return { ...summary, resultsPath };
}
