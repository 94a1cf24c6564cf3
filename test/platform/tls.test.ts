/**
 * A TLS connection end to end. `temporal server start-dev` serves plaintext only (its CLI has no
 * TLS flags), so the test puts a TLS-terminating proxy with a self-signed certificate in front of
 * it, as a load balancer does in front of a cluster: the client and the worker reach the server
 * only through TLS, with the CA and server name from a profile, and an episode plays through it.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import { connect as netConnect, Server } from 'node:net';
import { join } from 'node:path';
import { createServer as createTlsServer } from 'node:tls';
import { loadConfig } from '../../src/config';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { connectClient, connectWorkerConnection } from '../../src/temporal/connect';
import { TemporalProfileError } from '../../src/temporal/profile';
import { DevServer, ensureTemporalCli, freePort, startDevServer } from '../../src/temporal/server';
import { createGrueWorker } from '../../src/worker';
import { episodeWorkflow } from '../../src/workflows';
import { grueProcess } from '../cli/grueProcess';
import { quietRuntime, tempDataDir, uniqueQueue, workflowBundle } from './env';
import { scratchDir } from '../helpers';

/** A CA and a server certificate for localhost, made by openssl (part of every Debian image). */
function makeCertificates(dir: string, name: string): { ca: string; key: string; cert: string } {
  const file = (suffix: string) => join(dir, `${name}-${suffix}`);
  const openssl = (...args: string[]) => execFileSync('openssl', args, { stdio: 'pipe' });
  openssl(
    'req',
    '-x509',
    '-newkey',
    'rsa:2048',
    '-nodes',
    '-days',
    '1',
    '-subj',
    `/CN=${name} test CA`,
    '-keyout',
    file('ca.key'),
    '-out',
    file('ca.pem'),
  );
  openssl('req', '-newkey', 'rsa:2048', '-nodes', '-subj', '/CN=localhost', '-keyout', file('server.key'), '-out', file('server.csr'));
  writeFileSync(file('ext.cnf'), 'subjectAltName=DNS:localhost,IP:127.0.0.1\n');
  openssl(
    'x509',
    '-req',
    '-in',
    file('server.csr'),
    '-CA',
    file('ca.pem'),
    '-CAkey',
    file('ca.key'),
    '-CAcreateserial',
    '-days',
    '1',
    '-extfile',
    file('ext.cnf'),
    '-out',
    file('server.pem'),
  );
  return { ca: file('ca.pem'), key: file('server.key'), cert: file('server.pem') };
}

