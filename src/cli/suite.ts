/**
 * `grue suite [dir]`: every game of a suite folder as one durable suite workflow, a line per game
 * as it starts and ends, then the suite's figures. Run again with the same arguments, it attaches
 * to the run already under way (or finished) instead of starting another: no --resume needed. An
 * --id that names a run of other games or settings is refused, not followed.
 */
import { Client, WorkflowHandle, WorkflowNotFoundError } from '@temporalio/client';
import type { Payload } from '@temporalio/common';
import { decodeFromPayloadsAtIndex } from '@temporalio/common/lib/internal-non-workflow';
import { Command } from 'commander';
import { loadConfig, webUiUrl } from '../config';
import { GAME_KEY } from '../schemas/searchAttributes';
import { MAX_PARALLEL_GAMES, SuiteGameProgress, SuiteInput, SuiteInputSchema, SuiteResult } from '../schemas/suite';
import type { CampaignProgress, EpisodeStatus } from '../workflows/contract';
import { progressQuery } from '../workflows/campaign';
import { statusQuery } from '../workflows/episode';
import { suiteProgressQuery, suiteWorkflow } from '../workflows/suite';
import { parseInteger, UsageError } from './args';
import { log } from '../log';
import { preflightLlm } from './llmCheck';
import { addRunOptions, pollUntil } from './play';
import { finishedProgress } from '../experiment/suiteResults';
import { DEFAULT_SUITE_DIR, startedInputDifference, SuiteOptions, suiteInput, suiteWorkflowId } from './suiteInput';
import { connect, withWorker } from './temporal';

type SuiteHandle = WorkflowHandle<typeof suiteWorkflow>;

export function registerSuiteCommand(program: Command): void {
  addRunOptions(
    program
      .command('suite')
      .description(
        'Play every game of a suite folder (its suite.json) as one durable run, a campaign per game; prints a line per game ' +
          'and writes results.json per game and for the suite. The same command again attaches to the same run.',
      )
      .argument('[dir]', `the suite folder (default: ${DEFAULT_SUITE_DIR})`, DEFAULT_SUITE_DIR)
      .option('--setting <name>', 'a named setting: jericho (1 episode × 100 steps) or campaign (10 × 100); default jericho')
      .option('--episodes <n>', 'episodes per game (instead of --setting)', parseInteger('--episodes', 1, 10_000))
      .option('--steps <n>', 'turns per episode (instead of --setting; the same as --max-turns)', parseInteger('--steps', 1, 100_000))
      .option('--games <names>', 'only these games of the suite, comma-separated')
      .option('--parallel <n>', 'games played at once (default: 1)', parseInteger('--parallel', 1, MAX_PARALLEL_GAMES)),
  ).action(async (dir: string, opts: SuiteOptions) => {
    const input = suiteInput(dir, opts);
    const env = loadConfig();
    if (input.setting.policy === 'full') log(`LLM: ${await preflightLlm(input.setting.model)}`);
    const { config, client } = await connect(env);
    const workflowId = opts.id ?? suiteWorkflowId(input);
    const { handle, attached } = await startOrAttach(client, input, workflowId, config.GRUE_TASK_QUEUE);
    const s = input.setting;
    process.stdout.write(
      `suite ${workflowId}${attached ? ' (already started: following it)' : ''}: ${input.games.length} games × ` +
        `${s.episodes} episode(s) × ${s.steps} steps, setting ${s.name}, assist ${s.assist}, policy ${s.policy}, ` +
        `${input.parallel} at once\nWeb UI: ${webUiUrl(config, workflowId)}\n`,
    );
    if (!opts.wait) return;
    const watch = () => watchSuite(client, handle);
    const goOn = 'run the same command again (or start `grue worker`s) and it goes on from where it was.';
    const result = opts.worker ? await withWorker(config, watch, { workflowId, goOn }) : await watch();
    process.stdout.write(summaryText(result));
  });
}

