/**
 * A campaign runs episodes one after another as child workflows and carries what was learned
 * from each into the next. The summary goes to results.json through an idempotent activity.
 */
import { ApplicationFailure, continueAsNew, defineQuery, executeChild, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { describeZodError } from '../schemas/describe';
import { CampaignInput, CampaignInputSchema, CampaignProgress, CampaignResult, LearnedState, LearnedStateSchema } from '../schemas/episode';
import { episodeWorkflow } from './episode';
import { accuracy } from '../agent/reliability';

const files = proxyActivities<Pick<Activities, 'writeResults'>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 20 },
});

export const progressQuery = defineQuery<CampaignProgress>('progress');

type EpisodeSummary = CampaignResult['episodes'][number];

export interface CampaignCarry {
  done: EpisodeSummary[];
  learned: LearnedState;
}

export function episodeWorkflowId(campaignId: string, index: number): string {
  return `${campaignId}-episode-${String(index + 1).padStart(3, '0')}`;
}

export async function campaignWorkflow(rawInput: CampaignInput, carried?: CampaignCarry): Promise<CampaignResult> {
  const parsed = CampaignInputSchema.safeParse(rawInput);
  if (!parsed.success) {
    const detail = describeZodError(parsed.error);
    throw ApplicationFailure.nonRetryable(`Invalid campaign input: ${detail}`, 'InvalidInput');
  }
  const input = parsed.data;
  const campaignId = workflowInfo().workflowId;
  const done: EpisodeSummary[] = [...(carried?.done ?? [])];
  let learned: LearnedState = carried?.learned ?? LearnedStateSchema.parse({});
  let current: string | null = null;

  setHandler(progressQuery, () => ({ completed: done.length, total: input.episodes, currentEpisode: current, scores: done.map((e) => e.score) }));

  while (done.length < input.episodes) {
    const index = done.length;
    const seed = input.seed + index;
    current = episodeWorkflowId(campaignId, index);
    const result = await executeChild(episodeWorkflow, {
      workflowId: current,
      args: [{ game: input.game, seed, maxTurns: input.maxTurns, policy: input.policy, continueAsNewEvery: input.continueAsNewEvery, learned }],
    });
    learned = result.learned;
    done.push({
      workflowId: current,
      seed,
      score: result.score,
      turns: result.turns,
      victory: result.victory,
      died: result.died,
      ...(result.llm
        ? { llmCalls: result.llm.calls, tokens: result.llm.promptTokens + result.llm.completionTokens, fallbackTurns: result.llm.fallbackTurns }
        : {}),
    });
    current = null;
    if (done.length < input.episodes && workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof campaignWorkflow>(rawInput, { done, learned });
    }
  }

  const scores = done.map((e) => e.score);
  const summary = {
    campaignId,
    game: input.game,
    episodes: done,
    meanScore: scores.reduce((a, b) => a + b, 0) / scores.length,
    maxScore: Math.max(...scores),
    ...(input.policy === 'full'
      ? { recommendationAccuracy: accuracy(learned.reliability, 'recommendation'), learnedGoal: learned.overallGoal }
      : {}),
    learned,
  };
  const resultsPath = await files.writeResults({ campaignId, results: summary });
  return { ...summary, resultsPath };
}
