/**
 * `grue play` and `grue campaign`: check everything locally, make sure a Temporal server is up,
 * start the workflow, serve it with an in-process worker (unless --no-worker), show progress
 * with cli-progress, print the result and the workflow's Web UI address.
 */
import { Client, WorkflowHandle } from '@temporalio/client';
import { MultiBar, SingleBar } from 'cli-progress';
import { Command } from 'commander';
import { dirname } from 'node:path';
import { campaignResultsPath, runDir } from '../activities/files';
import { loadStoryFile } from '../engine/story';
import { resolveStory } from '../engine/resolveStory';
import { loadConfig, webUiUrl } from '../config';
import {
  AssistSchema,
  CAMPAIGN_DEFAULTS,
  EPISODE_DEFAULTS,
  EpisodeOptions,
  MAX_PARALLEL_EPISODES,
  PolicyNameSchema,
  resolveCampaignConfig,
  resolveEpisodeConfig,
} from '../schemas/episode';
import { CampaignResult, EpisodeResult, TurnRecord } from '../agent/records';
import { campaignWorkflow, progressQuery } from '../workflows/campaign';
import { episodeWorkflow, statusQuery, transcriptQuery } from '../workflows/episode';
import { GAME_KEY } from '../schemas/searchAttributes';
import { MAX_WORKFLOW_ID_LENGTH, parseInteger, parseWorkflowId, resolved } from './args';
import { log } from '../log';
import { preflightLlm } from './llmCheck';
import { campaignLlmLine, llmResultLine } from './llmResult';
import { connect, newWorkflowId, startNew, withWorker } from './temporal';

export const DEFAULT_GAME = 'lighthouse';

/** What commander parses; anything left undefined takes the default of EPISODE_DEFAULTS. */
export interface RunOptions {
  seed?: number;
  maxTurns?: number;
  policy?: string;
  continueAsNewEvery?: number;
  transcriptFlushEvery?: number;
  turnTimeout?: number;
  stopOnDeath?: boolean;
  compactEvery?: number;
  compactSmart?: boolean;
  thoughtbox?: string;
  maxThinkingIterations?: number;
  knowledgeEvery?: number;
  knowledgeKb?: number;
  knowledgeVerifyAfter?: number;
  assist?: string;
  memoryWork?: string;
  oracleBudget?: number;
  model?: string;
  worker: boolean;
  wait: boolean;
  id?: string;
}

const D = EPISODE_DEFAULTS;

