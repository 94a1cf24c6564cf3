/**
 * Worker processes for the chaos suite: `grue worker` children it can SIGKILL, and the kill that
 * lands where it matters — on the worker running the episode's activity right now.
 */
import type { Client } from '@temporalio/client';
import { ChildProcess, spawn } from 'node:child_process';
import { createWriteStream, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { killHard } from '../../test/platform/scripted';

const ROOT = join(__dirname, '..', '..');

export interface WorkerPool {
  taskQueue: string;
  /** Start another worker (it gets the next data dir and log file). */
  add(): ChildProcess;
  /** The live worker with this pid, if it is one of ours. */
  byPid(pid: number): ChildProcess | undefined;
  live(): ChildProcess[];
  /** Log files, for the canary scan. */
  logs: string[];
  /** Unexpected exits (not our SIGKILL): each is a bug to report. */
  failures: string[];
  /** SIGKILL every worker still running. */
  stopAll(): Promise<void>;
}

/**
 * Workers on one task queue; each has its own data dir (as on separate machines), so the final
 * transcript must come from the history, not from a shared disk.
 */
export function workerPool(options: {
  address: string;
  taskQueue: string;
  dir: string;
  env?: Record<string, string>;
  concurrency?: number;
}): WorkerPool {
  const workers = new Set<ChildProcess>();
  const logs: string[] = [];
  const failures: string[] = [];
  let started = 0;
  const pool: WorkerPool = {
    taskQueue: options.taskQueue,
    logs,
    failures,
    add() {
      const index = ++started;
      const dataDir = join(options.dir, `worker-${index}`);
      mkdirSync(dataDir, { recursive: true });
      const logFile = join(options.dir, `worker-${index}.log`);
      logs.push(logFile);
      const child = spawn(process.execPath, [join(ROOT, 'bin', 'grue.js'), 'worker', '--concurrency', String(options.concurrency ?? 2)], {
        cwd: ROOT,
        env: {
          ...process.env,
          ...options.env,
          TEMPORAL_ADDRESS: options.address,
          GRUE_TASK_QUEUE: options.taskQueue,
          GRUE_DATA_DIR: dataDir,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      const log = createWriteStream(logFile);
      child.stdout!.pipe(log);
      child.stderr!.pipe(log);
      workers.add(child);
      child.once('exit', (code, signal) => {
        workers.delete(child);
        if (signal !== 'SIGKILL') failures.push(`worker ${index} (pid ${child.pid}) exited with ${code ?? signal}; see ${logFile}`);
      });
      return child;
    },
    byPid: (pid) => [...workers].find((worker) => worker.pid === pid),
    live: () => [...workers],
    async stopAll() {
      await Promise.all([...workers].map(killHard));
    },
  };
  return pool;
}

/** The pid in a worker's identity (`<pid>@<host>`); NaN for an identity of another form. */
const pidOf = (identity: string | null | undefined) => Number(/^(\d+)@/.exec(identity ?? '')?.[1]);

/** ACTIVITY in temporal.api.enums.v1.TaskQueueType. */
const TASK_QUEUE_TYPE_ACTIVITY = 2;

/**
 * The pids of the pool's live workers polling its queue for activities. A fleet survives a kill
 * when another worker is polling: kills wait for two, so a stall measures noticing the dead worker
 * and retrying, not a worker process starting up (or reconnecting after a server restart).
 */
export async function pollingWorkers(client: Client, pool: WorkerPool): Promise<number[]> {
  const response = await client.workflowService.describeTaskQueue({
    namespace: client.options.namespace,
    taskQueue: { name: pool.taskQueue },
    taskQueueType: TASK_QUEUE_TYPE_ACTIVITY,
  });
  const live = new Set(pool.live().map((worker) => worker.pid));
  const pids = (response.pollers ?? []).map((poller) => pidOf(poller.identity));
  return [...new Set(pids.filter((pid) => live.has(pid)))];
}

/** STARTED in a pending activity's state (temporal.api.enums.v1.PendingActivityState). */
const PENDING_ACTIVITY_STATE_STARTED = 2;

export interface RunningActivity {
  activity: string;
  activityId: string;
  /** Which try this is, from 1: a retry after a kill has a higher one. */
  attempt: number;
  pid: number;
}

/**
 * The activity of `workflowId` running right now and the pid of the worker running it (a worker's
 * identity is `<pid>@<host>`), or null when none is running (a workflow task is in progress).
 */
export async function runningActivity(client: Client, workflowId: string): Promise<RunningActivity | null> {
  const description = await client.workflow.getHandle(workflowId).describe();
  for (const pending of description.raw.pendingActivities ?? []) {
    if (Number(pending.state) !== PENDING_ACTIVITY_STATE_STARTED) continue;
    const pid = pidOf(pending.lastWorkerIdentity);
    if (pid)
      return {
        activity: pending.activityType?.name ?? 'unknown',
        activityId: pending.activityId ?? '',
        attempt: pending.attempt ?? 1,
        pid,
      };
  }
  return null;
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Poll until `probe` gives a value or `ms` pass (null then). */
export async function poll<T>(probe: () => Promise<T | null | undefined>, ms: number, every = 100): Promise<T | null> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe().catch(() => null);
    if (value) return value;
    if (Date.now() > end) return null;
    await sleep(every);
  }
}
