/** A dev server the test owns (so it can kill and restart it on the same SQLite file). */
import { createServer } from 'node:net';
import { DevServer, startDevServer } from '../../src/temporal/server';
import { temporalCli } from './env';

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = createServer();
    srv.once('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as { port: number };
      srv.close(() => resolve(port));
    });
  });
}

export async function ownServer(dataDir: string, port?: number, uiPort?: number): Promise<DevServer & { port: number; uiPort: number }> {
  const p = port ?? (await freePort());
  const u = uiPort ?? (await freePort());
  const server = await startDevServer({ cli: temporalCli(), dataDir, port: p, uiPort: u });
  return Object.assign(server, { port: p, uiPort: u });
}
