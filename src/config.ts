/**
 * Process configuration from the environment, validated once. Secrets never pass through here
 * into workflow inputs: workflows get only what they need to decide.
 */
import { isIP } from 'node:net';
import { join } from 'node:path';
import { z } from 'zod';
import { projectRoot } from './paths';
import { resolveTemporalTarget, TemporalTarget } from './temporal/profile';

const EnvSchema = z.object({
  TEMPORAL_ADDRESS: z.string().min(1).default('localhost:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  GRUE_TASK_QUEUE: z.string().min(1).default('grue'),
  GRUE_DATA_DIR: z.string().min(1).default(join(projectRoot(), '.grue')),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
  /** Where `grue worker` serves Prometheus metrics (see metricsBindAddress); unset: its default. */
  GRUE_METRICS_ADDRESS: z
    .string()
    .optional()
    .transform((value, ctx) => {
      if (value === undefined) return undefined;
      const address = metricsBindAddress(value);
      if (address === undefined)
        ctx.addIssue({ code: 'custom', message: 'give a port (served on 127.0.0.1), an IP address and port such as 0.0.0.0:9464, or off' });
      return address;
    }),
  /** OTLP/HTTP collector: traces go to <endpoint>/v1/traces, or to the traces endpoint as given. Either turns tracing on. */
  OTEL_EXPORTER_OTLP_ENDPOINT: z.string().url().startsWith('http', 'must be an http:// or https:// URL').optional(),
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: z.string().url().startsWith('http', 'must be an http:// or https:// URL').optional(),
});
/** TEMPORAL_ADDRESS and TEMPORAL_NAMESPACE are the resolved profile's (see src/temporal/profile.ts). */
export type GrueConfig = z.infer<typeof EnvSchema> & { temporal: TemporalTarget };

/** An environment variable grue cannot use: a person fixes or unsets it (the CLI exits 2). */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): GrueConfig {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    // None of these variables holds a secret, so the value is shown.
    const issues = parsed.error.issues
      .map((i) => `${i.path.join('.')}=${JSON.stringify(env[String(i.path[0])] ?? '')}: ${i.message}`)
      .join('; ');
    throw new ConfigError(`invalid environment: ${issues}; fix it or unset it to use the default.`);
  }
  const temporal = resolveTemporalTarget(env);
  return { ...parsed.data, TEMPORAL_ADDRESS: temporal.address, TEMPORAL_NAMESPACE: temporal.namespace, temporal };
}

/**
 * A metrics bind address as the Prometheus exporter takes it: a bare port is bound on loopback
 * (metrics tell anyone who can reach them what the worker is doing), any other interface only
 * when named; null is off. Undefined: not an address.
 */
export function metricsBindAddress(value: string): string | null | undefined {
  const text = value.trim();
  if (text === 'off') return null;
  const match = /^(?:(.+):)?(\d{1,5})$/.exec(text);
  if (!match) return undefined;
  const port = Number(match[2]);
  if (port < 1 || port > 65535) return undefined;
  const host = match[1] ?? '127.0.0.1';
  const bare = host.replace(/^\[(.*)\]$/, '$1');
  if (isIP(bare) === 4) return `${bare}:${port}`;
  if (isIP(bare) === 6) return `[${bare}]:${port}`;
  return undefined;
}

export function webUiUrl(config: GrueConfig, workflowId?: string): string {
  const host = config.TEMPORAL_ADDRESS.split(':')[0] || 'localhost';
  // Temporal Cloud's namespaces (reached at <ns>.tmprl.cloud or a regional *.api.temporal.io) are browsed at cloud.temporal.io.
  const ui = /\.tmprl\.cloud$|\.api\.temporal\.io$/i.test(host) ? 'https://cloud.temporal.io' : `http://${host}:${config.TEMPORAL_UI_PORT}`;
  const base = `${ui}/namespaces/${encodeURIComponent(config.TEMPORAL_NAMESPACE)}/workflows`;
  return workflowId ? `${base}/${encodeURIComponent(workflowId)}` : base;
}
