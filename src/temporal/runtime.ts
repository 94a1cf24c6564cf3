/**
 * The Temporal Runtime: process-wide, installed once, before the first connection or worker.
 * It carries the worker's log level and, when asked, the Prometheus endpoint that serves the SDK's
 * own metrics and grue's (src/telemetry/metrics.ts records into the same meter).
 */
import { DefaultLogger, LogLevel, Runtime } from '@temporalio/worker';
import { ConfigError, GrueConfig } from '../config';

/** The default metrics port of `grue worker`: the port Prometheus exporters conventionally use. */
export const DEFAULT_METRICS_PORT = 9464;

/**
 * Where to serve metrics. `required`: the address was asked for (a flag or GRUE_METRICS_ADDRESS),
 * so a port that cannot be bound is an error; otherwise it is the default and the worker runs
 * without metrics, saying so.
 */
export interface MetricsSetting {
  bindAddress: string;
  required: boolean;
}

/**
 * `grue worker`'s metrics: `--metrics-port` (0 = off) over GRUE_METRICS_ADDRESS over the default.
 *
 * The default is on, on loopback, so one worker on a laptop shows its metrics without any
 * setup. Two workers on one machine cannot share the port: the second one warns and runs
 * without metrics rather than refusing to serve episodes, since serving episodes is its job and
 * metrics are an extra; a port someone chose, though, is an error when it cannot be bound, so a
 * deployment that expects metrics never runs silently without them.
 */
export function workerMetricsSetting(config: GrueConfig, metricsPort?: number): MetricsSetting | null {
  if (metricsPort !== undefined) return metricsPort === 0 ? null : { bindAddress: `127.0.0.1:${metricsPort}`, required: true };
  if (config.GRUE_METRICS_ADDRESS !== undefined)
    return config.GRUE_METRICS_ADDRESS === null ? null : { bindAddress: config.GRUE_METRICS_ADDRESS, required: true };
  return { bindAddress: `127.0.0.1:${DEFAULT_METRICS_PORT}`, required: false };
}

export interface InstalledRuntime {
  /** Where the metrics are scraped, when they are served. */
  metricsUrl: string | null;
  /** Why metrics that were on by default are not served (to be shown to the person running the worker). */
  warning?: string;
}

let installed: InstalledRuntime | null = null;

/**
 * Install the Runtime with this log level and, if given, a Prometheus endpoint; later calls in
 * the same process return what the first one installed (the Runtime cannot be replaced).
 */
export function installRuntime(options: { logLevel: LogLevel; metrics?: MetricsSetting | null }): InstalledRuntime {
  if (installed) return installed;
  const logger = new DefaultLogger(options.logLevel);
  const metrics = options.metrics;
  if (metrics) {
    try {
      // No `_total` suffix is added to counters (countersTotalSuffix is off): grue names its counters `grue_…_total` itself.
      Runtime.install({ logger, telemetryOptions: { metrics: { prometheus: { bindAddress: metrics.bindAddress } } } });
      installed = { metricsUrl: `http://${metrics.bindAddress}/metrics` };
      return installed;
    } catch (err) {
      const reason = err instanceof Error ? err.message : String(err);
      if (alreadyInstalled(err))
        return (installed = {
          metricsUrl: null,
          warning: `metrics are not served: the Temporal runtime was set up before them (${reason})`,
        });
      if (metrics.required)
        throw new ConfigError(
          `cannot serve metrics on ${metrics.bindAddress}: ${reason}. Choose another port with --metrics-port or ` +
            `GRUE_METRICS_ADDRESS (each worker on a machine needs its own), or turn metrics off with --metrics-port 0.`,
        );
      installed = {
        metricsUrl: null,
        warning:
          `metrics are off: ${metrics.bindAddress} is taken (${reason}), probably by ` +
          `another grue worker; give each worker its own --metrics-port to scrape them all.`,
      };
    }
  }
  try {
    Runtime.install({ logger });
  } catch (err) {
    if (!alreadyInstalled(err)) throw err;
  }
  installed ??= { metricsUrl: null };
  return installed;
}

/** Someone installed or used the Runtime before us (a test harness, an embedding program): theirs stays. */
function alreadyInstalled(err: unknown): boolean {
  return err instanceof Error && /already been (installed|instantiated)/.test(err.message);
}
