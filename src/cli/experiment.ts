/**
 * `grue experiment`: the same campaign (same seeds) once per arm — a baseline and each variation
 * of the factors given — as one durable experiment workflow, with progress and a summary table.
 * `grue report`: an experiment's or a campaign's results and transcripts as an HTML/Markdown
 * report with charts, from the files alone (no server needed).
 */
import { Client, WorkflowHandle } from '@temporalio/client';
import { Command } from 'commander';
import { dirname } from 'node:path';
import { experimentResultsPath, ResultsFileError } from '../activities/files';
import { loadConfig, webUiUrl } from '../config';
import { designArms, ExperimentDesignError, parseFactors, parseModels } from '../experiment/arms';
import { buildReport } from '../report/build';
import { experimentReportData, loadReportData, ReportNotFoundError } from '../report/load';
import { summarize, summaryText } from '../report/summary';
import { reportDir, writeReport } from '../report/write';
import { isSuite, printPaths, writeSuiteReport } from './suiteReport';
import { CAMPAIGN_DEFAULTS } from '../schemas/episode';
import { ExperimentInput, ExperimentInputSchema, Factor } from '../schemas/experiment';
import { ExperimentResult } from '../experiment/results';
import { progressQuery } from '../workflows/campaign';
import { statusQuery } from '../workflows/episode';
import { experimentProgressQuery, experimentWorkflow } from '../workflows/experiment';
import { GAME_KEY } from '../schemas/searchAttributes';
import { parseInteger, parseWorkflowId, resolved, UsageError } from './args';
import { log } from '../log';
import { preflightLlm } from './llmCheck';
import { addRunOptions, DEFAULT_GAME, detached, episodeOptions, pollUntil, progressBar, RunOptions } from './play';
import { connect, newWorkflowId, startNew, withWorker } from './temporal';

interface ExperimentOptions extends RunOptions {
  vary: string;
  models?: string;
  factorial?: boolean;
  episodes?: number;
  steps?: number;
}

/** Factors whose levels only change what a policy that asks an LLM does. */
const LLM_FACTORS: Factor[] = ['thoughtbox', 'compaction', 'knowledge', 'model'];

const checkId = parseWorkflowId('the workflow id');

/** A design error or an option the schema refuses, as a usage error (`grue: …`, exit 2). */
function designed<T>(fn: () => T): T {
  try {
    return resolved(fn, 'experiment options');
  } catch (err) {
    if (err instanceof ExperimentDesignError) throw new UsageError(err.message);
    throw err;
  }
}

export function experimentInput(game: string, opts: ExperimentOptions): ExperimentInput {
  if (opts.steps !== undefined && opts.maxTurns !== undefined && opts.steps !== opts.maxTurns)
    throw new UsageError(`--steps ${opts.steps} and --max-turns ${opts.maxTurns} disagree: give one (they are the same setting).`);
  const factors = designed(() => parseFactors(opts.vary));
  const models = opts.models !== undefined ? designed(() => parseModels(opts.models!)) : undefined;
  const options = { ...episodeOptions(game, opts), maxTurns: opts.steps ?? opts.maxTurns, episodes: opts.episodes };
  const arms = designed(() => designArms(options, { factors, models, factorial: opts.factorial }));
  return ExperimentInputSchema.parse({ factors, factorial: opts.factorial ?? false, arms });
}

