/**
 * OpenTelemetry tracing, on when an OTLP/HTTP endpoint is configured (OTEL_EXPORTER_OTLP_ENDPOINT
 * or OTEL_EXPORTER_OTLP_TRACES_ENDPOINT). The CLI's client starts an episode inside a
 * `StartWorkflow` span and passes its context in the workflow's headers; the worker's workflow
 * interceptors continue it (`RunWorkflow`, one `StartActivity` per activity, carried across
 * continue-as-new and into a campaign's child episodes) and its activity interceptor adds one
 * `RunActivity` span per attempt, which grue's activities annotate (src/telemetry/metrics.ts).
 * So an episode is one trace, and a campaign is one trace holding its episodes.
 *
 * Spans leave through a batch processor and the OTLP/HTTP (JSON) exporter; workflow spans are
 * made inside the workflow sandbox and handed to the same processor through a sink. With tracing
 * off nothing here is loaded: the helpers return nothing to add, and span lookups in activities
 * find no span.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Context, ContextManager } from '@opentelemetry/api';
import type { Resource } from '@opentelemetry/resources';
import type { BasicTracerProvider, SpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { ClientInterceptors, WorkflowClientInterceptor } from '@temporalio/client';
import type { WorkerOptions } from '@temporalio/worker';
import { log } from '../log';
import type { GrueConfig } from '../config';

/**
 * The workflow interceptor modules: a workflow bundle built ahead (bundleWorkflowCode) needs them as
 * `workflowInterceptorModules` to trace workflows.
 */
export const WORKFLOW_TRACING_MODULES = [require.resolve('@temporalio/interceptors-opentelemetry/lib/workflow-interceptors')];

/** How long stopping may wait for the last spans to leave: an unreachable collector must not hold the process. */
const FLUSH_TIMEOUT_MS = 5000;

/** Where traces are sent: the traces endpoint as given, else the OTLP endpoint's /v1/traces; null: tracing is off. */
export function tracesEndpoint(
  config: Pick<GrueConfig, 'OTEL_EXPORTER_OTLP_ENDPOINT' | 'OTEL_EXPORTER_OTLP_TRACES_ENDPOINT'>,
): string | null {
  if (config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT) return config.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT;
  if (config.OTEL_EXPORTER_OTLP_ENDPOINT) return `${config.OTEL_EXPORTER_OTLP_ENDPOINT.replace(/\/+$/, '')}/v1/traces`;
  return null;
}

type Interceptors = typeof import('@temporalio/interceptors-opentelemetry');

interface Tracing {
  endpoint: string;
  provider: BasicTracerProvider;
  spanProcessor: SpanProcessor;
  resource: Resource;
  interceptors: Interceptors;
}

let tracing: Tracing | null = null;

/**
 * The active context follows async calls, as the interceptors expect: the client's span must be
 * active when it writes the workflow's headers, and an activity's span while the activity runs.
 */
class AsyncLocalContextManager implements ContextManager {
  private readonly storage = new AsyncLocalStorage<Context>();
  constructor(private readonly root: Context) {}
  active(): Context {
    return this.storage.getStore() ?? this.root;
  }
  with<A extends unknown[], F extends (...args: A) => ReturnType<F>>(
    context: Context,
    fn: F,
    thisArg?: ThisParameterType<F>,
    ...args: A
  ): ReturnType<F> {
    return this.storage.run(context, () => fn.apply(thisArg, args));
  }
  bind<T>(context: Context, target: T): T {
    if (typeof target !== 'function') return target;
    const run = (...args: unknown[]) => this.with(context, () => (target as (...a: unknown[]) => unknown)(...args));
    return run as T;
  }
  enable(): this {
    return this;
  }
  disable(): this {
    this.storage.disable();
    return this;
  }
}

/**
 * Start tracing for this process if an endpoint is configured; `serviceName` names the process in
 * the traces (the first call's name stays: there is one tracer provider per process). Returns
 * the endpoint, or null when tracing is off.
 */
