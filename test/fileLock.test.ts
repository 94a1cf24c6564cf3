import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { withFileLock } from '../src/fileLock';
import { scratchDir } from './helpers';

describe('withFileLock', () => {
  const dir = scratchDir('lock');

  it('runs work on the same lock one at a time', async () => {
    const lock = join(dir, 'a.lock');
    const events: string[] = [];
    const job = (name: string) =>
      withFileLock(
        lock,
        async () => {
          events.push(`${name} start`);
          await new Promise((resolve) => setTimeout(resolve, 50));
          events.push(`${name} end`);
        },
        { pollMs: 10 },
      );
    await Promise.all([job('first'), job('second')]);
    expect(events).toEqual(['first start', 'first end', 'second start', 'second end']);
  });

  it('takes over a lock left by a process that is no longer running', async () => {
    const lock = join(dir, 'b.lock');
    writeFileSync(lock, '999999999');
    await expect(withFileLock(lock, async () => 'done', { pollMs: 10 })).resolves.toBe('done');
  });

  it('waits for a live owner and says so once', async () => {
    const lock = join(dir, 'c.lock');
    writeFileSync(lock, String(process.pid));
    const waits: string[] = [];
    const waiting = withFileLock(lock, async () => 'mine', { pollMs: 10, onWait: (owner) => waits.push(owner) });
    await new Promise((resolve) => setTimeout(resolve, 60));
    rmSync(lock);
    await expect(waiting).resolves.toBe('mine');
    expect(waits).toEqual([`process ${process.pid}`]);
  });
});
