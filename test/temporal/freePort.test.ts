/**
 * freePort's port stays out of the way of processes that ask the system for any port: the Temporal
 * dev server asks for several while it starts, and a CI run's server once found its own `--port`
 * handed to one of them. The port can still be listened on by number at once.
 */
import { createServer, Server } from 'node:net';
import { freePort } from '../../src/temporal/server';

const listenOn = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve(server));
  });
const portOf = (server: Server) => (server.address() as { port: number }).port;
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));

describe('freePort', () => {
  it('is not handed to the next thousands of listeners asking for any port', async () => {
    const chosen = new Set<number>();
    for (let i = 0; i < 20; i++) chosen.add(await freePort());
    const held: Server[] = [];
    try {
      for (let i = 0; i < 3000; i++) held.push(await listenOn(0));
      expect(held.map(portOf).filter((port) => chosen.has(port))).toEqual([]);
    } finally {
      await Promise.all(held.map(close));
    }
  }, 60_000);

  it('gives a port a server can listen on by number right away', async () => {
    const port = await freePort();
    const server = await listenOn(port);
    expect(portOf(server)).toBe(port);
    await close(server);
  });
});
