/**
 * bench:explore's games spread over child processes (`--jobs N`). A game's episode runs the
 * valid-action search on its own thread for minutes, so one process uses one core; each child
 * is this script again, asked for one (seed, game) at a time as it finishes the last, so a slow
 * game holds one child while the others go on.
 */
import { fork } from 'node:child_process';

export interface WorkItem {
  seed: number;
  game: string;
}

type FromChild<T> = { item: WorkItem; result: T } | { item: WorkItem; error: string };

const keyOf = (item: WorkItem) => `${item.seed}|${item.game}`;

/**
 * Plays `items` in `jobs` children of `script` (run with `args` and `--child`), handing each
 * result to `onResult` as it comes; resolves when all are played.
 */
export function playInChildren<T>(
  script: string,
  args: readonly string[],
  items: readonly WorkItem[],
  jobs: number,
  onResult: (item: WorkItem, result: T) => void,
): Promise<void> {
  const played = new Set<string>();
  const queue = [...items];
  return new Promise((resolve, reject) => {
    let running = 0;
    let failed = false;
    const start = () => {
      const child = fork(script, [...args, '--child'], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
      running++;
      let current: WorkItem | undefined;
      const next = () => {
        current = queue.shift();
        if (current && !failed) child.send(current);
        else child.disconnect();
      };
      child.on('message', (message: FromChild<T>) => {
        if ('error' in message) {
          failed = true;
          reject(new Error(`bench:explore: ${message.item.game} at seed ${message.item.seed} failed: ${message.error}`));
        } else {
          played.add(keyOf(message.item));
          onResult(message.item, message.result);
        }
        next();
      });
      child.on('exit', (code, signal) => {
        running--;
        if (current && !played.has(keyOf(current)) && !failed) {
          failed = true;
          reject(
            new Error(`bench:explore: the child playing ${current.game} at seed ${current.seed} exited (${signal ?? `code ${code}`})`),
          );
        }
        if (running === 0 && !failed) resolve();
      });
      next();
    };
    for (let index = 0; index < Math.min(jobs, items.length); index++) start();
    if (items.length === 0) resolve();
  });
}

/** In a child: play each item the parent sends, and send back its result (or its error). */
export function serveParent<T>(play: (item: WorkItem) => T): void {
  process.on('message', (item: WorkItem) => {
    try {
      process.send!({ item, result: play(item) });
    } catch (error) {
      process.send!({ item, error: error instanceof Error ? error.message : String(error) });
    }
  });
  process.on('disconnect', () => process.exit(0));
}