export function addRunOptions(cmd: Command): Command {
  return cmd
    .option('--seed <n>', `seed for the game and the policy (default: ${D.seed})`, parseInteger('--seed', 0, 2 ** 31 - 1))
    .option('--max-turns <n>', `turns per episode (default: ${D.maxTurns})`, parseInteger('--max-turns', 1, 100_000))
    .option(
      '--policy <name>',
      `who chooses the commands: ${PolicyNameSchema.options.join(' | ')} (full = the LLM oracle agent; default: ${D.policy})`,
    )
    .option(
      '--continue-as-new-every <n>',
      `turns per workflow run before continue-as-new (default: ${D.continueAsNewEvery})`,
      parseInteger('--continue-as-new-every', 1, 10_000),
    )
    .option(
      '--transcript-flush-every <n>',
      `turns buffered before they are written to the transcript (default: ${D.transcriptFlushEvery})`,
      parseInteger('--transcript-flush-every', 1, 1_000),
    )
    .option(
      '--turn-timeout <seconds>',
      `seconds a turn may take before another worker retries it (default: ${D.turnTimeoutSeconds})`,
      parseInteger('--turn-timeout', 1, 3600),
    )
    .option('--stop-on-death', `end the episode when the player dies (default: ${D.stopOnDeath})`)
    .option('--no-stop-on-death', 'play on after a death, for games that go on (Zork resurrects you)')
    .option(
      '--compact-every <n>',
      `compact the raw turns into the structured world model every n turns, 0 = off (default: ${D.compactEvery})`,
      parseInteger('--compact-every', 0, 1_000),
    )
    .option('--compact-smart', 'also compact early when a new room is entered or the score changes')
    .option(
      '--thoughtbox <mode>',
      `think a turn through before acting: off | auto (offered on hard turns; the model may decline) | always (default: ${D.thoughtbox})`,
    )
    .option(
      '--max-thinking-iterations <n>',
      `model calls one thoughtbox session may make (default: ${D.maxThinkingIterations})`,
      parseInteger('--max-thinking-iterations', 1, 100),
    )
    .option(
      '--knowledge-every <n>',
      `turns per knowledge window: every n turns a heuristic gate decides whether one ` +
        `LLM call updates the knowledge base, 0 = off (default: ${D.knowledgeEvery})`,
      parseInteger('--knowledge-every', 0, 20),
    )
    .option(
      '--knowledge-kb <n>',
      `size limit of the knowledge base in KB, kept by priority compression (default: ${D.knowledgeKb})`,
      parseInteger('--knowledge-kb', 1, 8),
    )
    .option(
      '--knowledge-verify-after <n>',
      `replay a fact in the engine when it has not been seen true for n turns (default: ${D.knowledgeVerifyAfter})`,
      parseInteger('--knowledge-verify-after', 1, 10_000),
    )
    .option(
      '--assist <level>',
      `what the engine tells the agent about the valid actions: ${AssistSchema.options.join(' | ')} (probe = each action's ` +
        `outcome; valid = the list only, as Jericho's agents get; none = nothing, the agent writes commands; default: ${D.assist})`,
    )
    .option(
      '--memory-work <when>',
      'when memory modules (compaction, knowledge) call the LLM: every-turn (as soon as due) | when-read ' +
        `(only before a turn that asks the oracle, which alone reads them, and at the end; default: ${D.memoryWork})`,
    )
    .option(
      '--oracle-budget <n>',
      'the most turns of an episode on which the full agent asks the oracle, spent only where the explorer ' +
        'has nothing left that opens something up or has made no progress for a few turns (default: no limit)',
      parseInteger('--oracle-budget', 0, 100_000),
    )
    .option(
      '--model <id>',
      'the model the LLM activities use: an embedded model id or the ' +
        "OpenAI-compatible endpoint's model name (default: the worker's GRUE_LLM_MODEL)",
    )
    .option(
      '--id <workflowId>',
      `workflow id, 1-${MAX_WORKFLOW_ID_LENGTH} characters, not used by an earlier run (default: generated)`,
      parseWorkflowId('--id'),
    )
    .option('--no-worker', 'do not run an in-process worker (use when `grue worker` processes are running)')
    .option('--no-wait', 'start the workflow, print its id and return');
}

/** The episode options as given on the command line; the schema's defaults fill in the rest. */
export function episodeOptions(game: string, opts: RunOptions): EpisodeOptions {
  return {
    game: checkGame(game),
    seed: opts.seed,
    maxTurns: opts.maxTurns,
    policy: opts.policy as EpisodeOptions['policy'],
    continueAsNewEvery: opts.continueAsNewEvery,
    transcriptFlushEvery: opts.transcriptFlushEvery,
    turnTimeoutSeconds: opts.turnTimeout,
    stopOnDeath: opts.stopOnDeath,
    compactEvery: opts.compactEvery,
    compactSmart: opts.compactSmart,
    thoughtbox: opts.thoughtbox as EpisodeOptions['thoughtbox'],
    maxThinkingIterations: opts.maxThinkingIterations,
    knowledgeEvery: opts.knowledgeEvery,
    knowledgeKb: opts.knowledgeKb,
    knowledgeVerifyAfter: opts.knowledgeVerifyAfter,
    assist: opts.assist as EpisodeOptions['assist'],
    memoryWork: opts.memoryWork as EpisodeOptions['memoryWork'],
    oracleBudget: opts.oracleBudget,
    model: opts.model,
  };
}

/** Resolve and load the story here, so a missing or corrupt file fails before any workflow starts. */
function checkGame(game: string): string {
  const path = resolveStory(game);
  loadStoryFile(path);
  return game;
}

