/**
 * One process at a time for work on a shared cache (a model download, a tool build): the lock is a
 * file created exclusively beside the work, holding the owner's pid. Another process waits for it
 * to go; a lock whose owner is no longer running, or that is older than `staleAfterMs`, is taken
 * over (a process killed mid-download leaves one behind).
 */
import { closeSync, openSync, readFileSync, rmSync, statSync, writeSync } from 'node:fs';

export interface LockOptions {
  /** Told once when this process has to wait for another. */
  onWait?: (owner: string) => void;
  staleAfterMs?: number;
  pollMs?: number;
}

export async function withFileLock<T>(lockPath: string, work: () => Promise<T>, options: LockOptions = {}): Promise<T> {
  const staleAfterMs = options.staleAfterMs ?? 60 * 60_000;
  let told = false;
  for (;;) {
    const acquired = tryAcquire(lockPath);
    if (acquired) break;
    const owner = lockOwner(lockPath);
    if (owner === undefined || !isRunning(owner) || ageMs(lockPath) > staleAfterMs) {
      rmSync(lockPath, { force: true });
      continue;
    }
    if (!told) options.onWait?.(`process ${owner}`);
    told = true;
    await new Promise((resolve) => setTimeout(resolve, options.pollMs ?? 1000));
  }
  try {
    return await work();
  } finally {
    rmSync(lockPath, { force: true });
  }
}

function tryAcquire(lockPath: string): boolean {
  try {
    const fd = openSync(lockPath, 'wx');
    writeSync(fd, String(process.pid));
    closeSync(fd);
    return true;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return false;
    throw err;
  }
}

function lockOwner(lockPath: string): number | undefined {
  try {
    const pid = Number(readFileSync(lockPath, 'utf8').trim());
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

function ageMs(path: string): number {
  try {
    return Date.now() - statSync(path).mtimeMs;
  } catch {
    return 0;
  }
}
