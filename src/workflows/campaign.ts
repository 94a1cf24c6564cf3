/**
 * A campaign runs episodes one after another as child workflows and carries what was learned
 * from each into the next. Every episode gets the campaign's complete episode config (its seed is
 * the campaign's seed plus its index). The summary goes to results.json through an idempotent
 * activity.
 */
import { continueAsNew, defineQuery, executeChild, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { accuracy } from '../agent/reliability';
import { CampaignConfig, CampaignConfigSchema, CampaignProgress, CampaignResult, episodeConfigOf, freshLearned, LearnedState } from '../schemas/episode';
import { episodeWorkflow } from './episode';
import { validatedInput } from './input';

const files = proxyActivities<Pick<Activities, 'writeResults'>>({
  startToCloseTimeout: '1 minute',
  // A write takes milliseconds: a worker that died during it is noticed in 10 s, not a minute.
  heartbeatTimeout: '10 seconds',
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

export async function campaignWorkflow(input: CampaignConfig, carried?: CampaignCarry): Promise<CampaignResult> {
  const config = validatedInput(CampaignConfigSchema, input, 'campaign input');
  const campaignId = workflowInfo().workflowId;
  const done: EpisodeSummary[] = [...(carried?.done ?? [])];
  let learned: LearnedState = carried?.learned ?? freshLearned();
  let current: string | null = null;

  setHandler(progressQuery, () => ({ completed: done.length, total: config.episodes, currentEpisode: current, scores: done.map((e) => e.score) }));

  while (done.length < config.episodes) {
    const index = done.length;
    current = episodeWorkflowId(campaignId, index);
    const episode = episodeConfigOf(config, index);
    const result = await executeChild(episodeWorkflow, { workflowId: current, args: [{ config: episode, learned }] });
    learned = result.learned;
    done.push({
      workflowId: current,
      seed: episode.seed,
      score: result.score,
      turns: result.turns,
      victory: result.victory,
      died: result.died,
      ...(result.llm ? { llmCalls: result.llm.calls, tokens: result.llm.promptTokens + result.llm.completionTokens, fallbackTurns: result.llm.fallbackTurns } : {}),
    });
    current = null;
    if (done.length < config.episodes && workflowInfo().continueAsNewSuggested) {
      await continueAsNew<typeof campaignWorkflow>(input, { done, learned });
    }
  }

  const scores = done.map((e) => e.score);
  const summary = {
    campaignId,
    game: config.game,
    episodes: done,
    meanScore: scores.reduce((a, b) => a + b, 0) / scores.length,
    maxScore: Math.max(...scores),
    ...(config.policy === 'full' ? { recommendationAccuracy: accuracy(learned.reliability, 'recommendation'), learnedGoal: learned.overallGoal } : {}),
    learned,
    config,
  };
  const resultsPath = await files.writeResults({ campaignId, results: summary });
  return { ...summary, resultsPath };
}

