import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig, webUiUrl } from '../../src/config';
import {
  credentialsRejected,
  defaultConfigFile,
  plaintextUnanswered,
  refusedByServer,
  resolveTemporalTarget,
  TemporalProfileError,
} from '../../src/temporal/profile';
import { scratchDir } from '../helpers';

const PROFILES = `
[profile.default]
address = "file-default:7233"
namespace = "file-ns"

[profile.cloud]
address = "my-ns.a1b2c.tmprl.cloud:7233"
namespace = "my-ns.a1b2c"
api_key = "secret-key-123"

[profile.mtls]
address = "temporal.example.com:7233"
namespace = "prod"
[profile.mtls.tls]
client_cert_path = "/no/such/client.pem"
client_key_path = "/no/such/client.key"
server_name = "temporal.example.com"
`;

/** An environment with a home of its own: no profile file of the machine's leaks in. */
function home(withFile: boolean): NodeJS.ProcessEnv {
  const dir = scratchDir('profile');
  if (withFile) {
    mkdirSync(join(dir, '.config', 'temporalio'), { recursive: true });
    writeFileSync(join(dir, '.config', 'temporalio', 'temporal.toml'), PROFILES);
  }
  return { HOME: dir };
}

describe('Temporal profile resolution', () => {
  it('is the local dev server when nothing is configured', () => {
    const target = resolveTemporalTarget(home(false));
    expect(target).toMatchObject({ address: 'localhost:7233', namespace: 'default', profile: null, configFile: null, secure: false });
    expect(target.connection).toEqual({ address: 'localhost:7233' });
  });

  it('reads the default profile from ~/.config/temporalio/temporal.toml', () => {
    expect(resolveTemporalTarget(home(true))).toMatchObject({ address: 'file-default:7233', namespace: 'file-ns', secure: false });
  });

  it('lets TEMPORAL_* variables override the profile, field by field', () => {
    const target = resolveTemporalTarget({ ...home(true), TEMPORAL_NAMESPACE: 'env-ns' });
    expect(target).toMatchObject({ address: 'file-default:7233', namespace: 'env-ns' });
    expect(resolveTemporalTarget({ ...home(true), TEMPORAL_ADDRESS: 'env-host:1234' }).address).toBe('env-host:1234');
  });

  it('chooses the profile TEMPORAL_PROFILE (or --profile) names; an API key means TLS', () => {
    const target = resolveTemporalTarget({ ...home(true), TEMPORAL_PROFILE: 'cloud' });
    expect(target).toMatchObject({ address: 'my-ns.a1b2c.tmprl.cloud:7233', namespace: 'my-ns.a1b2c', profile: 'cloud', secure: true });
    expect(target.connection).toMatchObject({ apiKey: 'secret-key-123', tls: true });
    // The variable still wins over the chosen profile.
    expect(resolveTemporalTarget({ ...home(true), TEMPORAL_PROFILE: 'cloud', TEMPORAL_API_KEY: 'other' }).connection.apiKey).toBe('other');
  });

  it('loads TLS files from TEMPORAL_TLS_* variables', () => {
    const dir = scratchDir('tls-files');
    writeFileSync(join(dir, 'ca.pem'), 'CA BYTES');
    const target = resolveTemporalTarget({
      ...home(false),
      TEMPORAL_ADDRESS: 'tls-host:7233',
      TEMPORAL_TLS_SERVER_CA_CERT_PATH: join(dir, 'ca.pem'),
      TEMPORAL_TLS_SERVER_NAME: 'tls-host',
    });
    expect(target.secure).toBe(true);
    const tls = target.connection.tls as { serverRootCACertificate?: Buffer; serverNameOverride?: string };
    expect(Buffer.from(tls.serverRootCACertificate!).toString()).toBe('CA BYTES');
    expect(tls.serverNameOverride).toBe('tls-host');
  });

  it('names the profiles a file has when an unknown one is asked for', () => {
    expect(() => resolveTemporalTarget({ ...home(true), TEMPORAL_PROFILE: 'nope' })).toThrow(
      /profile "nope" is not in .*temporal\.toml; it has profiles "default", "cloud", "mtls"/,
    );
  });

  it('names the missing TLS file and the setting that points at it', () => {
    expect(() => resolveTemporalTarget({ ...home(true), TEMPORAL_PROFILE: 'mtls' })).toThrow(
      /the TLS file \/no\/such\/client\.pem \(client_cert_path .* of profile "mtls"\) does not exist/,
    );
  });

  it('refuses a config file or profile that is not there instead of silently using the dev server', () => {
    expect(() => resolveTemporalTarget({ ...home(false), TEMPORAL_CONFIG_FILE: '/no/such/temporal.toml' })).toThrow(TemporalProfileError);
    expect(() => resolveTemporalTarget({ ...home(false), TEMPORAL_PROFILE: 'cloud' })).toThrow(
      /profile "cloud" was asked for, but there is no config file/,
    );
  });

  it('says a malformed file cannot be read', () => {
    const dir = scratchDir('bad-toml');
    writeFileSync(join(dir, 'temporal.toml'), '[profile.default\naddress=');
    expect(() => resolveTemporalTarget({ ...home(false), TEMPORAL_CONFIG_FILE: join(dir, 'temporal.toml') })).toThrow(
      /cannot read .*temporal\.toml: .*TOML/,
    );
  });

  it('gives the CLI configuration the resolved address and namespace', () => {
    const config = loadConfig({ ...home(true), TEMPORAL_PROFILE: 'cloud' });
    expect(config.TEMPORAL_ADDRESS).toBe('my-ns.a1b2c.tmprl.cloud:7233');
    expect(config.TEMPORAL_NAMESPACE).toBe('my-ns.a1b2c');
  });

  it('tells a refused credential apart, without the key', () => {
    const target = resolveTemporalTarget({ ...home(true), TEMPORAL_PROFILE: 'cloud' });
    const refused = credentialsRejected(target, Object.assign(new Error('16 UNAUTHENTICATED: bad key secret-key-123'), { code: 16 }));
    expect(refused?.message).toMatch(/did not accept the TLS settings or credentials of profile "cloud"/);
    expect(refused?.message).not.toContain('secret-key-123');
    expect(
      credentialsRejected(resolveTemporalTarget(home(false)), Object.assign(new Error('16 UNAUTHENTICATED'), { code: 16 })),
    ).toBeNull();
  });

  it('looks for temporal.toml where envconfig and the temporal CLI do, per platform', () => {
    expect(defaultConfigFile({ HOME: '/home/ada' }, 'linux')).toBe('/home/ada/.config/temporalio/temporal.toml');
    expect(defaultConfigFile({ HOME: '/home/ada', XDG_CONFIG_HOME: '/xdg' }, 'linux')).toBe('/xdg/temporalio/temporal.toml');
    expect(defaultConfigFile({ HOME: '/Users/ada' }, 'darwin')).toBe('/Users/ada/Library/Application Support/temporalio/temporal.toml');
    expect(defaultConfigFile({ APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, 'win32')).toMatch(/temporalio.temporal\.toml$/);
    expect(defaultConfigFile({}, 'linux')).toBeNull();
    // No HOME: no file, the dev server.
    expect(resolveTemporalTarget({}).address).toBe('localhost:7233');
  });

  it('refuses an address without a port, naming where it was set', () => {
    const dir = scratchDir('bad-address');
    writeFileSync(join(dir, 'temporal.toml'), '[profile.default]\naddress = "temporal.example.com"\n');
    expect(() => resolveTemporalTarget({ ...home(false), TEMPORAL_CONFIG_FILE: join(dir, 'temporal.toml') })).toThrow(
      /^address of profile "default" in .*temporal\.toml \("temporal\.example\.com"\) must be host:port/,
    );
    expect(() => resolveTemporalTarget({ ...home(false), TEMPORAL_ADDRESS: 'localhost:99999' })).toThrow(
      /^TEMPORAL_ADDRESS \("localhost:99999"\) has a port outside 1-65535/,
    );
    expect(resolveTemporalTarget({ ...home(false), TEMPORAL_ADDRESS: '[::1]:7233' }).address).toBe('[::1]:7233');
  });

  it('tells a key without access apart from a key refused outright', () => {
    const target = resolveTemporalTarget({ ...home(true), TEMPORAL_PROFILE: 'cloud' });
    const denied = credentialsRejected(target, Object.assign(new Error('7 PERMISSION_DENIED: Request unauthorized'), { code: 7 }));
    expect(denied?.message).toMatch(/accepted the credentials of profile "cloud" but refused them access/);
    // The worker's connection (the SDK core) gives no number, only the code's description.
    const core = credentialsRejected(
      target,
      new Error('Failed to call GetSystemInfo: code: \'The request does not have valid authentication credentials\', message: "bad key"'),
    );
    expect(core?.message).toMatch(/did not accept the TLS settings or credentials of profile "cloud"/);
    expect(credentialsRejected(target, new Error('ECONNRESET'))).toBeNull();
  });

  it('maps a refusal past the connection to the profile of the environment', () => {
    const env = { ...home(true), TEMPORAL_PROFILE: 'cloud' };
    const refusal = refusedByServer(
      Object.assign(new Error('wrapped'), { cause: Object.assign(new Error('16 UNAUTHENTICATED: secret-key-123 expired'), { code: 16 }) }),
      env,
    );
    expect(refusal?.message).toMatch(/profile "cloud".*\*\*\* expired/);
    expect(refusal?.message).not.toContain('secret-key-123');
    expect(refusedByServer(Object.assign(new Error('5 NOT_FOUND'), { code: 5 }), env)).toBeNull();
    expect(
      refusedByServer(Object.assign(new Error('16 UNAUTHENTICATED'), { code: 16 }), { ...home(true), TEMPORAL_PROFILE: 'nope' }),
    ).toBeNull();
  });

  it('says TLS may be missing when plaintext gRPC gets no answer, only for a target without TLS', () => {
    const deadline = new Error('Failed to connect before the deadline');
    expect(plaintextUnanswered(resolveTemporalTarget(home(false)), deadline)?.message).toMatch(
      /did not answer plaintext gRPC .* TEMPORAL_TLS=true/,
    );
    expect(plaintextUnanswered(resolveTemporalTarget({ ...home(true), TEMPORAL_PROFILE: 'cloud' }), deadline)).toBeNull();
    expect(plaintextUnanswered(resolveTemporalTarget(home(false)), new Error('ECONNREFUSED'))).toBeNull();
  });

  it('links Temporal Cloud workflows to the Cloud UI, others to the server’s own', () => {
    const cloud = loadConfig({ ...home(true), TEMPORAL_PROFILE: 'cloud' });
    expect(webUiUrl(cloud, 'grue-play-1')).toBe('https://cloud.temporal.io/namespaces/my-ns.a1b2c/workflows/grue-play-1');
    expect(webUiUrl(loadConfig(home(false)))).toBe('http://localhost:8233/namespaces/default/workflows');
  });
});
