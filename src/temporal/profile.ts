/**
 * Where grue's Temporal is, resolved the way every Temporal tool resolves it: a profile from
 * `temporal.toml` (TEMPORAL_CONFIG_FILE, else ~/.config/temporalio/temporal.toml), chosen by
 * `--profile` / TEMPORAL_PROFILE (else "default"), with the standard TEMPORAL_* variables
 * (address, namespace, API key, TLS cert/key/CA, server name) overriding it. Parsing is
 * @temporalio/envconfig's, so a profile means here what it means to the `temporal` CLI. With
 * nothing configured it is the local dev server that grue starts itself.
 */
import { loadClientConfig, loadClientConfigProfile, toClientOptions } from '@temporalio/envconfig';
import type { NativeConnectionOptions } from '@temporalio/worker';
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

export const DEFAULT_ADDRESS = 'localhost:7233';
export const DEFAULT_NAMESPACE = 'default';

/** A profile, config file or credential that cannot work: the person fixes it (the CLI exits 2). */
export class TemporalProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemporalProfileError';
  }
}

export interface TemporalTarget {
  address: string;
  namespace: string;
  /** The profile asked for, or null when none was (the file's "default" profile applies if present). */
  profile: string | null;
  /** The config file read, or null when there was none. */
  configFile: string | null;
  /** TLS or an API key: never a dev server of grue's own, and a refusal is a credentials problem. */
  secure: boolean;
  /** What both Connection.connect (client) and NativeConnection.connect (worker) take. */
  connection: Pick<NativeConnectionOptions, 'address' | 'tls' | 'apiKey' | 'metadata'>;
}

export function defaultConfigFile(env: NodeJS.ProcessEnv): string {
  return join(env.XDG_CONFIG_HOME || join(env.HOME || homedir(), '.config'), 'temporalio', 'temporal.toml');
}

export function resolveTemporalTarget(env: NodeJS.ProcessEnv = process.env): TemporalTarget {
  const explicitFile = env.TEMPORAL_CONFIG_FILE || undefined;
  const file = explicitFile ?? defaultConfigFile(env);
  const fileExists = existsSync(file);
  const profile = env.TEMPORAL_PROFILE || null;
  if (explicitFile && !fileExists) throw new TemporalProfileError(`TEMPORAL_CONFIG_FILE is ${explicitFile}, which does not exist.`);
  if (profile && !fileExists) throw new TemporalProfileError(`profile "${profile}" was asked for, but there is no config file at ${file} (set TEMPORAL_CONFIG_FILE, or create it as the temporal CLI does: temporal config set --profile ${profile} ...).`);
  const overrideEnvVars = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  let loaded: ReturnType<typeof loadClientConfigProfile>;
  try {
    loaded = loadClientConfigProfile({ ...(profile ? { profile } : {}), ...(fileExists ? { configSource: { path: file } } : { disableFile: true }), overrideEnvVars });
  } catch (err) {
    const message = messageOf(err);
    if (/Profile '.*' not found/.test(message)) throw new TemporalProfileError(`profile "${profile}" is not in ${file}; it has ${profileNames(file)}.`);
    throw new TemporalProfileError(`cannot read ${file}: ${message.split('\n')[0]}`);
  }
  let options: ReturnType<typeof toClientOptions>;
  try {
    options = toClientOptions(loaded);
  } catch (err) {
    // envconfig reads the TLS files here: a missing one is named with the setting that points at it.
    const missing = /ENOENT: no such file or directory, open '(.*)'/.exec(messageOf(err))?.[1];
    if (missing) throw new TemporalProfileError(`the TLS file ${missing} (${tlsSettingOf(loaded.tls, missing)}${profile ? ` of profile "${profile}"` : ''}) does not exist.`);
    throw new TemporalProfileError(`the TLS settings${profile ? ` of profile "${profile}"` : ''} cannot be used: ${messageOf(err)}`);
  }
  const tls = options.connectionOptions.tls;
  const address = options.connectionOptions.address ?? DEFAULT_ADDRESS;
  return {
    address,
    namespace: options.namespace ?? DEFAULT_NAMESPACE,
    profile,
    configFile: fileExists ? file : null,
    secure: Boolean(tls) || options.connectionOptions.apiKey !== undefined,
    connection: {
      address,
      ...(tls !== undefined ? { tls } : {}),
      ...(options.connectionOptions.apiKey !== undefined ? { apiKey: options.connectionOptions.apiKey } : {}),
      ...(options.connectionOptions.metadata ? { metadata: options.connectionOptions.metadata } : {}),
    },
  };
}

/** An error's message, whatever realm threw it (envconfig's fs errors fail instanceof Error under jest). */
function messageOf(err: unknown): string {
  const message = (err as { message?: unknown } | null)?.message;
  return typeof message === 'string' ? message : String(err);
}

function profileNames(file: string): string {
  try {
    const names = Object.keys(loadClientConfig({ configSource: { path: file }, overrideEnvVars: {} }).profiles);
    return names.length ? `profiles ${names.map((name) => `"${name}"`).join(', ')}` : 'no profiles';
  } catch {
    return 'no readable profiles';
  }
}

function tlsSettingOf(tls: ReturnType<typeof loadClientConfigProfile>['tls'], path: string): string {
  const pathOf = (source: unknown) => (source && typeof source === 'object' && 'path' in source ? (source as { path: string }).path : undefined);
  if (pathOf(tls?.clientCert) === path) return 'client_cert_path / TEMPORAL_TLS_CLIENT_CERT_PATH';
  if (pathOf(tls?.clientKey) === path) return 'client_key_path / TEMPORAL_TLS_CLIENT_KEY_PATH';
  if (pathOf(tls?.serverCACert) === path) return 'server_ca_cert_path / TEMPORAL_TLS_SERVER_CA_CERT_PATH';
  return 'a TLS setting';
}

/**
 * A refused connection to a server reached with credentials, told as what it is. The gRPC codes
 * are UNAUTHENTICATED (16) and PERMISSION_DENIED (7); a TLS failure shows in the transport's message.
 */
export function credentialsRejected(target: TemporalTarget, err: unknown): TemporalProfileError | null {
  if (!target.secure) return null;
  const code = (err as { code?: unknown })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code;
  const text = `${messageOf(err)} ${(err as { cause?: Error })?.cause?.message ?? ''}`;
  // A failed TLS handshake reaches the Node client only as a connect deadline (the port itself answered: see ensureServer).
  if (code !== 16 && code !== 7 && !/tls|certificate|handshake|unauthenticated|permission denied|invalid api key|unauthorized|failed to connect before the deadline/i.test(text)) return null;
  const who = target.profile ? `profile "${target.profile}"` : 'the TEMPORAL_* settings';
  // The API key never appears here, even if the server echoed it back.
  const reason = text.trim().split('\n')[0].replace(target.connection.apiKey ?? '\u0000', '***');
  return new TemporalProfileError(`the Temporal server at ${target.address} did not accept the TLS settings or credentials of ${who} (its CA, server name, client certificate and key, API key): ${reason}`);
}
