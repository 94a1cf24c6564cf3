/**
 * `grue worker` as a child process, for the telemetry tests: its Temporal Runtime, metrics
 * endpoint and tracer provider are that process's own, as in a deployment.
 */
import { Client, Connection } from '@temporalio/client';
import { ChildProcess, spawn } from 'node:child_process';
import { runHistories } from '../../src/temporal/episodeHistory';
import { GRUE, ROOT } from '../helpers';
import { FakeOpenAi, startFakeOpenAi } from '../llm/fakeOpenAi';
import { tempDataDir, uniqueQueue } from './env';
import { waitFor } from './scripted';
import { ownServer } from './server';

export interface FakeLlmLab {
  server: Awaited<ReturnType<typeof ownServer>>;
  client: Client;
  fake: FakeOpenAi;
  /** What a grue worker or CLI run needs to use the server, a task queue of its own and the fake endpoint as its LLM. */
  env: Record<string, string>;
  close(): Promise<void>;
}

/** A dev server of the test's own, a client on it and the fake OpenAI endpoint serving `model`. */
export async function fakeLlmLab(options: { queue: string; model: string; apiKey: string }): Promise<FakeLlmLab> {
  const dataDir = tempDataDir();
  const server = await ownServer(dataDir);
  const client = new Client({ connection: await Connection.connect({ address: `127.0.0.1:${server.port}` }) });
  const fake = await startFakeOpenAi(options.model);
  return {
    server,
    client,
    fake,
    env: {
      TEMPORAL_ADDRESS: `127.0.0.1:${server.port}`,
      TEMPORAL_UI_PORT: String(server.uiPort),
      GRUE_DATA_DIR: dataDir,
      GRUE_TASK_QUEUE: uniqueQueue(options.queue),
      GRUE_LLM_PROVIDER: 'openai',
      GRUE_LLM_BASE_URL: fake.url,
      GRUE_LLM_MODEL: options.model,
      GRUE_LLM_API_KEY: options.apiKey,
    },
    close: async () => {
      await fake.close();
      await client.connection.close();
      await server.stop();
    },
  };
}

/** The activities of a workflow's whole continue-as-new chain, by type: scheduled, and completed. */
export async function activitiesByType(
  client: Client,
  workflowId: string,
): Promise<{ scheduled: Record<string, number>; completed: Record<string, number> }> {
  const scheduled: Record<string, number> = {};
  const completed: Record<string, number> = {};
  for (const run of await runHistories(client, workflowId)) {
    const types = new Map<string, string>();
    for (const event of run.events ?? []) {
      const type = event.activityTaskScheduledEventAttributes?.activityType?.name;
      if (type) {
        types.set(String(event.eventId), type);
        scheduled[type] = (scheduled[type] ?? 0) + 1;
      }
      const done = event.activityTaskCompletedEventAttributes;
      if (done) {
        const doneType = types.get(String(done.scheduledEventId)) ?? '?';
        completed[doneType] = (completed[doneType] ?? 0) + 1;
      }
    }
  }
  return { scheduled, completed };
}

export interface GrueWorkerProcess {
  child: ChildProcess;
  /** Everything the worker wrote to stderr so far. */
  log(): string;
  /** Waits for a line of the worker's log matching `pattern`; gives the match. */
  waitForLog(pattern: RegExp, ms?: number): Promise<RegExpMatchArray>;
  /** The exit code, once the worker has exited. */
  exited: Promise<number | null>;
  /** SIGTERM (the worker shuts down and sends its last spans); gives the exit code. */
  stop(): Promise<number | null>;
}

/** `env` is added to this process's environment; a variable given as undefined is left out. */
export function spawnGrueWorker(args: string[], env: Record<string, string | undefined>): GrueWorkerProcess {
  const merged = Object.fromEntries(Object.entries({ ...process.env, ...env }).filter(([, value]) => value !== undefined));
  const child = spawn(process.execPath, [GRUE, 'worker', ...args], { cwd: ROOT, env: merged, stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    exited,
    log: () => stderr,
    waitForLog: (pattern, ms = 120_000) =>
      waitFor(
        `the worker to log ${pattern}`,
        () => {
          if (child.exitCode !== null) throw new Error(`the worker exited with ${child.exitCode}: ${stderr}`);
          return pattern.exec(stderr);
        },
        ms,
      ).catch((err: Error) => {
        throw new Error(`${err.message}; its log: ${stderr.slice(-3000)}`);
      }),
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      return exited;
    },
  };
}

/** One sample of a Prometheus text exposition. */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

/** The samples of a Prometheus text exposition (comments skipped). */
export function parsePrometheus(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})?\s+(\S+)/.exec(line);
    if (!match) continue;
    const labels: Record<string, string> = {};
    for (const label of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) labels[label[1]] = label[2];
    samples.push({ name: match[1], labels, value: Number(match[3]) });
  }
  return samples;
}

/** The sum of a metric's samples whose labels include `labels`. */
export function total(samples: Sample[], name: string, labels: Record<string, string> = {}): number {
  return samples
    .filter((sample) => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))
    .reduce((sum, sample) => sum + sample.value, 0);
}

export async function scrape(url: string): Promise<Sample[]> {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${url} answered ${response.status}`);
  return parsePrometheus(await response.text());
}
