/**
 * Connection profiles from the command line: a profile that cannot work, and credentials a server
 * refuses, are one `grue: …` line and exit 2, never a stack, never the API key. The refusing
 * server is a stand-in for an authenticating Temporal frontend (Temporal Cloud answers a bad key
 * with UNAUTHENTICATED the same way): plain HTTP/2 answering each gRPC method as the test says.
 */
import { writeFileSync } from 'node:fs';
import { createServer, Http2Server } from 'node:http2';
import { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { connectWorkerConnection } from '../../src/temporal/connect';
import { TemporalProfileError } from '../../src/temporal/profile';
import { quietRuntime, tempDataDir } from '../platform/env';
import { grueProcess } from './grueProcess';
import { scratchDir } from '../helpers';

const API_KEY = 'sk-test-0123456789abcdef';
const grue = grueProcess;

/** One line of `grue: …`, without a stack, a usage page or the key. */
function expectOneGrueLine(stderr: string): void {
  expect(stderr).toMatch(/^grue: [^\n]+\n$/);
  expect(stderr).not.toMatch(/^\s+at /m);
  expect(stderr).not.toContain(API_KEY);
}

/** gRPC status per method (the last path segment): 0 answers with an empty message, which every response type accepts. */
type Answers = Record<string, number>;

/** A frontend that answers by method name, echoing the request's authorization header in every error (as a careless endpoint might). */
async function standInFrontend(answers: () => Answers): Promise<{ server: Http2Server; address: string; calls: string[] }> {
  const calls: string[] = [];
  const server = createServer();
  server.on('stream', (stream, headers) => {
    const method = String(headers[':path']).split('/').pop()!;
    calls.push(method);
    stream.resume();
    const status = answers()[method] ?? 12; // UNIMPLEMENTED for anything the test did not expect
    if (status === 0) {
      stream.respond({ ':status': 200, 'content-type': 'application/grpc' }, { waitForTrailers: true });
      stream.on('wantTrailers', () => stream.sendTrailers({ 'grpc-status': '0' }));
      stream.end(Buffer.from([0, 0, 0, 0, 0]));
      return;
    }
    const message = `refused ${method} for ${String(headers.authorization ?? 'no key')}`;
    stream.respond(
      { ':status': 200, 'content-type': 'application/grpc', 'grpc-status': String(status), 'grpc-message': encodeURIComponent(message) },
      { endStream: true },
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { server, address: `127.0.0.1:${(server.address() as AddressInfo).port}`, calls };
}

describe('grue --profile: profiles that cannot work', () => {
  const dir = scratchDir('cli-profile');
  const file = join(dir, 'temporal.toml');
  writeFileSync(
    file,
    [
      '[profile.default]',
      'address = "127.0.0.1:1"',
      '[profile.cloud]',
      'address = "my-ns.a1b2c.tmprl.cloud:7233"',
      'namespace = "my-ns.a1b2c"',
      `api_key = "${API_KEY}"`,
      '[profile.mtls]',
      'address = "temporal.example.com:7233"',
      '[profile.mtls.tls]',
      `server_ca_cert_path = "${join(dir, 'missing-ca.pem')}"`,
      '[profile.badaddress]',
      'address = "temporal.example.com"',
      '',
    ].join('\n'),
  );
  const env = { TEMPORAL_CONFIG_FILE: file, GRUE_DATA_DIR: tempDataDir() };

  it.each([
    [
      'an unknown profile after the subcommand',
      ['play', 'lighthouse', '--profile', 'staging'],
      {},
      /^grue: profile "staging" is not in .*temporal\.toml; it has profiles "default", "cloud", "mtls", "badaddress"\./,
    ],
    ['an unknown profile before the subcommand', ['--profile', 'staging', 'status', 'some-id'], {}, /^grue: profile "staging" is not in /],
    ['an unknown profile from TEMPORAL_PROFILE', ['list'], { TEMPORAL_PROFILE: 'staging' }, /^grue: profile "staging" is not in /],
    [
      'a missing CA file',
      ['campaign', 'lighthouse', '--profile', 'mtls'],
      {},
      /^grue: the TLS file .*missing-ca\.pem \(server_ca_cert_path \/ TEMPORAL_TLS_SERVER_CA_CERT_PATH of profile "mtls"\) does not exist\./,
    ],
    [
      'a CA file set by the variable',
      ['worker', '--profile', 'cloud'],
      { TEMPORAL_TLS_SERVER_CA_CERT_PATH: '/no/such/ca.pem' },
      /^grue: the TLS file \/no\/such\/ca\.pem \(server_ca_cert_path \/ TEMPORAL_TLS_SERVER_CA_CERT_PATH of profile "cloud"\)/,
    ],
    [
      'an address without a port',
      ['list', '--profile', 'badaddress'],
      {},
      /^grue: address of profile "badaddress" in .*temporal\.toml \("temporal\.example\.com"\) must be host:port/,
    ],
    [
      'an address variable without a port',
      ['list'],
      { TEMPORAL_ADDRESS: 'localhost' },
      /^grue: TEMPORAL_ADDRESS \("localhost"\) must be host:port/,
    ],
    [
      'a config file that is not there',
      ['play', 'lighthouse'],
      { TEMPORAL_CONFIG_FILE: join(dir, 'nowhere.toml') },
      /^grue: TEMPORAL_CONFIG_FILE is .*nowhere\.toml, which does not exist\./,
    ],
    ['an empty --profile', ['play', 'lighthouse', '--profile', ''], {}, /^grue: --profile must name a profile/],
  ])('%s', async (_name, args, extraEnv, message) => {
    const result = await grue(args as string[], { ...env, ...(extraEnv as NodeJS.ProcessEnv) });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message as RegExp);
    expectOneGrueLine(result.stderr);
  });

  it('a config file that is not TOML', async () => {
    const broken = join(dir, 'broken.toml');
    writeFileSync(broken, '[profile.default\naddress = ');
    const result = await grue(['play', 'lighthouse'], { ...env, TEMPORAL_CONFIG_FILE: broken });
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/^grue: cannot read .*broken\.toml: /);
    expectOneGrueLine(result.stderr);
  });

  it('shows --profile in every subcommand’s help', async () => {
    const result = await grue(['play', '--help'], env);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/--profile <name>/);
  });
});

describe('grue --profile against a server that checks credentials', () => {
  const dir = scratchDir('cli-refused');
  let frontend: Awaited<ReturnType<typeof standInFrontend>>;
  let answers: Answers = {};
  let env: NodeJS.ProcessEnv;

  beforeAll(async () => {
    quietRuntime();
    frontend = await standInFrontend(() => answers);
    const file = join(dir, 'temporal.toml');
    // TLS off: the stand-in speaks plaintext; what is tested is what a refusal becomes.
    writeFileSync(
      file,
      `[profile.cloud]\naddress = "${frontend.address}"\nnamespace = "my-ns.a1b2c"\napi_key = "${API_KEY}"\n[profile.cloud.tls]\ndisabled = true\n`,
    );
    env = { TEMPORAL_CONFIG_FILE: file, GRUE_DATA_DIR: tempDataDir() };
  });

  afterAll(async () => {
    await new Promise((resolve) => frontend?.server.close(resolve));
  });

  it('a rejected API key: `grue play --profile cloud` names the server and the profile, not the key', async () => {
    answers = { GetSystemInfo: 16 };
    const result = await grue(['play', 'lighthouse', '--policy', 'random', '--profile', 'cloud'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      new RegExp(
        `^grue: the Temporal server at ${frontend.address} did not accept the TLS settings or credentials of profile "cloud" .*UNAUTHENTICATED`,
      ),
    );
    // The stand-in echoed the key back: it is masked.
    expect(result.stderr).toContain('Bearer ***');
    expectOneGrueLine(result.stderr);
  });

  it('a rejected API key on the worker side (the SDK core’s connection)', async () => {
    answers = { GetSystemInfo: 16 };
    const config = loadConfig({
      ...process.env,
      TEMPORAL_ADDRESS: undefined,
      TEMPORAL_NAMESPACE: undefined,
      ...env,
      TEMPORAL_PROFILE: 'cloud',
    });
    const refused = await connectWorkerConnection(config).then(
      (connection) => connection.close().then(() => null),
      (err: unknown) => err,
    );
    if (!(refused instanceof TemporalProfileError)) throw new Error(`not a profile error: ${String(refused)}`);
    expect(refused.message).toMatch(/did not accept the TLS settings or credentials of profile "cloud"/);
    expect(refused.message).not.toContain(API_KEY);
  });

  it('a key the worker side may not use (PERMISSION_DENIED from the SDK core’s connection)', async () => {
    answers = { GetSystemInfo: 7 };
    const config = loadConfig({
      ...process.env,
      TEMPORAL_ADDRESS: undefined,
      TEMPORAL_NAMESPACE: undefined,
      ...env,
      TEMPORAL_PROFILE: 'cloud',
    });
    await expect(connectWorkerConnection(config)).rejects.toThrow(/accepted the credentials of profile "cloud" but refused them access/);
  });

  it('a key without access to the namespace: the first call it may not make says so', async () => {
    answers = { GetSystemInfo: 0, ListSearchAttributes: 7, ListWorkflowExecutions: 7 };
    const result = await grue(['list', '--profile', 'cloud'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^grue: the Temporal server at .* accepted the credentials of profile "cloud" but refused them access: give its API key or certificate a role on the namespace/,
    );
    expectOneGrueLine(result.stderr);
  });

  it('search attributes the server will not register: which ones, and the commands that do', async () => {
    answers = { GetSystemInfo: 0, ListSearchAttributes: 0, AddSearchAttributes: 7 };
    const result = await grue(['list', '--profile', 'cloud'], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(
      /^grue: grue's search attributes GrueGame \(Keyword\), GrueScore \(Int\), GrueTurn \(Int\) are not registered on namespace "my-ns\.a1b2c"/,
    );
    expect(result.stderr).toContain(
      'tcld namespace search-attributes add -n my-ns.a1b2c --sa "GrueGame=Keyword" --sa "GrueScore=Int" --sa "GrueTurn=Int"',
    );
    expectOneGrueLine(result.stderr);
  });
});
