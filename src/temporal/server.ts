/**
 * A real Temporal server with no manual steps: use `temporal` from PATH or grue's cache, build
 * it from the Go module proxy when missing, and start `temporal server start-dev` (SQLite
 * persistence in the data folder, Web UI on) when nothing listens at TEMPORAL_ADDRESS.
 */
import { Connection } from '@temporalio/client';
import { execFileSync, spawn } from 'node:child_process';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, writeFileSync } from 'node:fs';
import { createConnection, createServer } from 'node:net';
import { join } from 'node:path';
import { cacheDir } from '../paths';
import { SEARCH_ATTRIBUTE_DEFINITIONS } from '../schemas/searchAttributes';

/** v1.5.1 is the newest CLI release whose go.mod has no `replace` lines, so `go install` works. */
export const TEMPORAL_CLI_MODULE = 'github.com/temporalio/cli/cmd/temporal@v1.5.1';

export class TemporalSetupError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemporalSetupError';
  }
}

function onPath(name: string): string | null {
  for (const dir of (process.env.PATH ?? '').split(':')) {
    const p = join(dir, name);
    if (dir && existsSync(p)) return p;
  }
  return null;
}

/** The Temporal CLI to use, or null: $TEMPORAL_CLI, then PATH, then grue's cache. */
export function findTemporalCli(): string | null {
  const explicit = process.env.TEMPORAL_CLI;
  if (explicit) {
    if (!existsSync(explicit)) throw new TemporalSetupError(`TEMPORAL_CLI points to ${explicit}, which does not exist.`);
    return explicit;
  }
  const cached = join(cacheDir(), 'bin', 'temporal');
  return onPath('temporal') ?? (existsSync(cached) ? cached : null);
}

/** Find the CLI, building it with `go install` into the cache if needed (a few minutes, once). */
export function ensureTemporalCli(log: (msg: string) => void = () => undefined): string {
  const found = findTemporalCli();
  if (found) return found;
  const go = onPath('go');
  if (!go) {
    throw new TemporalSetupError(
      'The Temporal CLI is not installed and Go is not available to build it. ' +
        'Install Go, or put a `temporal` binary on PATH (or set TEMPORAL_CLI).',
    );
  }
  const bin = join(cacheDir(), 'bin');
  mkdirSync(bin, { recursive: true });
  log(`building the Temporal CLI (${TEMPORAL_CLI_MODULE}) into ${bin}; this takes a few minutes, once`);
  try {
    execFileSync(go, ['install', TEMPORAL_CLI_MODULE], {
      env: { ...process.env, CGO_ENABLED: '0', GOBIN: bin, GOFLAGS: '-mod=mod' },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  } catch (err) {
    throw new TemporalSetupError(`Building the Temporal CLI failed: ${(err as Error).message}`);
  }
  const built = join(bin, 'temporal');
  if (!existsSync(built)) throw new TemporalSetupError(`go install finished but ${built} is missing.`);
  return built;
}

export function parseAddress(address: string): { host: string; port: number } {
  const m = /^\[?([^\]]+?)\]?:(\d+)$/.exec(address);
  if (!m) throw new TemporalSetupError(`TEMPORAL_ADDRESS must look like host:port, got "${address}".`);
  return { host: m[1], port: Number(m[2]) };
}

export function isListening(host: string, port: number, timeoutMs = 1000): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = createConnection({ host, port });
    const done = (ok: boolean) => {
      socket.destroy();
      resolve(ok);
    };
    socket.setTimeout(timeoutMs, () => done(false));
    socket.once('connect', () => done(true));
    socket.once('error', () => done(false));
  });
}

/**
 * A TCP port nothing listens on right now, kept from the next `bind(0)` for a minute (for servers
 * started by tests and benchmarks). Linux hands a port just closed to the next process asking for
 * any port: the dev server asks for several as it starts, and a CI run's server found its own
 * `--port` taken that way. A connection closed from the listening side leaves the port in
 * TIME_WAIT, which `bind(0)` skips, while a server that binds it by number (with SO_REUSEADDR, as
 * Go, Node and Python servers do) still can: the technique of the Temporal CLI's own free-port
 * helper (temporalcli/devserver/freeport.go).
 */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer((accepted) => accepted.destroy());
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      const client = createConnection(port, '127.0.0.1');
      client.once('error', reject);
      client.once('end', () => {
        client.destroy();
        srv.close(() => resolve(port));
      });
      client.resume();
    });
  });
}

const isLocal = (host: string) => ['localhost', '127.0.0.1', '::1', '0.0.0.0'].includes(host);

export interface DevServerOptions {
  cli: string;
  dataDir: string;
  port: number;
  uiPort: number;
  /** Keep running after this process exits (grue play), or die with it (tests). */
  detached?: boolean;
  /** How long to wait for it to listen, then to answer (60 s each by default). */
  readyTimeoutMs?: number;
}

export interface DevServer {
  pid: number;
  dbFile: string;
  logFile: string;
  stop(): Promise<void>;
}

export function devServerArgs(opts: { dbFile: string; port: number; uiPort: number }): string[] {
  const args = [
    'server',
    'start-dev',
    '--db-filename',
    opts.dbFile,
    '--port',
    String(opts.port),
    '--ui-port',
    String(opts.uiPort),
    '--ip',
    '127.0.0.1',
    '--log-level',
    'warn',
  ];
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTE_DEFINITIONS)) args.push('--search-attribute', `${name}=${type}`);
  return args;
}

