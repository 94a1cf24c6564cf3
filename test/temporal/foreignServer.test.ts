/**
 * On the default address, a server that the data directory did not start (a clean clone's
 * leftover `grue play` server, another GRUE_DATA_DIR's) is used, and said so: runs go to its history.
 */
import { writeFileSync, mkdirSync } from 'node:fs';
import { createServer, Server } from 'node:net';
import { join } from 'node:path';
import { ensureServer, freePort } from '../../src/temporal/server';
import { scratchDir } from '../helpers';

describe('a server already listening', () => {
  let listener: Server;
  let address = '';
  beforeAll(async () => {
    const port = await freePort();
    listener = createServer((socket) => socket.end());
    await new Promise<void>((resolve) => listener.listen(port, '127.0.0.1', resolve));
    address = `127.0.0.1:${port}`;
  });
  afterAll(() => new Promise<void>((resolve) => listener.close(() => resolve())));

  const ensure = async (dataDir: string, unchosenAddress: boolean) => {
    const lines: string[] = [];
    const { started } = await ensureServer({ address, dataDir, uiPort: 1, unchosenAddress, log: (line) => lines.push(line) });
    expect(started).toBe(false);
    return lines;
  };

  it('on the default address, not started from this data directory: used, and named', async () => {
    const dataDir = scratchDir('foreign-server');
    const lines = await ensure(dataDir, true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toContain(`using the Temporal server already listening on ${address}, which ${dataDir} did not start`);
  });

  it('started from this data directory (its temporal.pid runs): used without a word', async () => {
    const dataDir = scratchDir('own-server');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'temporal.pid'), String(process.pid));
    expect(await ensure(dataDir, true)).toEqual([]);
  });

  it('a dead temporal.pid is not this directory’s server', async () => {
    const dataDir = scratchDir('dead-server');
    mkdirSync(dataDir, { recursive: true });
    writeFileSync(join(dataDir, 'temporal.pid'), '999999999');
    expect(await ensure(dataDir, true)).toHaveLength(1);
  });

  it('an address someone set: used without a word', async () => {
    expect(await ensure(scratchDir('chosen-address'), false)).toEqual([]);
  });
});
