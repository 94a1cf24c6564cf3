/**
 * A campaign runs episodes as child workflows, one after another or `parallel` at once, and
 * carries what was learned from each into the next. Every episode gets the campaign's complete episode config (its seed is
 * the campaign's seed plus its index). The summary goes to results.json through an idempotent
 * activity.
 */
import {
  condition,
  continueAsNew,
  defineQuery,
  executeChild,
  patched,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
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

const files = proxyActivities<Pick<Activities, 'writeResults' | 'readCampaignCheckpoint' | 'writeCampaignCheckpoint'>>({
  startToCloseTimeout: '1 minute',
  // A write takes milliseconds: a worker that died during it is noticed in 10 s, not a minute.
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 20 },
});

/**
 * Campaigns started before it keep their state in the server's history alone; from it on, a campaign
 * writes a checkpoint after each episode and, started afresh under the same id, goes on from it.
 */
export const CHECKPOINT_PATCH = 'campaign-checkpoints-finished-episodes';

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
  const checkpoints = patched(CHECKPOINT_PATCH);
  const done: EpisodeSummary[] = [...(carried?.done ?? [])];
  let learned: LearnedState = carried?.learned ?? freshLearned();
  // Workflow ids of the episodes in flight.
  const running = new Set<string>();
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

  // A first run reads back what an earlier campaign of this id wrote down, when its history is gone.
  const earlier = carried === undefined && checkpoints ? await files.readCampaignCheckpoint({ campaignId, config }) : null;
  if (earlier !== null) {
    done.push(...earlier.done);
    learned = earlier.learned;
  }
  let launched = done.length;

  // Checkpoints are written in the order the episodes ended, each a snapshot taken as its episode ended.
  let checkpointed: Promise<void> = Promise.resolve();
  const writeCheckpoint = () => {
    // Parallel episodes end out of order: a checkpoint holds episodes 1..n only, the ones a restart can skip.
    const finished = new Set(done.map((e) => e.workflowId));
    if (!checkpoints || !done.every((_, i) => finished.has(episodeWorkflowId(campaignId, i)))) return;
    const checkpoint = { campaignId, config, done: [...done], learned };
    checkpointed = checkpointed
      .then(async () => void (await files.writeCampaignCheckpoint(checkpoint)))
      .catch((err: unknown) => void (failure ??= err));
  };

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
      ...(result.storyFault ? { storyFault: result.storyFault } : {}),
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
    writeCheckpoint();
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
      await checkpointed;
      if (failure !== null) throw failure;
      await continueAsNew<typeof campaignWorkflow>(input, { done, learned });
    }
  }
  await checkpointed;
  if (failure !== null) throw failure;
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
