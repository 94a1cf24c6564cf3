/**
 * npm run bench:scale [-- --episodes 50 --workers 2 --steps 20 --game lighthouse --concurrency 4]
 *
 * How the platform behaves with many episodes in flight. On a dev server of its own it starts W
 * `grue worker` processes (each with its own data dir, as on separate machines), runs one
 * campaign of N oracle-free episodes of S steps with all N in flight at once (--parallel), each
 * turn without the valid-action search (--assist none) unless asked, then
 * reads every episode's history and prints one JSON object:
 *   turnsPerSecond                 turns played / wall seconds from the campaign's start to its end
 *   turnLatencyMsMedian / P90      a turn's stepGame activity from scheduled to completed (queueing included)
 *   scheduleToStartMsP90           how long a scheduled turn waited for a worker slot
 *   serverCpuSeconds               CPU the dev server (Temporal + SQLite) used during the run
 *   workerCpuSeconds               CPU the worker processes used during the run
 *   completed                      episodes that completed (an episode lost is an exit 1)
 * Progress goes to stderr. Loopback only; everything it started is stopped, --keep leaves the files.
 */
import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { Command, InvalidArgumentError } from 'commander';
import { readFileSync, rmSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { progressBar } from '../src/cli/play';
import { AssistSchema, PolicyName, resolveCampaignConfig } from '../src/schemas/episode';
import { runHistories } from '../src/temporal/episodeHistory';
import { ensureTemporalCli, freePort, startDevServer } from '../src/temporal/server';
import { campaignWorkflow } from '../src/workflows';
import { episodeWorkflowId, progressQuery } from '../src/workflows/campaign';
import { poll, workerPool } from '../scripts/chaos/workers';
import { wholeNumber } from './cli';
import { eventMs, percentile } from './harness';

type HistoryEvent = temporal.api.history.v1.IHistoryEvent;

const say = (line: string) => process.stderr.write(`bench:scale ${line}\n`);
const round = (value: number, digits = 1) => Number(value.toFixed(digits));

/** User + system CPU seconds of a process so far, from /proc (0 once it is gone). */
function cpuSeconds(pid: number): number {
  try {
    // Fields after the command name (which may hold spaces): utime and stime are the 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // USER_HZ is 100 on Linux
  } catch {
    return 0;
  }
}

/** Each turn's stepGame activity: scheduled → started → completed, in ms. */
function turnTimings(events: HistoryEvent[]): Array<{ latency: number; scheduleToStart: number }> {
  const scheduled = new Map<number, number>();
  const started = new Map<number, number>();
  const timings: Array<{ latency: number; scheduleToStart: number }> = [];
  for (const event of events) {
    const id = Number(event.eventId);
    if (event.activityTaskScheduledEventAttributes?.activityType?.name === 'stepGame') scheduled.set(id, eventMs(event.eventTime));
    const start = event.activityTaskStartedEventAttributes;
    if (start && scheduled.has(Number(start.scheduledEventId))) started.set(Number(start.scheduledEventId), eventMs(event.eventTime));
    const done = event.activityTaskCompletedEventAttributes;
    if (done && scheduled.has(Number(done.scheduledEventId))) {
      const at = scheduled.get(Number(done.scheduledEventId))!;
      timings.push({ latency: eventMs(event.eventTime) - at, scheduleToStart: (started.get(Number(done.scheduledEventId)) ?? at) - at });
    }
  }
  return timings;
}

async function main(): Promise<void> {
  const options = new Command()
    .name('bench:scale')
    .option('--episodes <n>', 'episodes, all in flight at once', wholeNumber('--episodes', 1, 2000), 50)
    .option('--workers <n>', 'grue worker processes', wholeNumber('--workers', 1, 32), 1)
    .option('--steps <n>', 'turns per episode', wholeNumber('--steps', 1, 10_000), 20)
    .option('--parallel <n>', 'episodes in flight at once (default: all of them)', wholeNumber('--parallel', 1, 200))
    .option('--concurrency <n>', 'activities each worker runs at once', wholeNumber('--concurrency', 1, 64), 4)
    .option('--game <game>', 'story path or bundled game name', 'lighthouse')
    .option('--policy <policy>', 'oracle-free or random (no LLM: this measures the platform)', 'oracle-free')
    // Under `none` a turn is a snapshot restore and one command; `probe` adds the valid-action search (issue 11's subject) to every turn.
    .option('--assist <assist>', 'none, valid or probe: how much engine work each turn adds', 'none')
    .option('--keep', 'keep the server database, worker logs and data dirs')
    .parse(process.argv)
    .opts<{
      episodes: number;
      workers: number;
      steps: number;
      parallel?: number;
      concurrency: number;
      game: string;
      policy: string;
      assist: string;
      keep?: boolean;
    }>();
  if (options.policy !== 'oracle-free' && options.policy !== 'random')
    throw new InvalidArgumentError('--policy must be oracle-free or random.');
  const assist = AssistSchema.safeParse(options.assist);
  if (!assist.success) throw new InvalidArgumentError('--assist must be none, valid or probe.');
  const parallel = Math.min(options.parallel ?? options.episodes, options.episodes);
  const campaign = resolveCampaignConfig({
    game: options.game,
    policy: options.policy as PolicyName,
    episodes: options.episodes,
    parallel,
    maxTurns: options.steps,
    seed: 1,
    stopOnDeath: false,
    assist: assist.data,
  });

  const dir = mkdtempSync(join(tmpdir(), 'grue-bench-scale-'));
  const port = await freePort();
  const address = `127.0.0.1:${port}`;
  const server = await startDevServer({ cli: ensureTemporalCli(say), dataDir: join(dir, 'server'), port, uiPort: await freePort() });
  const taskQueue = `bench-scale-${process.pid}`;
  // Metrics off: W workers on one machine would all want the default port (the first gets it, the rest warn).
  const pool = workerPool({ address, taskQueue, dir, concurrency: options.concurrency, env: { GRUE_METRICS_ADDRESS: 'off' } });
  const stop = async () => {
    await pool.stopAll();
    await server.stop();
    if (!options.keep) rmSync(dir, { recursive: true, force: true });
  };
  const onSignal = (signal: NodeJS.Signals) => void stop().finally(() => process.exit(signal === 'SIGINT' ? 130 : 143));
  process.once('SIGINT', onSignal).once('SIGTERM', onSignal);
  const client = new Client({ connection: await Connection.connect({ address }) });
  try {
    for (let index = 0; index < options.workers; index++) pool.add();
    // Timing starts once every worker polls: bundling the workflows at a worker's start is not the platform's throughput.
    const polling = await poll(
      async () => {
        const queue = await client.workflowService.describeTaskQueue({
          namespace: 'default',
          taskQueue: { name: taskQueue },
          taskQueueType: temporal.api.enums.v1.TaskQueueType.TASK_QUEUE_TYPE_ACTIVITY,
        });
        return (queue.pollers?.length ?? 0) >= options.workers || null;
      },
      180_000,
      500,
    );
    if (!polling)
      throw new Error(`the ${options.workers} workers did not all poll within 3 minutes; see ${dir}/worker-*.log (run with --keep)`);
    say(
      `${options.workers} worker(s) polling; ${options.episodes} episodes of ${options.steps} steps, ${parallel} at once, on ${options.game}`,
    );

    const serverCpuBefore = cpuSeconds(server.pid);
    const workerCpuBefore = pool.live().reduce((sum, worker) => sum + cpuSeconds(worker.pid!), 0);
    const began = Date.now();
    const handle = await client.workflow.start(campaignWorkflow, { taskQueue, workflowId: `bench-scale-${Date.now()}`, args: [campaign] });
    const bar = progressBar('episodes {value}/{total} {bar} {running} running');
    bar.start(options.episodes, 0, { running: 0 });
    const progress = setInterval(() => {
      void handle.query(progressQuery).then(
        (state) => bar.update(state.completed, { running: state.running.length }),
        () => undefined,
      );
    }, 2000);
    let outcome: Awaited<ReturnType<typeof handle.result>> | null = null;
    let failure: string | null = null;
    try {
      outcome = await handle.result();
    } catch (err) {
      failure = err instanceof Error ? `${err.message}${err.cause instanceof Error ? `: ${err.cause.message}` : ''}` : String(err);
    } finally {
      clearInterval(progress);
      bar.stop();
    }
    const wallSeconds = (Date.now() - began) / 1000;
    const serverCpuSeconds = cpuSeconds(server.pid) - serverCpuBefore;
    const workerCpuSeconds = pool.live().reduce((sum, worker) => sum + cpuSeconds(worker.pid!), 0) - workerCpuBefore;

    say('reading the episodes’ histories');
    const episodeIds = Array.from({ length: options.episodes }, (_, index) => episodeWorkflowId(handle.workflowId, index));
    const timings: Array<{ latency: number; scheduleToStart: number }> = [];
    let completed = 0;
    for (const id of episodeIds) {
      const status = await client.workflow
        .getHandle(id)
        .describe()
        .then(
          (description) => description.status.name,
          () => 'MISSING',
        );
      if (status === 'COMPLETED') completed++;
      if (status === 'MISSING') continue;
      for (const run of await runHistories(client, id)) timings.push(...turnTimings(run.events ?? []));
    }
    const turns = outcome ? outcome.episodes.reduce((sum, episode) => sum + episode.turns, 0) : timings.length;
    const result = {
      episodes: options.episodes,
      workers: options.workers,
      steps: options.steps,
      parallel,
      concurrencyPerWorker: options.concurrency,
      game: options.game,
      policy: options.policy,
      assist: assist.data,
      turns,
      wallSeconds: round(wallSeconds),
      turnsPerSecond: round(turns / wallSeconds, 2),
      turnLatencyMsMedian: percentile(
        timings.map((timing) => timing.latency),
        0.5,
      ),
      turnLatencyMsP90: percentile(
        timings.map((timing) => timing.latency),
        0.9,
      ),
      scheduleToStartMsP90: percentile(
        timings.map((timing) => timing.scheduleToStart),
        0.9,
      ),
      serverCpuSeconds: round(serverCpuSeconds),
      workerCpuSeconds: round(workerCpuSeconds),
      completed,
      lost: options.episodes - completed,
      workerFailures: pool.failures,
      ...(failure ? { campaignFailure: failure } : {}),
      ...(options.keep ? { files: dir } : {}),
    };
    process.stdout.write(`${JSON.stringify(result)}\n`);
    if (result.lost > 0 || failure || pool.failures.length) process.exitCode = 1;
  } finally {
    process.off('SIGINT', onSignal).off('SIGTERM', onSignal);
    await client.connection.close();
    await stop();
  }
}

main().catch((err) => {
  process.stderr.write(`bench:scale: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