/**
 * Start `temporal server start-dev` and wait until it answers: the port listens a while before the
 * frontend serves, and a client connecting then gets "Frontend is not healthy yet" (a CI run's
 * server test did, the machine loaded).
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  mkdirSync(opts.dataDir, { recursive: true });
  const dbFile = join(opts.dataDir, 'temporal.db');
  const logFile = join(opts.dataDir, 'temporal.log');
  const out = openSync(logFile, 'a');
  const child = spawn(opts.cli, devServerArgs({ dbFile, port: opts.port, uiPort: opts.uiPort }), {
    detached: opts.detached ?? false,
    stdio: ['ignore', out, out],
  });
  closeSync(out);
  if (opts.detached) child.unref();
  let exited: number | null = null;
  child.once('exit', (code) => (exited = code ?? -1));
  const readyMs = opts.readyTimeoutMs ?? 60_000;
  // Waits until `stage.notYet` gives null (else why not, or '' for no reason), the server exits, or `readyMs` pass.
  const waitFor = async (stage: { before: string; failed: string; notYet: () => Promise<string | null>; pollMs: number }) => {
    const deadline = Date.now() + readyMs;
    for (;;) {
      const why = await stage.notYet();
      if (why === null) return;
      if (exited !== null)
        throw new TemporalSetupError(
          `temporal server start-dev exited (code ${exited}) before ${stage.before}; see ${logFile}:\n${tail(logFile)}`,
        );
      if (Date.now() > deadline) {
        child.kill('SIGKILL');
        const reason = why ? ` (${why})` : '';
        throw new TemporalSetupError(`temporal server start-dev ${stage.failed} within ${readyMs / 1000} s${reason}; see ${logFile}.`);
      }
      await new Promise((r) => setTimeout(r, stage.pollMs));
    }
  };
  await waitFor({
    before: 'listening',
    failed: `did not listen on port ${opts.port}`,
    notYet: async () => ((await isListening('127.0.0.1', opts.port)) ? null : ''),
    pollMs: 200,
  });
  await waitFor({
    before: 'answering',
    failed: `listened on port ${opts.port} but did not answer`,
    notYet: () => frontendRefusal(`127.0.0.1:${opts.port}`),
    pollMs: 250,
  });
  writeFileSync(join(opts.dataDir, 'temporal.pid'), String(child.pid));
  return {
    pid: child.pid!,
    dbFile,
    logFile,
    stop: () =>
      new Promise<void>((resolve) => {
        if (exited !== null) return resolve();
        child.once('exit', () => resolve());
        child.kill('SIGTERM');
        setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
      }),
  };
}

/** Why the server at `address` does not answer a client yet (its connect asks for the system info), or null once it does. */
async function frontendRefusal(address: string): Promise<string | null> {
  try {
    const connection = await Connection.connect({ address, connectTimeout: 2_000 });
    await connection.close();
    return null;
  } catch (err) {
    return (err as Error).message;
  }
}

function tail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').split('\n').slice(-lines).join('\n');
  } catch {
    return '';
  }
}

/** Whether the dev server this data directory started (its temporal.pid) is still running. */
function startedHere(dataDir: string): boolean {
  let pid: number;
  try {
    pid = Number(readFileSync(join(dataDir, 'temporal.pid'), 'utf8').trim());
  } catch {
    return false;
  }
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    // EPERM: alive, but another user's.
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Make sure a server answers at `address`. A local address with nothing listening gets a dev
 * server (detached, so the Web UI outlives the command); a remote one must already be up.
 */
export async function ensureServer(opts: {
  address: string;
  dataDir: string;
  uiPort: number;
  /** Reached with TLS or an API key (a profile): a server someone runs, never a dev server of grue's own. */
  secure?: boolean;
  /** The address is the default nobody set: a server there that this data directory did not start is named in the log. */
  unchosenAddress?: boolean;
  log?: (msg: string) => void;
}): Promise<{ started: boolean }> {
  const { host, port } = parseAddress(opts.address);
  if (await isListening(host, port)) {
    // On the address nobody chose, a server this data directory did not start (another clone's,
    // another GRUE_DATA_DIR's) holds other runs: said, so nobody wonders where theirs have gone.
    if (opts.unchosenAddress && !startedHere(opts.dataDir))
      opts.log?.(
        `using the Temporal server already listening on ${opts.address}, which ${opts.dataDir} did not start: ` +
          'runs go to its history. For a server of this directory, stop that one or set TEMPORAL_ADDRESS to a free port.',
      );
    return { started: false };
  }
  if (opts.secure)
    throw new TemporalSetupError(
      `No Temporal server answers at ${opts.address}, which the profile reaches ` +
        `with TLS or an API key. Start it, or check the profile's address.`,
    );
  if (!isLocal(host)) {
    throw new TemporalSetupError(
      `No Temporal server answers at ${opts.address}. Start it, or unset TEMPORAL_ADDRESS to use a local dev server.`,
    );
  }
  const cli = ensureTemporalCli(opts.log);
  opts.log?.(`starting a Temporal dev server on ${opts.address} (data in ${opts.dataDir}, Web UI on port ${opts.uiPort})`);
  await startDevServer({ cli, dataDir: opts.dataDir, port, uiPort: opts.uiPort, detached: true });
  return { started: true };
}
