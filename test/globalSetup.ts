/**
 * Before any test: make sure the Temporal CLI exists (workflow tests run against the real dev
 * server). On a fresh machine this builds it once with `go install` into grue's cache.
 */
import { ensureTemporalCli } from '../src/temporal/server';

export default function globalSetup(): void {
  const cli = ensureTemporalCli((msg) => process.stderr.write(`\n[test setup] ${msg}\n`));
  process.env.TEMPORAL_CLI = cli;
}
