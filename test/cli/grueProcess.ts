import { spawn } from 'node:child_process';
import { GRUE, ROOT } from '../helpers';

/**
 * Run the CLI without blocking this process (spawnSync would), for tests whose servers or proxies
 * answer from the test process itself. The Temporal connection comes only from `env`: the
 * caller's TEMPORAL_ADDRESS, TEMPORAL_NAMESPACE and TEMPORAL_PROFILE are not inherited.
 */
export function grueProcess(args: string[], env: NodeJS.ProcessEnv, timeoutMs = 120_000): Promise<{ code: number | null; stdout: string; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [GRUE, ...args], { cwd: ROOT, env: { ...process.env, TEMPORAL_ADDRESS: undefined, TEMPORAL_NAMESPACE: undefined, TEMPORAL_PROFILE: undefined, ...env } });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk) => (stdout += chunk));
    child.stderr.on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => child.kill('SIGKILL'), timeoutMs);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
  });
}
