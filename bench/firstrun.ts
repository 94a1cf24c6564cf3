/**
 * npm run bench:firstrun [-- --runs N]
 *
 * The README's main command (`npx grue play`) as a new user meets it after the one-time setup:
 * `grue setup` first (not timed: it builds the Temporal CLI and fetches the model once), then
 * `grue play` with its defaults in a fresh data directory on free ports, so the dev server's start
 * is part of the time, as it is on a fresh clone. Timed from spawn to the process's own exit (a
 * process that lingers after its result is a failure). Prints one JSON object:
 *   { seconds, score, maxScore, won, turns, llmCalls, exitCode, model, runs: [...] }
 * (the top-level figures are the median run's; `runs` has each).
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { projectRoot } from '../src/paths';
import { freePort } from '../src/temporal/server';
import { arg } from './harness';

const GRUE = join(projectRoot(), 'bin', 'grue.js');
/** A first run that has not exited by then is reported as such, not waited on forever. */
const LIMIT_MS = 20 * 60_000;
const log = (msg: string) => process.stderr.write(`bench:firstrun ${msg}\n`);

const StatusSchema = z.object({
  result: z.object({
    score: z.number(),
    maxScore: z.number().nullable(),
    victory: z.boolean(),
    turns: z.number(),
    llm: z.object({ calls: z.number(), model: z.string().optional() }).optional(),
  }),
});

interface Run {
  seconds: number;
  score: number;
  maxScore: number | null;
  won: boolean;
  turns: number;
  llmCalls: number;
  exitCode: number | null;
  model: string | null;
}

async function firstRun(index: number): Promise<Run> {
  const dataDir = mkdtempSync(join(tmpdir(), 'grue-firstrun-'));
  const env = {
    ...process.env,
    GRUE_DATA_DIR: dataDir,
    TEMPORAL_ADDRESS: `127.0.0.1:${await freePort()}`,
    TEMPORAL_UI_PORT: String(await freePort()),
  };
  const id = `firstrun-${process.pid}-${index}`;
  const started = Date.now();
  const child = spawn(process.execPath, [GRUE, 'play', '--id', id], { cwd: projectRoot(), env, stdio: ['ignore', 'pipe', 'inherit'] });
  child.stdout.on('data', (chunk: Buffer) => process.stderr.write(chunk));
  const killer = setTimeout(() => child.kill('SIGKILL'), LIMIT_MS);
  const exitCode = await new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  clearTimeout(killer);
  const seconds = (Date.now() - started) / 1000;
  try {
    const status = spawnSync(process.execPath, [GRUE, 'status', id, '--json'], { cwd: projectRoot(), env, encoding: 'utf8' });
    const { result } = StatusSchema.parse(JSON.parse(status.stdout));
    return {
      seconds: Number(seconds.toFixed(1)),
      score: result.score,
      maxScore: result.maxScore,
      won: result.victory,
      turns: result.turns,
      llmCalls: result.llm?.calls ?? 0,
      exitCode,
      model: result.llm?.model ?? null,
    };
  } finally {
    await stopServer(dataDir);
    rmSync(dataDir, { recursive: true, force: true, maxRetries: 10, retryDelay: 300 });
  }
}

/** The dev server `grue play` started (detached, so the Web UI outlives it) is this bench's to stop, before its files go. */
async function stopServer(dataDir: string): Promise<void> {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, 'temporal.pid'), 'utf8'));
    process.kill(pid, 'SIGTERM');
  } catch {
    return; // never started, or already gone
  }
  const alive = () => {
    try {
      process.kill(pid, 0);
      return true;
    } catch {
      return false;
    }
  };
  for (let waited = 0; alive() && waited < 15_000; waited += 200) await new Promise((r) => setTimeout(r, 200));
}

async function main(): Promise<void> {
  const runs = Number(arg('runs', '1'));
  log('setup (once, not timed)');
  const setup = spawnSync(process.execPath, [GRUE, 'setup'], { cwd: projectRoot(), stdio: ['ignore', 'inherit', 'inherit'] });
  if (setup.status !== 0) throw new Error('grue setup failed');
  const results: Run[] = [];
  for (let i = 0; i < runs; i++) {
    log(`run ${i + 1}/${runs}: grue play`);
    results.push(await firstRun(i));
    log(`run ${i + 1}: ${JSON.stringify(results[results.length - 1])}`);
  }
  const median = [...results].sort((a, b) => a.seconds - b.seconds)[Math.floor((results.length - 1) / 2)];
  console.log(JSON.stringify({ ...median, runs: results }));
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
