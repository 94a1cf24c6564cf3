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
import { isAbsolute, join } from 'node:path';
import { z } from 'zod';

export const DEFAULT_ADDRESS = 'localhost:7233';
export const DEFAULT_NAMESPACE = 'default';

/** A profile, config file or credential that cannot work: the person fixes it (the CLI exits 2). */
export class TemporalProfileError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'TemporalProfileError';
  }
}

/** What both Connection.connect (client) and NativeConnection.connect (worker) take. */
export type TemporalConnectionOptions = Pick<NativeConnectionOptions, 'address' | 'tls' | 'apiKey' | 'metadata'>;

/** host:port, the host a name, an IPv4 address or a bracketed IPv6 address (what both SDK connections accept). */
const ADDRESS = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9_.-]+):(\d{1,5})$/;

const TemporalTargetSchema = z.object({
  address: z
    .string()
    .regex(ADDRESS, 'must be host:port, such as localhost:7233 or my-ns.a1b2c.tmprl.cloud:7233')
    .refine((address) => {
      const port = ADDRESS.exec(address)?.[1];
      return port === undefined || (Number(port) >= 1 && Number(port) <= 65535); // no port at all: the regex said so
    }, 'has a port outside 1-65535'),
  namespace: z.string().min(1, 'must not be empty').regex(/^\S+$/, 'must not contain spaces'),
  /** The profile asked for, or null when none was (the file's "default" profile applies if present). */
  profile: z.string().min(1).nullable(),
  /** The config file read, or null when there was none. */
  configFile: z.string().nullable(),
  /** TLS or an API key: never a dev server of grue's own, and a refusal is a credentials problem. */
  secure: z.boolean(),
  // The TLS buffers and key come from envconfig, which has checked their shape; only their presence matters here.
  connection: z.custom<TemporalConnectionOptions>(
    (value) => typeof value === 'object' && value !== null && typeof (value as { address?: unknown }).address === 'string',
  ),
});
export type TemporalTarget = z.infer<typeof TemporalTargetSchema>;

/**
 * Where envconfig looks when TEMPORAL_CONFIG_FILE is unset, per platform as it computes it (it
 * does not export this): null when the environment names no config folder.
 */
export function defaultConfigFile(env: NodeJS.ProcessEnv, platform: NodeJS.Platform = process.platform): string | null {
  const under = (dir: string | undefined) => (dir ? join(dir, 'temporalio', 'temporal.toml') : null);
  if (platform === 'win32') return under(env.APPDATA);
  if (platform === 'darwin') return under(env.HOME && join(env.HOME, 'Library', 'Application Support'));
  if (env.XDG_CONFIG_HOME) return isAbsolute(env.XDG_CONFIG_HOME) ? under(env.XDG_CONFIG_HOME) : null;
  return under(env.HOME && join(env.HOME, '.config'));
}

export function resolveTemporalTarget(env: NodeJS.ProcessEnv = process.env): TemporalTarget {
  const explicitFile = env.TEMPORAL_CONFIG_FILE || undefined;
  const file = explicitFile ?? defaultConfigFile(env);
  const fileExists = file !== null && existsSync(file);
  const profile = env.TEMPORAL_PROFILE || null;
  if (explicitFile && !fileExists) throw new TemporalProfileError(`TEMPORAL_CONFIG_FILE is ${explicitFile}, which does not exist.`);
  if (profile && !fileExists)
    throw new TemporalProfileError(
      `profile "${profile}" was asked for, but there is no config file at ${file ?? '(no HOME to look in)'} (set ` +
        `TEMPORAL_CONFIG_FILE, or create it as the temporal CLI does: temporal config set --profile ${profile} ...).`,
    );
  const overrideEnvVars = Object.fromEntries(Object.entries(env).filter((entry): entry is [string, string] => entry[1] !== undefined));
  let loaded: ReturnType<typeof loadClientConfigProfile>;
  try {
    loaded = loadClientConfigProfile({
      ...(profile ? { profile } : {}),
      ...(fileExists ? { configSource: { path: file } } : { disableFile: true }),
      overrideEnvVars,
    });
  } catch (err) {
    const message = messageOf(err);
    if (/Profile '.*' not found/.test(message))
      throw new TemporalProfileError(`profile "${profile}" is not in ${file}; it has ${profileNames(file!)}.`);
    throw new TemporalProfileError(`cannot read ${file}: ${message.split('\n')[0]}`);
  }
  let options: ReturnType<typeof toClientOptions>;
  try {
    options = toClientOptions(loaded);
  } catch (err) {
    // envconfig reads the TLS files here: a missing one is named with the setting that points at it.
    const missing = /ENOENT: no such file or directory, open '(.*)'/.exec(messageOf(err))?.[1];
    if (missing)
      throw new TemporalProfileError(
        `the TLS file ${missing} (${tlsSettingOf(loaded.tls, missing)}${profile ? ` of profile "${profile}"` : ''}) does not exist.`,
      );
    throw new TemporalProfileError(`the TLS settings${profile ? ` of profile "${profile}"` : ''} cannot be used: ${messageOf(err)}`);
  }
  const tls = options.connectionOptions.tls;
  const address = options.connectionOptions.address ?? DEFAULT_ADDRESS;
  const parsed = TemporalTargetSchema.safeParse({
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
  });
  if (!parsed.success) {
    // Each field is named where it was set: the variable when it overrides, else the profile's key in the file.
    const origin = (field: string) => {
      const variable = `TEMPORAL_${field.toUpperCase()}`;
      if (env[variable] !== undefined) return variable;
      return `${field} of profile "${profile ?? 'default'}" in ${file}`;
    };
    const issues = parsed.error.issues.map((issue) => {
      const field = String(issue.path[0]);
      const value =
        field === 'address' || field === 'namespace' ? ` (${JSON.stringify(field === 'address' ? address : options.namespace)})` : '';
      return `${origin(field)}${value} ${issue.message}`;
    });
    throw new TemporalProfileError(`${issues.join('; ')}.`);
  }
  return parsed.data;
}

