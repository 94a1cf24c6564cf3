/**
 * With an OTLP endpoint configured, an episode started by `grue play` is one trace: the CLI's
 * StartWorkflow span, the workflow's runs (across a continue-as-new) and a span per activity,
 * LLM activities carrying their model, tokens and outcome; a campaign is one trace holding its
 * episodes. The receiver is an OTLP/HTTP endpoint
 * in this test. The batch delay is ten minutes, so every span arrives only because the CLI and
 * the worker send what they hold when they stop.
 */
import type { Client } from '@temporalio/client';
import { createServer, IncomingMessage, Server } from 'node:http';
import { grueProcess } from '../cli/grueProcess';
import { activitiesByType, fakeLlmLab, FakeLlmLab, GrueWorkerProcess, spawnGrueWorker } from './grueWorker';
import { waitFor } from './scripted';
import { freePort } from './server';

jest.setTimeout(6 * 60_000);
/** A CLI run of the test's (one plays a full-agent episode against the fake endpoint). */
const CLI_TIMEOUT_MS = 5 * 60_000;

type AttributeValue = string | number | boolean | null;

interface ReceivedSpan {
  service: string;
  name: string;
  traceId: string;
  spanId: string;
  parentSpanId: string;
  attributes: Record<string, AttributeValue>;
}

/** An OTLP attribute value as the JSON encoding writes it (64-bit integers may come as strings). */
function attributeValue(value: Record<string, unknown>): AttributeValue {
  if ('stringValue' in value) return String(value.stringValue);
  if ('intValue' in value) return Number(value.intValue);
  if ('doubleValue' in value) return Number(value.doubleValue);
  if ('boolValue' in value) return Boolean(value.boolValue);
  return null;
}

function attributes(list: unknown): Record<string, AttributeValue> {
  const entries = (list ?? []) as Array<{ key: string; value: Record<string, unknown> }>;
  return Object.fromEntries(entries.map((entry) => [entry.key, attributeValue(entry.value)]));
}