export function registerPlayCommands(program: Command): void {
  addRunOptions(
    program
      .command('play')
      .description('Play one episode as a durable Temporal workflow and show its progress.')
      .argument('[game]', 'story path or bundled game name', DEFAULT_GAME),
  ).action(async (game: string, opts: RunOptions) => {
    const input = resolved(() => resolveEpisodeConfig(episodeOptions(game, opts)), 'episode options');
    // A bad environment fails before the model loads.
    const env = loadConfig();
    if (input.policy === 'full') log(`LLM: ${await preflightLlm(input.model)}`);
    const { config, client } = await connect(env);
    const workflowId = opts.id ?? newWorkflowId('episode', game, input.seed);
    const handle = await startNew(
      client,
      episodeWorkflow,
      {
        workflowId,
        taskQueue: config.GRUE_TASK_QUEUE,
        args: [{ config: input }],
        typedSearchAttributes: [{ key: GAME_KEY, value: input.game }],
      },
      runDir(config.GRUE_DATA_DIR, workflowId),
    );
    process.stdout.write(`episode ${workflowId}\nWeb UI: ${webUiUrl(config, workflowId)}\n`);
    if (!opts.wait) return;
    const watch = () => watchEpisode(handle, input.maxTurns);
    const result = opts.worker ? await withWorker(config, watch, detached(workflowId)) : await watch();
    printEpisode(result);
    process.stdout.write(`Web UI: ${webUiUrl(config, workflowId)}\n`);
  });

  addRunOptions(
    program
      .command('campaign')
      .description('Play several episodes in a row, carrying what was learned; writes results.json.')
      .argument('[game]', 'story path or bundled game name', DEFAULT_GAME)
      .option('--episodes <n>', `number of episodes (default: ${CAMPAIGN_DEFAULTS.episodes})`, parseInteger('--episodes', 1, 10_000))
      .option(
        '--parallel <n>',
        `episodes in flight at once, as child workflows spread over every worker on the task queue; ` +
          `each starts from what was learned when it started (default: ${CAMPAIGN_DEFAULTS.parallel})`,
        parseInteger('--parallel', 1, MAX_PARALLEL_EPISODES),
      ),
  ).action(async (game: string, opts: RunOptions & { episodes?: number; parallel?: number }) => {
    const input = resolved(
      () => resolveCampaignConfig({ ...episodeOptions(game, opts), episodes: opts.episodes, parallel: opts.parallel }),
      'campaign options',
    );
    // A bad environment fails before the model loads.
    const env = loadConfig();
    if (input.policy === 'full') log(`LLM: ${await preflightLlm(input.model)}`);
    const { config, client } = await connect(env);
    const workflowId = opts.id ?? newWorkflowId('campaign', game, input.seed);
    const handle = await startNew(
      client,
      campaignWorkflow,
      { workflowId, taskQueue: config.GRUE_TASK_QUEUE, args: [input], typedSearchAttributes: [{ key: GAME_KEY, value: input.game }] },
      dirname(campaignResultsPath(config.GRUE_DATA_DIR, workflowId)),
    );
    process.stdout.write(`campaign ${workflowId}\nWeb UI: ${webUiUrl(config, workflowId)}\n`);
    if (!opts.wait) return;
    const watch = () => watchCampaign(client, handle, input.episodes);
    const result = opts.worker ? await withWorker(config, watch, detached(workflowId)) : await watch();
    printCampaign(result);
  });
}

export function progressBar(format: string): SingleBar {
  return new SingleBar({
    format,
    hideCursor: true,
    clearOnComplete: false,
    noTTYOutput: true,
    notTTYSchedule: 5000,
    stream: process.stderr,
  });
}

/** How to go on with a run whose CLI was stopped: any worker on the queue picks it up. */
export function detached(workflowId: string): { workflowId: string; goOn: string } {
  const id = JSON.stringify(workflowId);
  return { workflowId, goOn: `start one (\`grue worker\`) and it goes on; follow it with \`grue status ${id}\`.` };
}

export async function pollUntil<T>(result: Promise<T>, poll: () => Promise<void>, everyMs = 500): Promise<T> {
  let settled = false;
  void result.then(
    () => (settled = true),
    () => (settled = true),
  );
  while (!settled) {
    await poll().catch(() => undefined); // a query can time out while no worker is up yet
    await Promise.race([result.catch(() => undefined), new Promise((r) => setTimeout(r, everyMs))]);
  }
  return result;
}

/** One line per move: what was played, what it scored, and why it was chosen. */
export function moveLine(record: TurnRecord): string {
  const why = record.why
    ? ` — ${record.reason ?? ''}${record.reason ? ': ' : ''}${record.why}`
    : record.reason
      ? ` — ${record.reason}`
      : '';
  return `${String(record.turn).padStart(3)} > ${record.command}  [${record.location || '?'}, score ${record.score}]${why}`;
}

/**
 * The episode's progress: a bar on a terminal, and one line per move saying why it was chosen
 * (above the bar on a terminal; on stdout otherwise, where a redrawn bar would only repeat itself).
 */
