import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { NativeConnection } from '@temporalio/worker';
import type { GrueConfig } from '../config';
import { credentialsRejected, plaintextUnanswered, refusedByServer, TemporalTarget, withoutApiKey } from './profile';
import { TemporalSetupError } from './server';
import { tracingClientInterceptors } from './tracing';
import { SEARCH_ATTRIBUTE_DEFINITIONS } from '../schemas/searchAttributes';

/**
 * Connect with the resolved profile's address, TLS and API key; refused credentials, or a
 * plaintext connection nothing answered, become a TemporalProfileError.
 */
async function withCredentials<T>(config: GrueConfig, connect: () => Promise<T>): Promise<T> {
  try {
    return await connect();
  } catch (err) {
    throw credentialsRejected(config.temporal, err) ?? plaintextUnanswered(config.temporal, err) ?? err;
  }
}

/** The worker side's connection (grue worker, the CLI's in-process worker). */
export function connectWorkerConnection(config: GrueConfig): Promise<NativeConnection> {
  return withCredentials(config, () => NativeConnection.connect(config.temporal.connection));
}

export async function connectClient(config: GrueConfig): Promise<Client> {
  const connection = await withCredentials(config, () => Connection.connect(config.temporal.connection));
  return new Client({ connection, namespace: config.TEMPORAL_NAMESPACE, interceptors: tracingClientInterceptors() });
}

/**
 * Register grue's search attributes on a server that was not started with them (idempotent). A
 * server that refuses (a managed one) is told apart by the target's credentials (default: the environment's).
 */
export async function registerSearchAttributes(client: Client, namespace: string, target?: TemporalTarget): Promise<void> {
  const types = temporal.api.enums.v1.IndexedValueType;
  let existing: temporal.api.operatorservice.v1.IListSearchAttributesResponse;
  try {
    existing = await client.connection.operatorService.listSearchAttributes({ namespace });
  } catch (err) {
    // A managed service may keep the operator API from a namespace's key: the attributes may well
    // be registered (its own tools do that), and a call the key truly may not make fails next, clearly.
    if (isRefusal(err)) return;
    throw err;
  }
  const missing = Object.entries(SEARCH_ATTRIBUTE_DEFINITIONS).filter(([name]) => existing.customAttributes?.[name] === undefined);
  if (!missing.length) return;
  try {
    await client.connection.operatorService.addSearchAttributes({
      namespace,
      searchAttributes: Object.fromEntries(
        missing.map(([name, type]) => [name, type === 'Int' ? types.INDEXED_VALUE_TYPE_INT : types.INDEXED_VALUE_TYPE_KEYWORD]),
      ),
    });
  } catch (err) {
    if (!isRefusal(err)) throw err;
    // Temporal Cloud registers search attributes with its own tools, not the operator API: say which, and how.
    const refusal =
      (target ? credentialsRejected(target, err) : refusedByServer(err))?.message ??
      (target ? withoutApiKey(target, String((err as Error).message)) : String((err as Error).message));
    throw new TemporalSetupError(
      `grue's search attributes ${missing.map(([name, type]) => `${name} (${type})`).join(', ')} are not ` +
        `registered on namespace "${namespace}", and the server refused to register them (${refusal}). ` +
        `Register them once: on Temporal Cloud \`tcld namespace search-attributes add -n ` +
        `${namespace} ${missing.map(([name, type]) => `--sa "${name}=${type}"`).join(' ')}\` (or in ` +
        `its web UI), elsewhere \`temporal operator search-attribute create --namespace ${namespace} ` +
        `${missing.map(([name, type]) => `--name ${name} --type ${type}`).join(' ')}\`.`,
    );
  }
}

/** UNAUTHENTICATED, PERMISSION_DENIED or UNIMPLEMENTED: the server will not do this for these credentials. */
function isRefusal(err: unknown): boolean {
  const code = (err as { code?: unknown })?.code ?? (err as { cause?: { code?: unknown } })?.cause?.code;
  return code === 16 || code === 7 || code === 12;
}