describe('a Temporal server reached over TLS through a profile', () => {
  const dir = scratchDir('tls');
  let server: DevServer;
  let proxy: Server;
  let tlsPort = 0;
  let certificates: { ca: string; key: string; cert: string };
  let otherCa: string;

  beforeAll(async () => {
    quietRuntime();
    certificates = makeCertificates(dir, 'grue');
    otherCa = makeCertificates(dir, 'other').ca;
    const port = await freePort();
    server = await startDevServer({ cli: ensureTemporalCli(), dataDir: join(dir, 'server'), port, uiPort: await freePort() });
    // gRPC over TLS needs ALPN h2; behind the proxy the same HTTP/2 bytes go to the server in plaintext.
    proxy = createTlsServer(
      { key: readFileSync(certificates.key), cert: readFileSync(certificates.cert), ALPNProtocols: ['h2'] },
      (socket) => {
        const upstream = netConnect(port, '127.0.0.1');
        socket.pipe(upstream).pipe(socket);
        socket.on('error', () => upstream.destroy());
        upstream.on('error', () => socket.destroy());
      },
    );
    tlsPort = await freePort();
    await new Promise<void>((resolve) => proxy.listen(tlsPort, '127.0.0.1', resolve));
  }, 120_000);

  afterAll(async () => {
    await new Promise((resolve) => proxy?.close(resolve));
    await server?.stop();
  });

  /** A profile file naming the TLS endpoint and a CA. */
  function profileEnv(ca: string): NodeJS.ProcessEnv {
    const file = join(dir, `temporal-${ca.includes('other') ? 'other' : 'grue'}.toml`);
    writeFileSync(
      file,
      `[profile.secure]\naddress = "127.0.0.1:${tlsPort}"\nnamespace = "default"\n[profile.secure.tls]\nserver_ca_cert_path = "${ca}"\nserver_name = "localhost"\n`,
    );
    return {
      ...process.env,
      TEMPORAL_CONFIG_FILE: file,
      TEMPORAL_PROFILE: 'secure',
      TEMPORAL_ADDRESS: undefined,
      TEMPORAL_NAMESPACE: undefined,
      GRUE_DATA_DIR: tempDataDir(),
    };
  }

  it('plays an episode with the client and the worker both connected over TLS', async () => {
    const config = loadConfig(profileEnv(certificates.ca));
    expect(config.temporal).toMatchObject({ address: `127.0.0.1:${tlsPort}`, secure: true, profile: 'secure' });
    const client = await connectClient(config);
    const connection = await connectWorkerConnection(config);
    const taskQueue = uniqueQueue('tls');
    const worker = await createGrueWorker({
      connection,
      namespace: 'default',
      taskQueue,
      dataDir: config.GRUE_DATA_DIR,
      workflowBundle: await workflowBundle(),
    });
    try {
      const result = await worker.runUntil(
        client.workflow.execute(episodeWorkflow, {
          taskQueue,
          workflowId: `tls-${Date.now()}`,
          args: [{ config: resolveEpisodeConfig({ game: 'lighthouse', policy: 'random', maxTurns: 3, seed: 1 }) }],
        }),
      );
      expect(result.turns).toBe(3);
    } finally {
      await connection.close();
      await client.connection.close();
    }
  }, 180_000);

  it('refuses a server whose certificate the profile’s CA did not sign, as a credentials error', async () => {
    const config = loadConfig(profileEnv(otherCa));
    const refused = await connectClient(config).then(
      (client) => client.connection.close().then(() => null),
      (err: unknown) => err,
    );
    if (!(refused instanceof TemporalProfileError))
      throw new Error(`not a profile error: ${String(refused)} / cause ${String((refused as { cause?: unknown })?.cause)}`);
    expect((refused as Error).message).toMatch(
      new RegExp(`the Temporal server at 127\\.0\\.0\\.1:${tlsPort} did not accept the TLS settings or credentials of profile "secure"`),
    );
  }, 60_000);

  it('refuses it on the worker side too (the SDK core’s TLS)', async () => {
    const config = loadConfig(profileEnv(otherCa));
    await expect(connectWorkerConnection(config)).rejects.toThrow(
      new RegExp(`the Temporal server at 127\\.0\\.0\\.1:${tlsPort} did not accept the TLS settings or credentials of profile "secure"`),
    );
  }, 60_000);

  it('cannot reach the TLS endpoint without TLS, and says TLS may be what is missing', async () => {
    // A home without a profile file: only the address, no TLS.
    const config = loadConfig({
      ...profileEnv(certificates.ca),
      TEMPORAL_PROFILE: undefined,
      TEMPORAL_CONFIG_FILE: undefined,
      HOME: dir,
      TEMPORAL_ADDRESS: `127.0.0.1:${tlsPort}`,
    });
    expect(config.temporal.secure).toBe(false);
    await expect(connectClient(config)).rejects.toThrow(
      /did not answer plaintext gRPC before the connect deadline: if it wants TLS or an API key, connect through a profile/,
    );
  }, 60_000);

  it('from the command line: `grue list --profile secure` over TLS; a wrong CA is one grue line, exit 2', async () => {
    const { TEMPORAL_PROFILE: _profile, ...env } = profileEnv(certificates.ca);
    const listed = await grueProcess(['list', '--profile', 'secure'], env);
    expect(listed.stderr).toBe('');
    expect(listed.code).toBe(0);
    const { TEMPORAL_PROFILE: _other, ...wrongCa } = profileEnv(otherCa);
    const refused = await grueProcess(['list', '--profile', 'secure'], wrongCa);
    expect(refused.code).toBe(2);
    expect(refused.stderr).toMatch(
      /^grue: the Temporal server at 127\.0\.0\.1:\d+ did not accept the TLS settings or credentials of profile "secure"[^\n]*\n$/,
    );
  }, 120_000);
});
