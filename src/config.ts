/**
 * Process configuration from the environment, validated once. Secrets never pass through here
 * into workflow inputs: workflows get only what they need to decide.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { projectRoot } from './paths';

const EnvSchema = z.object({
  TEMPORAL_ADDRESS: z.string().min(1).default('localhost:7233'),
  TEMPORAL_NAMESPACE: z.string().min(1).default('default'),
  GRUE_TASK_QUEUE: z.string().min(1).default('grue'),
  GRUE_DATA_DIR: z.string().min(1).default(join(projectRoot(), '.grue')),
  TEMPORAL_UI_PORT: z.coerce.number().int().min(1).max(65535).default(8233),
});
export type GrueConfig = z.infer<typeof EnvSchema>;

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
    const issues = parsed.error.issues.map((i) => `${i.path.join('.')}=${JSON.stringify(env[String(i.path[0])] ?? '')}: ${i.message}`).join('; ');
    throw new ConfigError(`invalid environment: ${issues}; fix it or unset it to use the default.`);
  }
  return parsed.data;
}

export function webUiUrl(config: GrueConfig, workflowId?: string): string {
  const host = config.TEMPORAL_ADDRESS.split(':')[0] || 'localhost';
  const base = `http://${host}:${config.TEMPORAL_UI_PORT}/namespaces/${encodeURIComponent(config.TEMPORAL_NAMESPACE)}/workflows`;
  return workflowId ? `${base}/${encodeURIComponent(workflowId)}` : base;
}
