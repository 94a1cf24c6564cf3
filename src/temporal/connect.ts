import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import { NativeConnection } from '@temporalio/worker';
import type { GrueConfig } from '../config';
import { credentialsRejected } from './profile';
import { tracingClientInterceptors } from '../telemetry/tracing';
import { SEARCH_ATTRIBUTE_DEFINITIONS } from '../workflows/searchAttributes';

/** Connect with the resolved profile's address, TLS and API key; refused credentials become a TemporalProfileError. */
async function withCredentials<T>(config: GrueConfig, connect: () => Promise<T>): Promise<T> {
  try {
    return await connect();
  } catch (err) {
    throw credentialsRejected(config.temporal, err) ?? err;
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

/** Register grue's search attributes on a server that was not started with them (idempotent). */
export async function registerSearchAttributes(client: Client, namespace: string): Promise<void> {
  const types = temporal.api.enums.v1.IndexedValueType;
  const existing = await client.connection.operatorService.listSearchAttributes({ namespace });
  const missing: Record<string, temporal.api.enums.v1.IndexedValueType> = {};
  for (const [name, type] of Object.entries(SEARCH_ATTRIBUTE_DEFINITIONS)) {
    if (existing.customAttributes?.[name] === undefined) {
      missing[name] = type === 'Int' ? types.INDEXED_VALUE_TYPE_INT : types.INDEXED_VALUE_TYPE_KEYWORD;
    }
  }
  if (Object.keys(missing).length) await client.connection.operatorService.addSearchAttributes({ namespace, searchAttributes: missing });
}