/** A new run, or the one this id already names: running (follow it) or finished (print it). */
async function startOrAttach(
  client: Client,
  input: SuiteInput,
  workflowId: string,
  taskQueue: string,
): Promise<{ handle: SuiteHandle; attached: boolean }> {
  const existing = client.workflow.getHandle<typeof suiteWorkflow>(workflowId);
  const status = await existing.describe().then(
    (d) => d.status.name,
    (err: unknown) => {
      if (err instanceof WorkflowNotFoundError) return null;
      throw err;
    },
  );
  if (status === 'RUNNING' || status === 'COMPLETED' || status === 'CONTINUED_AS_NEW') {
    const started = await startedInput(client, existing);
    const difference = started && startedInputDifference(started, input);
    if (difference)
      throw new UsageError(
        `suite ${JSON.stringify(workflowId)} was started by another command (${difference}): give the command it was started ` +
          'with to follow it, or another --id to start a new run.',
      );
    return { handle: existing, attached: true };
  }
  if (status !== null)
    throw new UsageError(
      `suite ${JSON.stringify(workflowId)} ended ${status.toLowerCase()}: its games' campaigns keep their ids, so start ` +
        'a new run under another --id.',
    );
  const handle = await client.workflow.start(suiteWorkflow, {
    workflowId,
    taskQueue,
    args: [input],
    typedSearchAttributes: [{ key: GAME_KEY, value: input.suiteDir }],
    // Two CLIs started at once with the same command follow one run.
    workflowIdConflictPolicy: 'USE_EXISTING',
  });
  return { handle, attached: false };
}

/** The input a suite run was started with, from the first event of its history; null when it is not a suite input this grue reads. */
async function startedInput(client: Client, handle: SuiteHandle): Promise<SuiteInput | null> {
  const history = await handle.fetchHistory();
  const payloads = history.events?.[0]?.workflowExecutionStartedEventAttributes?.input?.payloads;
  if (!payloads?.length) return null;
  // Decoded as the client decodes any payload: its codecs, then its payload converter.
  const input = await decodeFromPayloadsAtIndex(client.options.loadedDataConverter, 0, payloads as Payload[]);
  const parsed = SuiteInputSchema.safeParse(input);
  return parsed.success ? parsed.data : null;
}

/** A game's line, as the suite's progress shows it. */
export function gameLine(game: SuiteGameProgress): string {
  const name = game.game.padEnd(14);
  if (game.state === 'failed') return `  ${name} failed   ${game.error ?? ''}`;
  if (game.state !== 'done') return `  ${name} ${game.state}`;
  const max = game.maxScore ?? '?';
  const normalised = game.maxScore && game.best !== null ? ` (${(game.best / game.maxScore).toFixed(3)})` : '';
  const earlier = game.reused ? '  (finished by an earlier run: its results.json read back)' : '';
  const faults = game.storyFaults ? `  (${game.storyFaults} episode${game.storyFaults > 1 ? 's' : ''} ended early: the story faulted)` : '';
  return `  ${name} done     ${game.best}/${max}${normalised}${faults}${earlier}`;
}

/** A running game's course is shown every this many turns of its episode. */
export const PROGRESS_EVERY_TURNS = 25;

/** A running game's line with where its episode is: "running  episode 2/10, turn 50/100, score 12/350". */
export function runningLine(game: string, campaign: Pick<CampaignProgress, 'completed' | 'total'>, episode: EpisodeStatus): string {
  const max = episode.maxScore !== null ? `/${episode.maxScore}` : '';
  const where = episode.location ? `, ${episode.location}` : '';
  return (
    `  ${game.padEnd(14)} running  episode ${campaign.completed + 1}/${campaign.total}, ` +
    `turn ${episode.turn}/${episode.maxTurns}, score ${episode.score}${max}${where}`
  );
}

/**
 * Which running games' lines are due: a game's line is printed when its episode reaches another
 * multiple of PROGRESS_EVERY_TURNS (or a new episode starts), so a long game shows its course in a
 * log as on a terminal, a few lines an episode.
 */
