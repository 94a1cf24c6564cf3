import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config';
import { credentialsRejected, resolveTemporalTarget, TemporalProfileError } from '../../src/temporal/profile';

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
  const dir = mkdtempSync(join(tmpdir(), 'grue-profile-'));
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
    const dir = mkdtempSync(join(tmpdir(), 'grue-tls-files-'));
    writeFileSync(join(dir, 'ca.pem'), 'CA BYTES');
    const target = resolveTemporalTarget({ ...home(false), TEMPORAL_ADDRESS: 'tls-host:7233', TEMPORAL_TLS_SERVER_CA_CERT_PATH: join(dir, 'ca.pem'), TEMPORAL_TLS_SERVER_NAME: 'tls-host' });
    expect(target.secure).toBe(true);
    const tls = target.connection.tls as { serverRootCACertificate?: Buffer; serverNameOverride?: string };
    expect(Buffer.from(tls.serverRootCACertificate!).toString()).toBe('CA BYTES');
    expect(tls.serverNameOverride).toBe('tls-host');
  });

  it('names the profiles a file has when an unknown one is asked for', () => {
    expect(() => resolveTemporalTarget({ ...home(true), TEMPORAL_PROFILE: 'nope' })).toThrow(/profile "nope" is not in .*temporal\.toml; it has profiles "default", "cloud", "mtls"/);
  });

  it('names the missing TLS file and the setting that points at it', () => {
    expect(() => resolveTemporalTarget({ ...home(true), TEMPORAL_PROFILE: 'mtls' })).toThrow(/the TLS file \/no\/such\/client\.pem \(client_cert_path .* of profile "mtls"\) does not exist/);
  });

  it('refuses a config file or profile that is not there instead of silently using the dev server', () => {
    expect(() => resolveTemporalTarget({ ...home(false), TEMPORAL_CONFIG_FILE: '/no/such/temporal.toml' })).toThrow(TemporalProfileError);
    expect(() => resolveTemporalTarget({ ...home(false), TEMPORAL_PROFILE: 'cloud' })).toThrow(/profile "cloud" was asked for, but there is no config file/);
  });

  it('says a malformed file cannot be read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'grue-bad-toml-'));
    writeFileSync(join(dir, 'temporal.toml'), '[profile.default\naddress=');
    expect(() => resolveTemporalTarget({ ...home(false), TEMPORAL_CONFIG_FILE: join(dir, 'temporal.toml') })).toThrow(/cannot read .*temporal\.toml: .*TOML/);
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
    expect(credentialsRejected(resolveTemporalTarget(home(false)), Object.assign(new Error('16 UNAUTHENTICATED'), { code: 16 }))).toBeNull();
  });
});
