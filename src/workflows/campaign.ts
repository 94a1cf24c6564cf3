/**
 * A campaign runs episodes as child workflows, one after another or `parallel` at once, and
 * carries what was learned from each into the next. Every episode gets the campaign's complete episode config (its seed is
 * the campaign's seed plus its index). The summary goes to results.json through an idempotent
 * activity.
 */
import { condition, continueAsNew, defineQuery, executeChild, proxyActivities, setHandler, workflowInfo } from '@temporalio/workflow';
import type { Activities } from '../activities';
import { mergeLearned } from '../agent/learnedMerge';
import { accuracy } from '../agent/reliability';
import { CampaignConfig, CampaignConfigSchema, episodeConfigOf } from '../schemas/episode';
import { CampaignProgress } from './contract';
import { CampaignResult } from '../agent/records';
import { freshLearned, LearnedState } from '../agent/learned';
import { episodeWorkflow } from './episode';
import { validatedInput } from './input';
import { totalOf } from '../schemas/llmFailure';

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
  const parallel = config.parallel ?? 1;
  const done: EpisodeSummary[] = [...(carried?.done ?? [])];
  let learned: LearnedState = carried?.learned ?? freshLearned();
  // Workflow ids of the episodes in flight.
  const running = new Set<string>();
  let launched = done.length;
  let failure: unknown = null;

  setHandler(progressQuery, () => {
    const inFlight = [...running].sort();
    return {
      completed: done.length,
      total: config.episodes,
      currentEpisode: inFlight[0] ?? null,
      running: inFlight,
      scores: done.map((e) => e.score),
    };
  });

  const playEpisode = async (index: number): Promise<void> => {
    const workflowId = episodeWorkflowId(campaignId, index);
    const episode = episodeConfigOf(config, index);
    const startedWith = learned;
    running.add(workflowId);
    const result = await executeChild(episodeWorkflow, { workflowId, args: [{ config: episode, learned: startedWith }] });
    // One at a time, an episode starts from everything learned before it, so its state replaces the campaign's.
    learned = parallel === 1 ? result.learned : mergeLearned(learned, startedWith, result.learned);
    done.push({
      workflowId,
      seed: episode.seed,
      score: result.score,
      ...(result.peakScore !== undefined ? { peakScore: result.peakScore } : {}),
      turns: result.turns,
      victory: result.victory,
      died: result.died,
      ...(result.llm
        ? {
            llmCalls: result.llm.calls,
            tokens: result.llm.promptTokens + result.llm.completionTokens,
            fallbackTurns: result.llm.fallbackTurns,
            ...(result.llm.model ? { model: result.llm.model } : {}),
            llmAnswered: totalOf(result.llm.answered),
            llmFailed: totalOf(result.llm.failed),
          }
        : {}),
    });
    running.delete(workflowId);
  };

  while (done.length < config.episodes) {
    while (running.size < parallel && launched < config.episodes) {
      // A failed episode fails the campaign, as it does when episodes run one at a time.
      playEpisode(launched++).catch((err: unknown) => (failure ??= err));
    }
    const finishedBefore = done.length;
    await condition(() => done.length > finishedBefore || failure !== null);
    if (failure !== null) throw failure;
    if (launched < config.episodes && workflowInfo().continueAsNewSuggested) {
      // Drained first (nothing starts while this waits): no child outlives its parent's run, and the next run starts at done.length.
      await condition(() => running.size === 0 || failure !== null);
      if (failure !== null) throw failure;
      await continueAsNew<typeof campaignWorkflow>(input, { done, learned });
    }
  }
  // Parallel episodes finish in any order; the summary lists them in episode order.
  done.sort((a, b) => a.seed - b.seed);

  const scores = done.map((e) => e.score);
  const summary = {
    campaignId,
    game: config.game,
    episodes: done,
    meanScore: scores.reduce((a, b) => a + b, 0) / scores.length,
    maxScore: Math.max(...scores),
    ...(config.policy === 'full'
      ? { recommendationAccuracy: accuracy(learned.reliability, 'recommendation'), learnedGoal: learned.overallGoal }
      : {}),
    learned,
    config,
  };
  const resultsPath = await files.writeResults({ campaignId, results: summary });
  return { ...summary, resultsPath };
}