export async function startTracing(config: GrueConfig, serviceName: string): Promise<string | null> {
  if (tracing) return tracing.endpoint;
  const endpoint = tracesEndpoint(config);
  if (!endpoint) return null;
  const [api, core, resources, traceBase, otlp, interceptors] = await Promise.all([
    import('@opentelemetry/api'),
    import('@opentelemetry/core'),
    import('@opentelemetry/resources'),
    import('@opentelemetry/sdk-trace-base'),
    import('@opentelemetry/exporter-trace-otlp-http'),
    import('@temporalio/interceptors-opentelemetry'),
  ]);
  const resource = resources.Resource.default().merge(new resources.Resource({ 'service.name': serviceName }));
  // The batch's delay and size follow the standard OTEL_BSP_* variables.
  const spanProcessor = new traceBase.BatchSpanProcessor(new otlp.OTLPTraceExporter({ url: endpoint }));
  const provider = new traceBase.BasicTracerProvider({ resource, spanProcessors: [spanProcessor] });
  // Also installs the W3C trace-context propagator the interceptors write headers with.
  provider.register({ contextManager: new AsyncLocalContextManager(api.ROOT_CONTEXT) });
  let warned = false;
  core.setGlobalErrorHandler((err) => {
    // Once: a collector that is down would otherwise say so every few seconds.
    if (warned) return;
    warned = true;
    log(`traces cannot be sent to ${endpoint}: ${err instanceof Error ? err.message : String(err)} (the work goes on without them)`);
  });
  tracing = { endpoint, provider, spanProcessor, resource, interceptors };
  return endpoint;
}

/**
 * What the workflow bundle must hold for workflows to trace: the interceptor modules while tracing
 * is on, nothing otherwise (every bundle is built ahead, see workflowBundle.ts).
 */
export function workflowTracingModules(): string[] {
  return tracing ? WORKFLOW_TRACING_MODULES : [];
}

/** The worker's activity interceptors and the workflow span sink while tracing is on. */
export function tracingWorkerOptions(): Pick<WorkerOptions, 'interceptors' | 'sinks'> {
  if (!tracing) return {};
  const { OpenTelemetryActivityInboundInterceptor, OpenTelemetryActivityOutboundInterceptor, makeWorkflowExporter } = tracing.interceptors;
  return {
    interceptors: {
      activity: [
        (ctx) => ({
          inbound: new OpenTelemetryActivityInboundInterceptor(ctx),
          outbound: new OpenTelemetryActivityOutboundInterceptor(ctx),
        }),
      ],
    },
    sinks: { exporter: makeWorkflowExporter(tracing.spanProcessor, tracing.resource) },
  };
}

/**
 * The client's interceptors (none while tracing is off): starting a workflow begins its trace,
 * and a signal is traced too. Queries and describes are not: the progress display polls twice a
 * second, and each poll would be a trace of its own.
 */
export function tracingClientInterceptors(): ClientInterceptors | undefined {
  if (!tracing) return undefined;
  const traced = new tracing.interceptors.OpenTelemetryWorkflowClientInterceptor();
  const interceptor: WorkflowClientInterceptor = {
    start: (input, next) => traced.start(input, next),
    startWithDetails: (input, next) => traced.startWithDetails(input, next),
    signalWithStart: (input, next) => traced.signalWithStart(input, next),
    signal: (input, next) => traced.signal(input, next),
  };
  return { workflow: [interceptor] };
}

/** Send the spans still waiting and stop (at most FLUSH_TIMEOUT_MS); call before the process exits. */
export async function stopTracing(): Promise<void> {
  const stopping = tracing;
  if (!stopping) return;
  tracing = null;
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<void>((resolve) => (timer = setTimeout(resolve, FLUSH_TIMEOUT_MS)));
  await Promise.race([stopping.provider.shutdown().catch(() => undefined), timeout]);
  clearTimeout(timer);
}