export class RunningLines {
  private readonly shown = new Map<string, string>();

  due(game: string, campaign: Pick<CampaignProgress, 'completed' | 'total'>, episode: EpisodeStatus): string | null {
    const mark = `${campaign.completed}:${Math.floor(episode.turn / PROGRESS_EVERY_TURNS)}`;
    if (episode.turn === 0 || this.shown.get(game) === mark) return null;
    this.shown.set(game, mark);
    return runningLine(game, campaign, episode);
  }
}

/** Where a running game's campaign and episode are, or null while they cannot be asked (no worker yet, between episodes). */
async function runningEpisode(client: Client, campaignId: string): Promise<[CampaignProgress, EpisodeStatus] | null> {
  const campaign = await client.workflow.getHandle(campaignId).query(progressQuery);
  if (!campaign.currentEpisode) return null;
  return [campaign, await client.workflow.getHandle(campaign.currentEpisode).query(statusQuery)];
}

/**
 * Polls the suite's progress and prints each game's line when its state changes, and a running
 * game's turn and score as its episode goes on; the result ends it.
 */
async function watchSuite(client: Client, handle: SuiteHandle): Promise<SuiteResult> {
  const shown = new Map<string, string>();
  const running = new RunningLines();
  const show = (games: SuiteGameProgress[]) => {
    for (const game of games) {
      if (game.state === 'waiting' || shown.get(game.game) === game.state) continue;
      // A game that finished between two polls gets its running line too: every game's course reads the same.
      if (game.state !== 'running' && !shown.has(game.game) && !game.reused)
        process.stdout.write(`${gameLine({ ...game, state: 'running' })}\n`);
      shown.set(game.game, game.state);
      process.stdout.write(`${gameLine(game)}\n`);
    }
  };
  const showCourse = async (games: SuiteGameProgress[]) => {
    for (const game of games) {
      if (game.state !== 'running' || !game.campaignId) continue;
      const where = await runningEpisode(client, game.campaignId).catch(() => null);
      const line = where && running.due(game.game, ...where);
      if (line) process.stdout.write(`${line}\n`);
    }
  };
  const result = await pollUntil(
    handle.result(),
    async () => {
      const { games } = await handle.query(suiteProgressQuery);
      show(games);
      await showCourse(games);
    },
    1000,
  );
  show(
    result.games.map((g) => ({
      game: g.game,
      campaignId: g.campaignId,
      maxScore: g.maxScore,
      ...finishedProgress(g),
      reused: result.summary.reusedGames.includes(g.game),
    })),
  );
  return result;
}

const figure = (x: number | null, digits = 3) => (x === null ? '-' : x.toFixed(digits));

export function summaryText(result: SuiteResult): string {
  const s = result.summary;
  const lines = [
    `suite ${result.suiteId}: ${s.games} games, ${s.played} played, mean normalised ${figure(s.meanNormalised)} ` +
      `(median ${figure(s.medianNormalised)}, peak mean ${figure(s.meanNormalisedPeak)}) over ${s.averaged} games`,
    `  solved ${s.solved}, at zero ${s.atZero}; ${s.steps} turns in ${s.wallSeconds.toFixed(1)} s ` +
      `(${figure(s.turnsPerSecond, 2)} turns/s)`,
  ];
  if (s.reusedGames.length) {
    lines.push(`  read back from an earlier run of this id (not played again, not in turns/s): ${s.reusedGames.join(', ')}`);
  }
  if (s.unknownMax.length) lines.push(`  max score unknown (reported, not averaged): ${s.unknownMax.join(', ')}`);
  for (const f of s.failed) lines.push(`  failed: ${f.game}: ${f.error}`);
  lines.push(`results: ${result.resultsPath}`, `report: grue report ${result.suiteId}`);
  return `${lines.join('\n')}\n`;
}