async function watchEpisode(handle: WorkflowHandle<typeof episodeWorkflow>, maxTurns: number): Promise<EpisodeResult> {
  const tty = process.stderr.isTTY === true;
  const bars = new MultiBar({
    format: 'turn {value}/{total} {bar} score {score}{max} | {location}',
    hideCursor: true,
    clearOnComplete: false,
    noTTYOutput: false,
    stream: process.stderr,
  });
  const bar = bars.create(maxTurns, 0, { score: 0, max: '', location: '' });
  // Off a terminal the multi-bar creates its bars unstarted (total 100) and draws them once at the end: give it the real total.
  bar.setTotal(maxTurns);
  const say = (line: string) => (tty ? bars.log(`${line}\n`) : process.stdout.write(`${line}\n`));
  let shown = 0;
  const showMoves = (records: TurnRecord[]) => {
    for (const record of [...records].sort((a, b) => a.turn - b.turn)) {
      if (record.turn <= shown) continue;
      say(moveLine(record));
      shown = record.turn;
    }
  };
  try {
    const result = await pollUntil(handle.result(), async () => {
      const s = await handle.query(statusQuery);
      if (s.turn > shown) showMoves(await handle.query(transcriptQuery));
      bar.update(s.turn, { score: s.score, max: s.maxScore !== null ? `/${s.maxScore}` : '', location: s.location });
    });
    showMoves(await handle.query(transcriptQuery).catch(() => []));
    bar.update(result.turns, { score: result.score });
    return result;
  } finally {
    bars.stop();
  }
}

async function watchCampaign(client: Client, handle: WorkflowHandle<typeof campaignWorkflow>, episodes: number): Promise<CampaignResult> {
  const bar = progressBar('episode {value}/{total} {bar} scores [{scores}] {current}');
  bar.start(episodes, 0, { scores: '', current: '' });
  try {
    const result = await pollUntil(handle.result(), async () => {
      const p = await handle.query(progressQuery);
      let current = '';
      if (p.running.length > 1) current = `| ${p.running.length} running`;
      else if (p.currentEpisode) {
        const s = await client.workflow
          .getHandle(p.currentEpisode)
          .query(statusQuery)
          .catch(() => null);
        if (s) current = `| now: turn ${s.turn} score ${s.score} ${s.location}`;
      }
      bar.update(p.completed, { scores: p.scores.join(' '), current });
    });
    bar.update(result.episodes.length, { scores: result.episodes.map((e) => e.score).join(' '), current: '' });
    return result;
  } finally {
    bar.stop();
  }
}

function outcome(r: EpisodeResult): string {
  if (r.victory) return 'won';
  if (r.died) return 'died';
  if (r.storyFault) return `the story faulted on turn ${r.storyFault.turn}'s command "${r.storyFault.command}" (${r.storyFault.message})`;
  return r.stopped ? 'stopped' : 'out of turns';
}

export function printEpisode(r: EpisodeResult): void {
  const ending = outcome(r);
  process.stdout.write(
    `result: ${ending}; score ${r.score}${r.maxScore !== null ? `/${r.maxScore}` : ''} in ${r.turns} turns (${r.moves} ` +
      `moves), policy ${r.policy}, assist ${r.assist}${r.llm?.model ? `, model ${r.llm.model}` : ''}, seed ${r.seed}\n` +
      (r.llm ? `${llmResultLine(r.llm)}\n` : '') +
      `transcript: ${r.transcriptPath}\n`,
  );
}

function episodeEnding(e: CampaignResult['episodes'][number]): string {
  if (e.victory) return ' (won)';
  if (e.died) return ' (died)';
  return e.storyFault ? ` (the story faulted on turn ${e.storyFault.turn}: "${e.storyFault.command}")` : '';
}

function printCampaign(r: CampaignResult): void {
  process.stdout.write(
    `campaign ${r.campaignId}: ${r.episodes.length} episodes, mean score ${r.meanScore.toFixed(2)}, best ${r.maxScore}\n` +
      r.episodes.map((e) => `  ${e.workflowId}: score ${e.score} in ${e.turns} turns${episodeEnding(e)}`).join('\n') +
      `\n${campaignLlmLine(r.episodes) ?? ''}`.replace(/\n$/, '') +
      `\nresults: ${r.resultsPath}\n`,
  );
}
