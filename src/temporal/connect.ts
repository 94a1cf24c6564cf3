import { Client, Connection } from '@temporalio/client';
import { temporal } from '@temporalio/proto';
import type { GrueConfig } from '../config';
import { tracingClientInterceptors } from '../telemetry/tracing';
import { SEARCH_ATTRIBUTE_DEFINITIONS } from '../workflows/searchAttributes';

export async function connectClient(config: GrueConfig): Promise<Client> {
  const connection = await Connection.connect({ address: config.TEMPORAL_ADDRESS });
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