/**
 * A server that answers neither gRPC nor TLS refusals within the connect deadline, though its port
 * is open (ensureServer checked): most often a server that wants TLS reached in plaintext.
 */
export function plaintextUnanswered(target: TemporalTarget, err: unknown): TemporalProfileError | null {
  if (target.secure || !/failed to connect before the deadline/i.test(messageOf(err))) return null;
  return new TemporalProfileError(
    `the Temporal server at ${target.address} did not answer plaintext gRPC before the ` +
      `connect deadline: if it wants TLS or an API key, connect through a profile that has ` +
      `them (--profile <name>, or TEMPORAL_TLS=true, TEMPORAL_TLS_SERVER_CA_CERT_PATH, ` +
      `TEMPORAL_API_KEY); otherwise check that it is a Temporal frontend and not overloaded.`,
  );
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
  const pathOf = (source: unknown) =>
    source && typeof source === 'object' && 'path' in source ? (source as { path: string }).path : undefined;
  if (pathOf(tls?.clientCert) === path) return 'client_cert_path / TEMPORAL_TLS_CLIENT_CERT_PATH';
  if (pathOf(tls?.clientKey) === path) return 'client_key_path / TEMPORAL_TLS_CLIENT_KEY_PATH';
  if (pathOf(tls?.serverCACert) === path) return 'server_ca_cert_path / TEMPORAL_TLS_SERVER_CA_CERT_PATH';
  return 'a TLS setting';
}

/** The gRPC status code of an error from either SDK connection (the client wraps it in a ServiceError's cause). */
function grpcCode(err: unknown): unknown {
  return (err as { code?: unknown })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code;
}

const UNAUTHENTICATED = 16;
const PERMISSION_DENIED = 7;
/** What the transport's messages say when TLS or credentials are the trouble. */
const CREDENTIAL_TROUBLE = new RegExp(
  [
    'tls',
    'certificate',
    'handshake',
    'unauthenticated',
    'valid authentication credentials',
    'permission denied',
    'does not have permission',
    'invalid api key',
    'unauthorized',
    'failed to connect before the deadline',
  ].join('|'),
  'i',
);

/**
 * A refused connection to a server reached with credentials, told as what it is. The gRPC codes
 * are UNAUTHENTICATED (16) and PERMISSION_DENIED (7); a TLS failure shows in the transport's message.
 */
export function credentialsRejected(target: TemporalTarget, err: unknown): TemporalProfileError | null {
  if (!target.secure) return null;
  const code = grpcCode(err);
  const text = `${messageOf(err)} ${(err as { cause?: Error })?.cause?.message ?? ''}`;
  // A failed TLS handshake reaches the Node client only as a connect deadline (the port itself answered: see ensureServer);
  // the worker's connection (the SDK core) names the gRPC code only by its description.
  if (code !== UNAUTHENTICATED && code !== PERMISSION_DENIED && !CREDENTIAL_TROUBLE.test(text)) return null;
  const who = target.profile ? `profile "${target.profile}"` : 'the TEMPORAL_* settings';
  // The API key never appears here, even if the server echoed it back.
  const reason = withoutApiKey(target, text.trim().split('\n')[0]);
  if (code === PERMISSION_DENIED || /permission denied|does not have permission/i.test(text)) {
    return new TemporalProfileError(
      `the Temporal server at ${target.address} accepted the credentials of ${who} but refused them access: ` +
        `give its API key or certificate a role on the namespace, or check the namespace name: ${reason}`,
    );
  }
  return new TemporalProfileError(
    `the Temporal server at ${target.address} did not accept the TLS settings or credentials ` +
      `of ${who} (its CA, server name, client certificate and key, API key): ${reason}`,
  );
}

/** Text a server sent back, with the target's API key (should the server echo it) masked. */
export function withoutApiKey(target: TemporalTarget, text: string): string {
  const apiKey = target.connection.apiKey;
  return typeof apiKey === 'string' && apiKey ? text.replaceAll(apiKey, '***') : text;
}

/**
 * A call past the connection that the server refused (UNAUTHENTICATED, PERMISSION_DENIED), told
 * as a credentials problem of the profile in `env`; null for anything else or an unsecured target.
 */
export function refusedByServer(err: unknown, env: NodeJS.ProcessEnv = process.env): TemporalProfileError | null {
  const code = grpcCode(err);
  if (code !== UNAUTHENTICATED && code !== PERMISSION_DENIED) return null;
  try {
    return credentialsRejected(resolveTemporalTarget(env), err);
  } catch {
    return null;
  }
}
