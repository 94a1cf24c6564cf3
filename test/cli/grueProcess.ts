import { spawn } from 'node:child_process';
import { GRUE, ROOT } from '../helpers';

export interface GrueRun {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
  /** Killed because it was still running `graceMs` after printing `until` (see options). */
  lingered: boolean;
  /** Sent `interrupt` after printing `until` (see options). */
  interrupted: boolean;
  /** Killed because `timeoutMs` passed. */
  timedOut: boolean;
}

/**
 * Run the CLI without blocking this process (spawnSync would), for tests whose servers or proxies
 * answer from the test process itself. The Temporal connection comes only from `env`: the
 * caller's TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and TEMPORAL_PROFILE are not inherited.
 * With `until`, a process still alive `graceMs` after its stdout matched it is killed and
 * reported as lingering: how long the work takes (a slow model on a busy machine) is then kept
 * apart from whether the process ends once it is done. With `interrupt`, that signal is sent
 * instead (as Ctrl-C sends SIGINT), and the run is reported as interrupted.
 */
export function grueProcess(
  args: string[],
  env: NodeJS.ProcessEnv,
  timeoutMs = 120_000,
  options: { until?: RegExp; graceMs?: number; interrupt?: NodeJS.Signals } = {},
): Promise<GrueRun> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GRUE, ...args], {
      cwd: ROOT,
      env: { ...process.env, TEMPORAL_ADDRESS: undefined, TEMPORAL_NAMESPACE: undefined, TEMPORAL_PROFILE: undefined, ...env },
    });
    let stdout = '';
    let stderr = '';
    let lingered = false;
    let interrupted = false;
    let timedOut = false;
    let graceTimer: NodeJS.Timeout | undefined;
    child.stdout.on('data', (chunk) => {
      stdout += chunk;
      if (options.until && !graceTimer && options.until.test(stdout)) {
        graceTimer = setTimeout(() => {
          if (options.interrupt) interrupted = true;
          else lingered = true;
          child.kill(options.interrupt ?? 'SIGKILL');
        }, options.graceMs ?? 30_000);
      }
    });
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      timedOut = true;
      child.kill('SIGKILL');
    }, timeoutMs);
    child.on('error', reject);
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      clearTimeout(graceTimer);
      resolve({ code, signal, stdout, stderr, lingered, interrupted, timedOut });
    });
  });
}
