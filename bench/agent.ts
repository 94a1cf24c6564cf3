/**
 * npm run bench:agent -- --game <story> --episodes E --steps S [--agents random,oracle-free,full] [--seed N]
 *
 * Runs the same campaign (same seeds) for each agent through the real workflows on a fresh local
 * dev server with an in-process worker, and prints one JSON object:
 *   { runs: [{ agent, scores, llmCallsPerTurn, tokensPerTurn, secondsPerTurn, ... }] }
 */
import { readTranscript } from '../src/activities/files';
import { resolveStory } from '../src/engine';
import { PolicyNameSchema, resolveCampaignConfig } from '../src/schemas/episode';
import { campaignWorkflow } from '../src/workflows';
import { arg, withBenchServer } from './harness';

const log = (msg: string) => process.stderr.write(`bench:agent ${msg}\n`);

async function main(): Promise<void> {
  const game = arg('game', 'lighthouse');
  resolveStory(game);
  const episodes = Number(arg('episodes', '3'));
  const steps = Number(arg('steps', '30'));
  const seed = Number(arg('seed', '1'));
  const agents = arg('agents', 'random,oracle-free,full')
    .split(',')
    .map((a) => PolicyNameSchema.parse(a));
  const runs: Array<Record<string, unknown> & { scores: number[] }> = [];
  await withBenchServer('bench:agent', 'bench-agent', async ({ client, worker, dataDir }) =>
    worker.runUntil(async () => {
      for (const agent of agents) {
        log(`${agent}: ${episodes} episodes x ${steps} steps on ${game}`);
        const t0 = Date.now();
        const result = await client.workflow.execute(campaignWorkflow, {
          taskQueue: 'bench-agent',
          workflowId: `bench-agent-${agent}-${Date.now()}`,
          args: [resolveCampaignConfig({ game, episodes, seed, maxTurns: steps, policy: agent })],
        });
        const seconds = (Date.now() - t0) / 1000;
        const turns = result.episodes.reduce((n, e) => n + e.turns, 0);
        const calls = result.episodes.reduce((n, e) => n + (e.llmCalls ?? 0), 0);
        const tokens = result.episodes.reduce((n, e) => n + (e.tokens ?? 0), 0);
        runs.push({
          agent,
          scores: result.episodes.map((e) => e.score),
          // The highest score reached during each episode (Zork takes 10 points per death).
          peakScores: result.episodes.map((e) => Math.max(0, ...readTranscript(dataDir, e.workflowId).map((t) => t.score))),
          victories: result.episodes.map((e) => e.victory),
          bestScore: result.maxScore,
          llmCallsPerTurn: Number((calls / turns).toFixed(3)),
          tokensPerTurn: Math.round(tokens / turns),
          secondsPerTurn: Number((seconds / turns).toFixed(2)),
          fallbackTurns: result.episodes.reduce((n, e) => n + (e.fallbackTurns ?? 0), 0),
          ...(result.recommendationAccuracy !== undefined
            ? { recommendationAccuracy: Number(result.recommendationAccuracy.toFixed(3)), learnedGoal: result.learnedGoal }
            : {}),
        });
        log(`${agent}: scores ${JSON.stringify(runs[runs.length - 1].scores)} in ${seconds.toFixed(0)} s`);
      }
    }),
  );
  console.log(JSON.stringify({ game: game.split('/').pop(), episodes, steps, seed, runs }));
}

main().then(
  // The worker's embedded-model host and Temporal's native runtime can outlive the work: the
  // result is printed and the dev server stopped, so end here rather than linger.
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
