/**
 * A suite runs one campaign per game as a child workflow, at most `parallel` at once (spread over
 * every worker on the task queue). A game whose campaign fails is recorded as failed, with its
 * error, and the others play on. Each game's results.json is written when its campaign ends, the
 * suite's when the last one has; both through idempotent activities.
 */
import {
  ChildWorkflowFailure,
  condition,
  defineQuery,
  executeChild,
  patched,
  proxyActivities,
  setHandler,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { failedGameResult, finishedProgress, GameRun, gameResult, suiteSummary } from '../experiment/suiteResults';
import { GAME_KEY } from '../schemas/searchAttributes';
import { SuiteGameProgress, SuiteGameResult, SuiteInput, SuiteInputSchema, SuiteProgress, SuiteResult } from '../schemas/suite';
import { campaignWorkflow } from './campaign';
import { validatedInput } from './input';

const files = proxyActivities<Pick<Activities, 'readEarlierSuiteGameResults' | 'writeSuiteGameResults' | 'writeSuiteResults'>>({
  startToCloseTimeout: '1 minute',
  // A write takes milliseconds: a worker that died during it is noticed in 10 s, not a minute.
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 20 },
});

/** Suites started before it play every game; from it on, a game an earlier run of the suite id finished is not played again. */
export const REUSE_WRITTEN_RESULTS_PATCH = 'suite-reuses-written-game-results';

/** The same query name as a campaign's, so `grue status` asks a suite the same way. */
export const suiteProgressQuery = defineQuery<SuiteProgress>('progress');

/** `<suite id>-zork1`: the game's campaign, findable in the Web UI by the game's name. */
export function gameCampaignId(suiteId: string, game: string): string {
  return `${suiteId}-${game}`;
}

/** The innermost message of a failure chain (suite ← campaign ← episode ← activity ← the engine's error). */
export function rootMessage(err: unknown): string {
  let message = err instanceof Error ? err.message : String(err);
  for (let cause = err instanceof Error ? err.cause : undefined; cause instanceof Error; cause = cause.cause) {
    if (cause.message) message = cause.message;
  }
  return message;
}

export async function suiteWorkflow(input: SuiteInput): Promise<SuiteResult> {
  const plan = validatedInput(SuiteInputSchema, input, 'suite input');
  const suiteId = workflowInfo().workflowId;
  // Workflow time: a replay reads the same clock, so the recorded seconds do not change.
  const startedAt = Date.now();
  const progress: SuiteGameProgress[] = plan.games.map((g) => ({
    game: g.name,
    state: 'waiting',
    campaignId: null,
    best: null,
    maxScore: g.maxScore,
    error: null,
    storyFaults: 0,
    reused: false,
  }));
  const results: Array<SuiteGameResult | null> = plan.games.map(() => null);
  let running = 0;
  let launched = 0;
  let finished = 0;
  let failure: unknown = null;
  const reusesWrittenResults = patched(REUSE_WRITTEN_RESULTS_PATCH);

  setHandler(suiteProgressQuery, () => ({ games: progress, finished, total: plan.games.length }));

  const playGame = async (index: number): Promise<void> => {
    const game = plan.games[index];
    const campaignId = gameCampaignId(suiteId, game.name);
    const started = Date.now();
    const run = (): GameRun => ({ suiteId, game, campaignId, setting: plan.setting, seconds: (Date.now() - started) / 1000 });
    if (reusesWrittenResults) {
      const earlier = await files.readEarlierSuiteGameResults({
        suiteId,
        game: game.name,
        seed: game.campaign.seed,
        setting: plan.setting,
      });
      if (earlier !== null) {
        results[index] = earlier;
        progress[index] = { ...progress[index], ...finishedProgress(earlier), campaignId, reused: true };
        return;
      }
    }
    progress[index] = { ...progress[index], state: 'running', campaignId };
    let result: SuiteGameResult;
    try {
      const campaign = await executeChild(campaignWorkflow, {
        workflowId: campaignId,
        args: [game.campaign],
        typedSearchAttributes: [{ key: GAME_KEY, value: game.campaign.game }],
      });
      result = gameResult(run(), campaign);
    } catch (err) {
      // A game that cannot be played (a fault in its story, a bug) is reported; the suite goes on.
      if (!(err instanceof ChildWorkflowFailure)) throw err;
      result = failedGameResult(run(), rootMessage(err));
    }
    await files.writeSuiteGameResults({ result });
    results[index] = result;
    progress[index] = { ...progress[index], ...finishedProgress(result) };
  };

  while (finished < plan.games.length) {
    while (running < plan.parallel && launched < plan.games.length) {
      running++;
      playGame(launched++)
        .then(() => {
          running--;
          finished++;
        })
        .catch((err: unknown) => (failure ??= err));
    }
    const before = finished;
    await condition(() => finished > before || failure !== null);
    if (failure !== null) throw failure;
  }

  const games = results.map((r) => r!);
  const reused = new Set(progress.filter((p) => p.reused).map((p) => p.game));
  const summary = suiteSummary(games, (Date.now() - startedAt) / 1000, reused);
  const record = { suiteId, suiteDir: plan.suiteDir, setting: plan.setting, parallel: plan.parallel, summary, games };
  const resultsPath = await files.writeSuiteResults({ results: record });
  return { ...record, resultsPath };
}