export function registerExperimentCommands(program: Command): void {
  addRunOptions(
    program
      .command('experiment')
      .description(
        'Run the same campaign (same seeds) once per arm: a baseline and, per varied factor, ' +
          'each other level (or every combination with --factorial); prints a summary table.',
      )
      .argument('[game]', 'story path or bundled game name', DEFAULT_GAME)
      .requiredOption(
        '--vary <factors>',
        'what to vary, comma-separated: thoughtbox (off|auto|always), compaction (off vs every ' +
          '5), knowledge (off vs every 10), assist (probe|valid|none), model (the --models)',
      )
      .option('--models <names>', 'models to compare with --vary model, comma-separated; "default" is the worker\'s GRUE_LLM_MODEL')
      .option('--factorial', 'every combination of the varied factors instead of one factor at a time from the baseline')
      .option('--episodes <n>', `episodes per arm (default: ${CAMPAIGN_DEFAULTS.episodes})`, parseInteger('--episodes', 1, 10_000))
      .option('--steps <n>', 'turns per episode (the same as --max-turns)', parseInteger('--steps', 1, 100_000)),
  ).action(async (game: string, opts: ExperimentOptions) => {
    const input = experimentInput(game, opts);
    const baseline = input.arms[0].config;
    if (baseline.policy !== 'full') {
      const idle = input.factors.filter((f) => LLM_FACTORS.includes(f));
      if (idle.length) log(`note: --policy ${baseline.policy} asks no LLM, so varying ${idle.join(', ')} changes nothing it does.`);
    }
    // A bad environment fails before the model loads.
    const env = loadConfig();
    if (input.arms.some((a) => a.config.policy === 'full')) log(`LLM: ${await preflightLlm()}`);
    const { config, client } = await connect(env);
    const workflowId = opts.id ?? newWorkflowId('experiment', game, baseline.seed);
    const handle = await startNew(
      client,
      experimentWorkflow,
      { workflowId, taskQueue: config.GRUE_TASK_QUEUE, args: [input], typedSearchAttributes: [{ key: GAME_KEY, value: baseline.game }] },
      dirname(experimentResultsPath(config.GRUE_DATA_DIR, workflowId)),
    );
    process.stdout.write(
      `experiment ${workflowId}: ${input.arms.length} arms × ${baseline.episodes} episodes × ` +
        `${baseline.maxTurns} turns (seeds ${baseline.seed}..${baseline.seed + baseline.episodes - 1})\n` +
        input.arms.map((a, i) => `  ${i + 1}. ${a.name}`).join('\n') +
        `\nWeb UI: ${webUiUrl(config, workflowId)}\n`,
    );
    if (!opts.wait) return;
    const watch = () => watchExperiment(client, handle, input);
    const result = opts.worker ? await withWorker(config, watch, detached(workflowId)) : await watch();
    printExperiment(result, config.GRUE_DATA_DIR);
  });

  program
    .command('report')
    .description(
      'Write a report of a finished campaign or experiment (report.html with charts inlined, report.md, each chart as SVG and ' +
        'PNG, summary.json), or the leaderboard of one or more finished suites side by side, with the published results of ' +
        'the same setting. Reads the results and transcripts under GRUE_DATA_DIR; needs no server.',
    )
    .argument('<ids...>', 'a campaign or experiment workflow id, or one or more suite ids', (value: string, previous?: string[]) => [
      ...(previous ?? []),
      checkId(value),
    ])
    .option('--out <dir>', 'write the report here (default: <data dir>/reports/<id>/)')
    .option('--baselines <file>', "suites: the published results (default: baselines.json in the first suite's folder)")
    .action(async (ids: string[], opts: { out?: string; baselines?: string }) => {
      const config = loadConfig();
      if (isSuite(config.GRUE_DATA_DIR, ids[0])) return writeSuiteReport(config.GRUE_DATA_DIR, ids, opts);
      if (ids.length > 1) throw new UsageError(`${ids[0]} is not a finished suite: only suites are reported side by side.`);
      const id = ids[0];
      let data;
      try {
        data = loadReportData(config.GRUE_DATA_DIR, id);
      } catch (err) {
        if (err instanceof ReportNotFoundError || err instanceof ResultsFileError) throw new UsageError(err.message);
        throw err;
      }
      const report = await buildReport(data);
      const paths = writeReport(opts.out ?? reportDir(config.GRUE_DATA_DIR, id), report);
      process.stdout.write(summaryText(report.summary));
      printPaths(paths);
    });
}

async function watchExperiment(
  client: Client,
  handle: WorkflowHandle<typeof experimentWorkflow>,
  input: ExperimentInput,
): Promise<ExperimentResult> {
  const episodes = input.arms[0].config.episodes;
  const bar = progressBar('episode {value}/{total} {bar} | arm {armNo}/{arms} {arm} | {now}');
  bar.start(input.arms.length * episodes, 0, { armNo: 1, arms: input.arms.length, arm: input.arms[0].name, now: '' });
  try {
    const result = await pollUntil(handle.result(), async () => {
      const p = await handle.query(experimentProgressQuery);
      let inArm = 0;
      let now = '';
      if (p.currentCampaign) {
        const campaign = await client.workflow
          .getHandle(p.currentCampaign)
          .query(progressQuery)
          .catch(() => null);
        inArm = campaign?.completed ?? 0;
        if (campaign?.currentEpisode) {
          const s = await client.workflow
            .getHandle(campaign.currentEpisode)
            .query(statusQuery)
            .catch(() => null);
          if (s) now = `turn ${s.turn} score ${s.score} ${s.location}`;
        }
      }
      bar.update(p.completedArms * episodes + inArm, { armNo: Math.min(p.completedArms + 1, p.totalArms), arm: p.currentArm ?? '', now });
    });
    bar.update(input.arms.length * episodes, { armNo: input.arms.length, arm: '', now: 'done' });
    return result;
  } finally {
    bar.stop();
  }
}

/** The summary table; seconds per turn come from the transcripts, so they show where the worker's files are. */
function printExperiment(result: ExperimentResult, dataDir: string): void {
  process.stdout.write(
    `\n${summaryText(summarize(experimentReportData(dataDir, result)))}\nresults: ` +
      `${result.resultsPath}\nreport: grue report ${result.experimentId}\n`,
  );
}
