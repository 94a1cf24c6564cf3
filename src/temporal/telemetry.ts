/** A worker process's telemetry: its Runtime with the metrics endpoint, and tracing when configured. */
import { log } from '../log';
import type { GrueConfig } from '../config';
import { installRuntime, workerMetricsSetting } from './runtime';
import { startTracing, stopTracing } from './tracing';

export { installRuntime } from './runtime';
export { startTracing, stopTracing, tracingClientInterceptors, tracingWorkerOptions, workflowTracingModules } from './tracing';

/**
 * Set up `grue worker`'s telemetry before its first connection, saying where metrics and traces
 * go; `metricsPort` is the command line's (0 = off). Call `stop` when the worker has stopped, so
 * its last spans are sent.
 */
export async function startWorkerTelemetry(config: GrueConfig, metricsPort?: number): Promise<{ stop(): Promise<void> }> {
  const runtime = installRuntime({ logLevel: 'INFO', metrics: workerMetricsSetting(config, metricsPort) });
  if (runtime.warning) log(runtime.warning);
  if (runtime.metricsUrl) log(`metrics: ${runtime.metricsUrl}`);
  const traces = await startTracing(config, 'grue-worker');
  if (traces) log(`traces: ${traces}`);
  return { stop: stopTracing };
}
