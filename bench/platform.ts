/**
 * npm run bench:platform [-- --turns 500 --game zork1]
 *
 * Runs one long episode on a fresh local dev server with an in-process worker, reads its
 * history, and prints one JSON object:
 *   overheadMsMedian / overheadMsP90  turn wall time minus activity execution time (from history timestamps)
 *   inProcessMsMedian                 the same policy as a plain in-process loop (no Temporal), per turn
 *   eventsPerTurn, bytesPerTurn       history cost of a turn, over all runs
 *   maxEventsPerRun                   the largest single run (continue-as-new keeps it bounded)
 */
import { temporal } from '@temporalio/proto';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createGameActivities } from '../src/activities/game';
import { createRng, seedFor } from '../src/agent/rng';
import { initialState } from '../src/agent/state';
import { decide, deliberate, isOver, learn } from '../src/agent/turn';
import { initialMemory } from '../src/memory/runner';
import { EpisodeConfig, resolveEpisodeConfig } from '../src/schemas/episode';
import { freshLearned } from '../src/agent/learned';
import { episodeWorkflow } from '../src/workflows';
import { arg, eventMs, percentile, withBenchServer } from './harness';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const log = (msg: string) => process.stderr.write(`bench:platform ${msg}\n`);
const round = (x: number) => Number(x.toFixed(2));

/** Per stepGame: wall time from its scheduling to the next one's, minus its started->completed time. */
function overheads(events: HistoryEvent[]): number[] {
  const scheduled: Array<{ id: number; at: number }> = [];
  const started = new Map<number, number>();
  const completed = new Map<number, number>();
  for (const e of events) {
    const id = Number(e.eventId);
    if (e.activityTaskScheduledEventAttributes?.activityType?.name === 'stepGame') scheduled.push({ id, at: eventMs(e.eventTime) });
    if (e.activityTaskStartedEventAttributes)
      started.set(Number(e.activityTaskStartedEventAttributes.scheduledEventId), eventMs(e.eventTime));
    if (e.activityTaskCompletedEventAttributes)
      completed.set(Number(e.activityTaskCompletedEventAttributes.scheduledEventId), eventMs(e.eventTime));
  }
  const out: number[] = [];
  for (let i = 0; i + 1 < scheduled.length; i++) {
    const s = scheduled[i];
    const exec = (completed.get(s.id) ?? NaN) - (started.get(s.id) ?? NaN);
    const wall = scheduled[i + 1].at - s.at;
    if (Number.isFinite(exec)) out.push(wall - exec);
  }
  return out;
}

/**
 * The workflow's own turn, without Temporal: the same game activities called in-process and the
 * same pipeline stages (src/agent/turn.ts) on the same config, so the difference is Temporal's.
 */
async function inProcessTurns(config: EpisodeConfig, turns: number): Promise<number[]> {
  const game = createGameActivities();
  const start = await game.startGame({ game: config.game, seed: config.seed, assist: 'probe' });
  const learned = freshLearned();
  let state = initialState(start, learned, seedFor(config.seed, 'policy'), initialMemory(learned, config));
  const times: number[] = [];
  while (state.turn < turns && !isOver(state.truth, config)) {
    const t0 = performance.now();
    const rng = createRng(state.rngState);
    const decision = decide(state, config, rng, deliberate(state, config, rng), null);
    const step = await game.stepGame({
      game: config.game,
      storyMd5: state.story.md5,
      snapshot: state.snapshot,
      command: decision.command,
      assist: 'probe',
    });
    state = learn(state, config, decision, step, rng);
    times.push(performance.now() - t0);
  }
  return times;
}

async function main(): Promise<void> {
  const turns = Number(arg('turns', '500'));
  const zork = join(__dirname, '..', '..', 'shared', 'games', 'zork1.z3');
  const game = arg('game', existsSync(zork) ? zork : 'lighthouse');
  const seed = Number(arg('seed', '1'));
  await withBenchServer('bench:platform', 'bench', async ({ client, worker }) => {
    log(`episode of ${turns} turns on ${game.split('/').pop()}`);
    const workflowId = `bench-${Date.now()}`;
    // One config for both sides: the workflow and the in-process loop play the same policy under the same rules.
    const config = resolveEpisodeConfig({
      game,
      seed,
      maxTurns: turns,
      policy: 'oracle-free',
      turnTimeoutSeconds: 300,
      stopOnDeath: false,
    });
    const handle = await client.workflow.start(episodeWorkflow, { taskQueue: 'bench', workflowId, args: [{ config }] });
    const result = await worker.runUntil(handle.result());
    log(`episode finished: ${result.turns} turns, score ${result.score}`);

    // Walk the chain of runs (continue-as-new) and measure each history.
    let runId: string | undefined = handle.firstExecutionRunId;
    const over: number[] = [];
    let events = 0;
    let bytes = 0;
    let maxEventsPerRun = 0;
    let runs = 0;
    while (runId) {
      const history: temporal.api.history.v1.IHistory = await client.workflow.getHandle(workflowId, runId).fetchHistory();
      const evs: HistoryEvent[] = history.events ?? [];
      runs++;
      events += evs.length;
      maxEventsPerRun = Math.max(maxEventsPerRun, evs.length);
      bytes += temporal.api.history.v1.History.encode(history).finish().length;
      over.push(...overheads(evs));
      runId = evs[evs.length - 1]?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    }

    log('same policy, in-process loop');
    const inProc = await inProcessTurns(config, Math.min(result.turns, 200));
    console.log(
      JSON.stringify({
        game: game.split('/').pop(),
        turns: result.turns,
        runs,
        overheadMsMedian: round(percentile(over, 0.5)),
        overheadMsP90: round(percentile(over, 0.9)),
        inProcessMsMedian: round(percentile(inProc, 0.5)),
        eventsPerTurn: round(events / result.turns),
        bytesPerTurn: Math.round(bytes / result.turns),
        maxEventsPerRun,
      }),
    );
  });
}

main().catch((err) => {
  console.error(err);
  process.exit(1);
});
