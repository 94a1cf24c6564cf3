/** A dev server the test owns (so it can kill and restart it on the same SQLite file). */
import { DevServer, freePort, startDevServer } from '../../src/temporal/server';
import { temporalCli } from './env';

export async function ownServer(dataDir: string, port?: number, uiPort?: number): Promise<DevServer & { port: number; uiPort: number }> {
  const p = port ?? (await freePort());
  const u = uiPort ?? (await freePort());
  const server = await startDevServer({ cli: temporalCli(), dataDir, port: p, uiPort: u });
  return Object.assign(server, { port: p, uiPort: u });
}

export { freePort };