/** An OTLP/HTTP traces receiver on a loopback port: POST /v1/traces, JSON. */
async function startReceiver(): Promise<{ url: string; spans: ReceivedSpan[]; contentTypes: Set<string>; close(): Promise<void> }> {
  const spans: ReceivedSpan[] = [];
  const contentTypes = new Set<string>();
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = '';
      request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
      request.on('end', () => resolve(body));
    });
  const server: Server = createServer(async (request, response) => {
    const body = await read(request);
    if (request.method !== 'POST' || request.url !== '/v1/traces') {
      response.writeHead(404).end();
      return;
    }
    contentTypes.add(String(request.headers['content-type']));
    const payload = JSON.parse(body) as {
      resourceSpans: Array<{ resource: { attributes: unknown }; scopeSpans: Array<{ spans: Array<Record<string, unknown>> }> }>;
    };
    for (const resourceSpans of payload.resourceSpans) {
      const service = String(attributes(resourceSpans.resource.attributes)['service.name']);
      for (const scope of resourceSpans.scopeSpans) {
        for (const span of scope.spans) {
          spans.push({
            service,
            name: String(span.name),
            traceId: String(span.traceId),
            spanId: String(span.spanId),
            parentSpanId: String(span.parentSpanId ?? ''),
            attributes: attributes(span.attributes),
          });
        }
      }
    }
    response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${port}`, spans, contentTypes, close: () => new Promise((resolve) => server.close(() => resolve())) };
}

const countBy = (names: string[]) =>
  names.reduce<Record<string, number>>((counts, name) => ({ ...counts, [name]: (counts[name] ?? 0) + 1 }), {});

describe('traces with an OTLP endpoint configured', () => {
  let lab: FakeLlmLab;
  let client: Client;
  let receiver: Awaited<ReturnType<typeof startReceiver>>;
  let worker: GrueWorkerProcess;
  let env: Record<string, string>;

  beforeAll(async () => {
    lab = await fakeLlmLab({ queue: 'tracing', model: 'trace-model', apiKey: 'sk-tracing-test' });
    client = lab.client;
    receiver = await startReceiver();
    env = {
      ...lab.env,
      OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url,
      // Nothing leaves on the batch timer during the test: only what stopping sends.
      OTEL_BSP_SCHEDULE_DELAY: '600000',
    };
    worker = spawnGrueWorker(['--metrics-port', '0'], env);
    await worker.waitForLog(new RegExp(`grue: traces: ${receiver.url}/v1/traces`));
    await worker.waitForLog(/Worker state changed \{[^}]*RUNNING/);
  }, 180_000);

  afterAll(async () => {
    await worker?.stop();
    await receiver?.close();
    await lab?.close();
  });

  it('an episode is one trace (its start, its runs, a span per activity; LLM spans with model, tokens and outcome), a campaign one trace with its episodes', async () => {
    const workflowId = `traced-${Date.now()}`;
    const played = await grueProcess(
      [
        'play',
        'lighthouse',
        '--policy',
        'full',
        '--seed',
        '1',
        '--max-turns',
        '6',
        '--continue-as-new-every',
        '3',
        '--compact-every',
        '3',
        '--knowledge-every',
        '3',
        '--thoughtbox',
        'off',
        '--no-stop-on-death',
        '--no-worker',
        '--id',
        workflowId,
      ],
      env,
      CLI_TIMEOUT_MS,
    );
    expect(played.stderr).not.toMatch(/unexpected error|cannot be sent/);
    expect(played.code).toBe(0);

    // The CLI sent its span before it exited; the worker still holds all of its own.
    const start = receiver.spans.filter((span) => span.name === 'StartWorkflow:episodeWorkflow');
    expect(start).toHaveLength(1);
    expect(start[0].service).toBe('grue');
    // The progress display's queries are not traced (each would be a trace of its own).
    expect(receiver.spans.filter((span) => span.name.startsWith('QueryWorkflow:'))).toHaveLength(0);
    expect(receiver.spans.filter((span) => span.service === 'grue-worker')).toHaveLength(0);

    // A campaign: its episodes are child workflows, inside the campaign's trace.
    const campaignId = `traced-campaign-${Date.now()}`;
    const campaign = await grueProcess(
      ['campaign', 'lighthouse', '--policy', 'oracle-free', '--episodes', '2', '--max-turns', '2', '--no-worker', '--id', campaignId],
      env,
      CLI_TIMEOUT_MS,
    );
    expect(campaign.code).toBe(0);

    expect(await worker.stop()).toBe(0);
    const { scheduled } = await activitiesByType(client, workflowId);
    const activityCount = Object.values(scheduled).reduce((sum, n) => sum + n, 0);
    const ran = () =>
      receiver.spans.filter((span) => span.name.startsWith('RunActivity:') && span.attributes.temporalWorkflowId === workflowId);
    // The receiver has them all as soon as the worker has exited; waiting only covers the last request's parsing.
    await waitFor('every activity span', () => ran().length >= activityCount, 10_000);

    // One span per activity executed (no attempt failed), of the right type.
    expect(countBy(ran().map((span) => span.name.replace('RunActivity:', '')))).toEqual(scheduled);
    expect(scheduled.stepGame).toBe(6);
    expect(scheduled.analyseTurn).toBeGreaterThan(0);
    expect(scheduled.compact).toBeGreaterThan(0);

    // One trace: the CLI's start, both runs of the workflow (a continue-as-new between them), every activity.
    const traceId = start[0].traceId;
    const inEpisode = receiver.spans.filter((span) => span.traceId === traceId);
    const runs = inEpisode.filter((span) => span.name === 'RunWorkflow:episodeWorkflow');
    expect(runs).toHaveLength(2);
    expect(inEpisode.some((span) => span.name === 'ContinueAsNew:episodeWorkflow')).toBe(true);
    expect(ran().every((span) => span.traceId === traceId)).toBe(true);
    expect(inEpisode.filter((span) => span.name.startsWith('StartActivity:'))).toHaveLength(activityCount);
    // The first run hangs from the CLI's span: the trace begins where the episode was started.
    expect(runs.some((run) => run.parentSpanId === start[0].spanId)).toBe(true);
    expect(new Set(ran().map((span) => span.service))).toEqual(new Set(['grue-worker']));

    for (const span of ran().filter((span) =>
      ['analyseTurn', 'analyseFailure', 'compact', 'updateKnowledge', 'synthesizeWisdom'].includes(span.name.replace('RunActivity:', '')),
    )) {
      expect(span.attributes).toMatchObject({
        'grue.game': 'lighthouse',
        'grue.llm.model': 'openai:trace-model',
        'grue.llm.outcome': 'ok',
        'grue.llm.prompt_tokens': 100,
        'grue.llm.completion_tokens': 20,
      });
    }
    for (const span of ran().filter((span) => span.name === 'RunActivity:stepGame')) {
      expect(span.attributes).toMatchObject({ 'grue.game': 'lighthouse' });
      expect(typeof span.attributes['grue.command']).toBe('string');
      expect(typeof span.attributes['grue.score']).toBe('number');
    }
    const campaignStart = receiver.spans.find((span) => span.name === 'StartWorkflow:campaignWorkflow');
    expect(campaignStart).toBeDefined();
    const inCampaign = receiver.spans.filter((span) => span.traceId === campaignStart!.traceId);
    expect(inCampaign.filter((span) => span.name === 'StartChildWorkflow:episodeWorkflow')).toHaveLength(2);
    expect(inCampaign.filter((span) => span.name === 'RunWorkflow:episodeWorkflow')).toHaveLength(2);
    expect(inCampaign.filter((span) => span.name === 'RunActivity:stepGame')).toHaveLength(4);
    expect(campaignStart!.traceId).not.toBe(traceId);

    // The exporter speaks OTLP/HTTP JSON.
    expect([...receiver.contentTypes]).toEqual(['application/json']);
  });
});
