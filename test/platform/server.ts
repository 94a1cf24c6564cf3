/** A dev server the test owns (so it can kill and restart it on the same SQLite file). */
import { DevServer, freePort, startDevServer, TemporalSetupError } from '../../src/temporal/server';
import { temporalCli } from './env';

/**
 * Ports chosen free can be taken before the server binds them (the dev server opens more ports of
 * its own at random), so when the ports were ours to choose, a clash is retried on new ones.
 */
export async function ownServer(dataDir: string, port?: number, uiPort?: number): Promise<DevServer & { port: number; uiPort: number }> {
  for (let attempt = 1; ; attempt++) {
    const p = port ?? (await freePort());
    const u = uiPort ?? (await freePort());
    try {
      const server = await startDevServer({ cli: temporalCli(), dataDir, port: p, uiPort: u });
      return Object.assign(server, { port: p, uiPort: u });
    } catch (err) {
      const clash = err instanceof TemporalSetupError && /address already in use/.test(err.message);
      if (!clash || attempt === 3 || (port !== undefined && uiPort !== undefined)) throw err;
    }
  }
}

export { freePort };
