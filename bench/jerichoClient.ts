/**
 * A client for bench/jericho_driver.py (Jericho 3.3.1 in its venv at ~/.cache/grue/jericho-venv,
 * which `npm run bench:jericho` creates on first run): one JSON request per line in, one reply per
 * line out, each reply checked with zod.
 */
import { ChildProcess, spawn, spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { z } from 'zod';

export const JERICHO_VERSION = '3.3.1';
const VENV_PYTHON = join(homedir(), '.cache', 'grue', 'jericho-venv', 'bin', 'python');
const DRIVER = join(__dirname, 'jericho_driver.py');

/** Jericho is not installed where the benches look for it. */
export class JerichoMissingError extends Error {}

export function checkJerichoInstalled(): void {
  const script = `import sys, jericho; sys.exit(0 if jericho.__version__ == "${JERICHO_VERSION}" else 3)`;
  const check = existsSync(VENV_PYTHON) && spawnSync(VENV_PYTHON, ['-c', script], { stdio: 'ignore' });
  if (!check || check.status !== 0) {
    throw new JerichoMissingError(
      `jericho ${JERICHO_VERSION} is not installed at ${VENV_PYTHON}: run \`npm run bench:jericho -- --games 905\` once to create the venv.`,
    );
  }
}

const Failure = z.object({ ok: z.literal(false), error: z.string(), traceback: z.string().optional() });
const Ok = z.object({ ok: z.literal(true) });
export const LoadReply = Ok.extend({ name: z.string(), seed: z.number(), walkthrough: z.array(z.string()) });
export const FactsReply = Ok.extend({ player: z.number().int(), worldObjects: z.number().int() });
export const RamReply = Ok.extend({ ram: z.string(), score: z.number(), moves: z.number() });
export const StepReply = Ok.extend({ observation: z.string(), done: z.boolean(), score: z.number() });

export class JerichoDriver {
  private readonly child: ChildProcess;
  private readonly replies: string[] = [];
  private readonly waiters: Array<{ resolve: (line: string) => void; reject: (e: Error) => void }> = [];
  private exited: Error | null = null;
  private stderrTail = '';

  constructor() {
    // Its own process group, so anything Jericho forks ends with it.
    this.child = spawn(VENV_PYTHON, ['-u', DRIVER], { stdio: ['pipe', 'pipe', 'pipe'], detached: true });
    this.child.stderr!.on('data', (d: Buffer) => {
      this.stderrTail = (this.stderrTail + d.toString()).slice(-4000);
    });
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      const waiter = this.waiters.shift();
      if (waiter) waiter.resolve(line);
      else this.replies.push(line);
    });
    const fail = (error: Error) => {
      this.exited = error;
      for (const waiter of this.waiters.splice(0)) waiter.reject(error);
    };
    this.child.on('exit', (code, signal) => {
      fail(new Error(`the Jericho driver exited (${signal ?? `code ${code}`}): ${this.stderrTail.trim().slice(-800)}`));
    });
    this.child.on('error', (e) => fail(new Error(`could not run the Jericho driver: ${e.message}`)));
  }

  private nextLine(): Promise<string> {
    const line = this.replies.shift();
    if (line !== undefined) return Promise.resolve(line);
    if (this.exited) return Promise.reject(this.exited);
    return new Promise((resolve, reject) => this.waiters.push({ resolve, reject }));
  }

  async ready(): Promise<void> {
    await this.parse('start-up', Ok.passthrough());
  }

  private async parse<T>(what: string, schema: z.ZodType<T>): Promise<T> {
    const line = await this.nextLine();
    let json: unknown;
    try {
      json = JSON.parse(line);
    } catch {
      throw new Error(`the Jericho driver's reply to ${what} is not JSON: ${line.slice(0, 200)}`);
    }
    const failed = Failure.safeParse(json);
    if (failed.success) throw new Error(`the Jericho driver failed on ${what}: ${failed.data.error}`);
    const parsed = schema.safeParse(json);
    if (!parsed.success) throw new Error(`the Jericho driver's reply to ${what} is not what was expected: ${parsed.error.message}`);
    return parsed.data;
  }

  request<T>(req: { op: string } & Record<string, unknown>, schema: z.ZodType<T>): Promise<T> {
    if (this.exited) return Promise.reject(this.exited);
    this.child.stdin!.write(JSON.stringify(req) + '\n');
    return this.parse(req.op, schema);
  }

  kill(): void {
    if (this.child.exitCode !== null || this.child.signalCode !== null || !this.child.pid) return;
    try {
      process.kill(-this.child.pid, 'SIGKILL');
    } catch {
      this.child.kill('SIGKILL');
    }
  }
}
