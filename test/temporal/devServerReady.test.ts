/**
 * A dev server is ready when it answers a client, not when its port listens: the frontend serves a
 * while after the port opens, and a client connecting in between is refused ("Frontend is not
 * healthy yet"). A stand-in for the CLI that listens and never answers must not pass for ready.
 */
import { chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { freePort, startDevServer, TemporalSetupError } from '../../src/temporal/server';
import { scratchDir } from '../helpers';

describe('starting a dev server', () => {
  it('waits for the server to answer, and says so when a listening port never does', async () => {
    const dir = scratchDir('dev-server-ready');
    const cli = join(dir, 'listens-only');
    // Takes the port from the arguments a dev server is started with, accepts connections, says nothing.
    writeFileSync(
      cli,
      `#!/usr/bin/env node
const port = Number(process.argv[process.argv.indexOf('--port') + 1]);
require('node:net').createServer(() => undefined).listen(port, '127.0.0.1');
`,
    );
    chmodSync(cli, 0o755);
    const start = startDevServer({
      cli,
      dataDir: join(dir, 'server'),
      port: await freePort(),
      uiPort: await freePort(),
      readyTimeoutMs: 3_000,
    });
    await expect(start).rejects.toThrow(TemporalSetupError);
    await expect(start).rejects.toThrow(/listened on port \d+ but did not answer within 3 s/);
  }, 30_000);
});
