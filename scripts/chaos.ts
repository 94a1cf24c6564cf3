/**
 * npm run chaos [-- --short]: the durability claims tried as an attacker would, on loopback only,
 * stopping everything it started. On a dev server of its own:
 *   1. an episode (Zork I, 200 turns, oracle-free) while the worker running its activity is
 *      SIGKILLed again and again (and the server is restarted once), compared turn by turn with
 *      the same episode run without interruption;
 *   2. a 3-episode campaign with kills, compared with a clean campaign;
 *   3. a 30-turn full-agent episode against a local fake OpenAI-compatible endpoint that fails
 *      30% of calls (500, 429, hang, non-JSON, a 500 that echoes the API key) and answers one
 *      call after 95 s, with a canary API key searched for afterwards in every history, the
 *      server's database and log, and the workers' logs and files;
 *   4. the CLI's bad-input list (exit 2, a `grue:` line, no stack trace).
 * Workers are separate `grue worker` processes, each with its own data dir. Progress goes to
 * stderr; the last thing on stdout is one JSON object. Exit 1 when anything was lost, repeated,
 * different, leaked or stalled too long.
 */
import { Client, Connection } from '@temporalio/client';
import { Command } from 'commander';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { readJsonLines } from '../src/activities/files';
import { createRng } from '../src/agent/rng';
import { resolveCampaignConfig, resolveEpisodeConfig } from '../src/schemas/episode';
import { CampaignResult, EpisodeResult, TurnRecord, TurnRecordSchema } from '../src/agent/records';
import { episodeRecordsFromHistory, runHistories } from '../src/temporal/episodeHistory';
import { DevServer, ensureTemporalCli, freePort, startDevServer } from '../src/temporal/server';
import { campaignWorkflow, episodeWorkflow } from '../src/workflows';
import { progressQuery } from '../src/workflows/campaign';
import { statusQuery } from '../src/workflows/episode';
import { Fault, startFakeOpenAi } from '../test/llm/fakeOpenAi';
import { inProcessWorker, quietRuntime } from '../test/platform/env';
import { killHard } from '../test/platform/scripted';
import { badInputCases, BadInputReport, tryBadInputs } from './chaos/badInput';
import { activityCounts, canaryHits } from './chaos/history';
import { poll, pollingWorkers, runningActivity, sleep, workerPool, WorkerPool } from './chaos/workers';

const ZORK = resolve(__dirname, '..', '..', 'shared', 'games', 'zork1.z3');

interface Form {
  episode: {
    game: string;
    policy: 'oracle-free' | 'random';
    maxTurns: number;
    continueAsNewEvery: number;
    kills: number;
    restartAfterKill: number;
  };
  campaign: { game: string; episodes: number; maxTurns: number; kills: number };
  agent: { game: string; maxTurns: number; slowMs: number; llmTimeoutMs: number };
}

const FULL: Form = {
  episode: { game: ZORK, policy: 'oracle-free', maxTurns: 200, continueAsNewEvery: 50, kills: 16, restartAfterKill: 8 },
  campaign: { game: 'lighthouse', episodes: 3, maxTurns: 40, kills: 4 },
  agent: { game: ZORK, maxTurns: 30, slowMs: 95_000, llmTimeoutMs: 100_000 },
};

/** The form CI runs: the same four parts, smaller, on the games that ship with grue. */
const SHORT: Form = {
  episode: { game: 'lighthouse', policy: 'random', maxTurns: 60, continueAsNewEvery: 25, kills: 3, restartAfterKill: 2 },
  campaign: { game: 'lighthouse', episodes: 3, maxTurns: 20, kills: 2 },
  agent: { game: 'lighthouse', maxTurns: 10, slowMs: 3_000, llmTimeoutMs: 6_000 },
};

/** Faults the fake endpoint serves, a 30% share of calls between them: 'timeout' never answers, 'malformed' is not JSON. */
const FAULTS: Fault[] = ['500', '429', 'timeout', 'malformed', '500-echo-auth'];
const FAULT_RATE = 0.3;
/** The call (counting from 1) answered only after the slow delay. */
const SLOW_CALL = 6;
/** Kills stop this many turns before the end, so each lands mid-episode. */
const END_MARGIN = 8;

const say = (line: string) => process.stderr.write(`chaos: ${line}\n`);

interface Tally {
  kills: number;
  killsMidActivity: number;
  killedDuring: Record<string, number>;
  restarts: number;
  turnsCompared: number;
  mismatches: number;
  gaps: number;
  duplicates: number;
  retries: number;
  stalls: number[];
  redone: number[];
}

/** The server and the client, which the restart replaces. */
interface Lab {
  dir: string;
  address: string;
  port: number;
  uiPort: number;
  server: DevServer;
  client: Client;
  random: () => number;
}

async function restartServer(lab: Lab): Promise<void> {
  await lab.client.connection.close();
  await lab.server.stop();
  lab.server = await startDevServer({ cli: ensureTemporalCli(), dataDir: join(lab.dir, 'server'), port: lab.port, uiPort: lab.uiPort });
  lab.client = new Client({ connection: await Connection.connect({ address: lab.address }) });
}

const turnOf = async (lab: Lab, workflowId: string) => (await lab.client.workflow.getHandle(workflowId).query(statusQuery)).turn;
const isClosed = async (lab: Lab, workflowId: string) =>
  (await lab.client.workflow.getHandle(workflowId).describe()).status.name !== 'RUNNING';

/**
 * Once another worker polls the queue, kill the worker running `workflowId`'s activity and start a
 * replacement. Times the stall (kill → the killed activity running again on a live worker, or the
 * turn done if it had finished first) and the redone turn (kill → the turn in flight done, which
 * adds the activity's own run time). Returns false when there was nothing to kill.
 */
async function killOnce(lab: Lab, pool: WorkerPool, workflowId: string, tally: Tally): Promise<boolean> {
  await poll(async () => (await pollingWorkers(lab.client, pool)).length >= 2 || null, 120_000, 200);
  const target = await poll(() => runningActivity(lab.client, workflowId), 5_000, 50);
  const victim = target && pool.byPid(target.pid);
  if (!target || !victim) return false;
  const turnAtKill = await turnOf(lab, workflowId).catch(() => -1);
  await killHard(victim);
  const killedAt = Date.now();
  // Where the kill landed: the activity is still pending on the dead worker, so its turn must wait for a retry.
  const landed = await runningActivity(lab.client, workflowId).catch(() => null);
  const midActivity = landed?.pid === target.pid;
  pool.add();
  tally.kills++;
  if (midActivity) tally.killsMidActivity++;
  tally.killedDuring[target.activity] = (tally.killedDuring[target.activity] ?? 0) + 1;
  const turnDone = async () => (await isClosed(lab, workflowId)) || (await turnOf(lab, workflowId)) > turnAtKill;
  const retried = async () => {
    const running = await runningActivity(lab.client, workflowId);
    return running?.activityId === target.activityId && running.attempt > target.attempt;
  };
  await poll(async () => (await turnDone()) || (await retried()), 300_000, 200);
  const stall = (Date.now() - killedAt) / 1000;
  await poll(turnDone, 300_000, 200);
  const redone = (Date.now() - killedAt) / 1000;
  tally.stalls.push(stall);
  tally.redone.push(redone);
  say(
    `SIGKILL #${tally.kills} at turn ${turnAtKill} during ${target.activity}${midActivity ? '' : ' (it finished first)'}; ` +
      `running again after ${stall.toFixed(1)} s, the turn done after ${redone.toFixed(1)} s`,
  );
  return true;
}

const decided = (turn: TurnRecord) => JSON.stringify({ ...turn, elapsedMs: 0 });

/** Turn by turn against the reference: differing turns, turns missing from 1..expected, turns written twice. */
function compareTurns(turns: TurnRecord[], reference: TurnRecord[] | null, expected: number, tally: Tally): void {
  const numbers = turns.map((turn) => turn.turn);
  tally.duplicates += numbers.length - new Set(numbers).size;
  tally.gaps += Array.from({ length: expected }, (_, i) => i + 1).filter((turn) => !numbers.includes(turn)).length;
  if (!reference) return;
  const length = Math.max(turns.length, reference.length);
  tally.turnsCompared += Math.min(turns.length, reference.length);
  for (let i = 0; i < length; i++) if (!turns[i] || !reference[i] || decided(turns[i]) !== decided(reference[i])) tally.mismatches++;
}

/** Every run of the episode in the history: retries, and turns played twice (more steps than turns). */
async function countHistory(lab: Lab, workflowId: string, turns: number, tally: Tally): Promise<void> {
  const counts = activityCounts(await runHistories(lab.client, workflowId));
  tally.retries += counts.retries;
  tally.duplicates += Math.max(0, counts.steps - turns);
}

/** Returns the episode's workflow id (finished: the bad-input list reuses it). */
async function episodeUnderKills(lab: Lab, form: Form['episode'], tally: Tally): Promise<string> {
  const input = {
    config: resolveEpisodeConfig({
      game: form.game,
      policy: form.policy,
      seed: 7,
      maxTurns: form.maxTurns,
      continueAsNewEvery: form.continueAsNewEvery,
      transcriptFlushEvery: 7,
      stopOnDeath: false,
    }),
  };
  const stamp = Date.now();
  const reference = await inProcessWorker(lab.address, `chaos-reference-${stamp}`, join(lab.dir, 'reference'));
  const refHandle = await lab.client.workflow.start(episodeWorkflow, {
    taskQueue: `chaos-reference-${stamp}`,
    workflowId: `chaos-reference-${stamp}`,
    args: [input],
  });
  const pool = workerPool({ address: lab.address, taskQueue: `chaos-episode-${stamp}`, dir: join(lab.dir, 'episode') });
  pool.add();
  pool.add();
  const workflowId = `chaos-episode-${stamp}`;
  await lab.client.workflow.start(episodeWorkflow, { taskQueue: `chaos-episode-${stamp}`, workflowId, args: [input] });
  say(
    `episode ${workflowId}: ${form.maxTurns} turns of ${form.game}, ${form.kills} kills, a server restart after kill ${form.restartAfterKill}`,
  );
  try {
    let kills = 0;
    while (kills < form.kills) {
      // Let it play a little between kills, on a fresh worker.
      await sleep(500 + lab.random() * 2500);
      const turn = await turnOf(lab, workflowId).catch(() => 0);
      if (turn >= form.maxTurns - END_MARGIN || (await isClosed(lab, workflowId))) break;
      if (!(await killOnce(lab, pool, workflowId, tally))) continue;
      kills++;
      if (kills === form.restartAfterKill) {
        say('restarting the dev server on the same database');
        await restartServer(lab);
        tally.restarts++;
      }
    }
    const result = (await lab.client.workflow.getHandle(workflowId).result()) as EpisodeResult;
    const refResult = (await lab.client.workflow.getHandle(refHandle.workflowId).result()) as EpisodeResult;
    if (pool.failures.length) throw new Error(`workers died on their own: ${pool.failures.join('; ')}`);
    compareTurns(
      readJsonLines(result.transcriptPath, TurnRecordSchema),
      readJsonLines(refResult.transcriptPath, TurnRecordSchema),
      refResult.turns,
      tally,
    );
    if (JSON.stringify({ ...result, transcriptPath: '' }) !== JSON.stringify({ ...refResult, transcriptPath: '' })) tally.mismatches++;
    await countHistory(lab, workflowId, result.turns, tally);
    say(`episode done: ${result.turns} turns, score ${result.score} (reference ${refResult.turns} turns, score ${refResult.score})`);
    return workflowId;
  } finally {
    await pool.stopAll();
    await reference.stop();
  }
}

async function campaignUnderKills(lab: Lab, form: Form['campaign'], tally: Tally): Promise<void> {
  const config = resolveCampaignConfig({
    game: form.game,
    policy: 'random',
    seed: 7,
    episodes: form.episodes,
    maxTurns: form.maxTurns,
    transcriptFlushEvery: 5,
    stopOnDeath: false,
  });
  const stamp = Date.now();
  const reference = await inProcessWorker(lab.address, `chaos-campaign-reference-${stamp}`, join(lab.dir, 'campaign-reference'));
  const refId = `chaos-campaign-reference-${stamp}`;
  await lab.client.workflow.start(campaignWorkflow, { taskQueue: refId, workflowId: refId, args: [config] });
  const pool = workerPool({ address: lab.address, taskQueue: `chaos-campaign-${stamp}`, dir: join(lab.dir, 'campaign') });
  pool.add();
  pool.add();
  const campaignId = `chaos-campaign-${stamp}`;
  const handle = await lab.client.workflow.start(campaignWorkflow, {
    taskQueue: `chaos-campaign-${stamp}`,
    workflowId: campaignId,
    args: [config],
  });
  say(`campaign ${campaignId}: ${form.episodes} episodes of ${form.maxTurns} turns, ${form.kills} kills`);
  try {
    let kills = 0;
    while (kills < form.kills && !(await isClosed(lab, campaignId))) {
      await sleep(500 + lab.random() * 2500);
      const episode = (await handle.query(progressQuery).catch(() => null))?.currentEpisode;
      if (!episode || (await turnOf(lab, episode).catch(() => 0)) >= form.maxTurns - END_MARGIN) continue;
      if (await killOnce(lab, pool, episode, tally)) kills++;
    }
    const result = (await handle.result()) as CampaignResult;
    const refResult = (await lab.client.workflow.getHandle(refId).result()) as CampaignResult;
    if (pool.failures.length) throw new Error(`workers died on their own: ${pool.failures.join('; ')}`);
    const summary = (r: CampaignResult) => r.episodes.map((e) => [e.score, e.turns, e.victory, e.died]);
    if (JSON.stringify(summary(result)) !== JSON.stringify(summary(refResult))) tally.mismatches++;
    for (const [index, episode] of result.episodes.entries()) {
      const turns = (await episodeRecordsFromHistory(lab.client, episode.workflowId)).turns;
      const referenceTurns = (await episodeRecordsFromHistory(lab.client, refResult.episodes[index].workflowId)).turns;
      compareTurns(turns, referenceTurns, refResult.episodes[index].turns, tally);
      await countHistory(lab, episode.workflowId, episode.turns, tally);
    }
    say(
      `campaign done: scores ${result.episodes.map((e) => e.score).join(' ')} (reference ${refResult.episodes.map((e) => e.score).join(' ')})`,
    );
  } finally {
    await pool.stopAll();
    await reference.stop();
  }
}

interface AgentReport {
  turns: number;
  faultsInjected: number;
  slowAnswers: number;
  /** Errors the endpoint sent back with the canary key in their text: the key reached the worker this often. */
  keyEchoes: number;
  fallbacks: number;
  workerLogs: string[];
}

async function agentAgainstFaultyEndpoint(lab: Lab, form: Form['agent'], canary: string, tally: Tally): Promise<AgentReport> {
  const fake = await startFakeOpenAi('chaos-model');
  // Seeded: the same faults in the same order on every run of the suite.
  fake.faults = Array.from({ length: 5_000 }, (_, call) =>
    call === SLOW_CALL - 1 || lab.random() >= FAULT_RATE ? 'ok' : FAULTS[Math.floor(lab.random() * FAULTS.length)],
  );
  fake.delays = [...Array<number>(SLOW_CALL - 1).fill(0), form.slowMs];
  const stamp = Date.now();
  const pool = workerPool({
    address: lab.address,
    taskQueue: `chaos-agent-${stamp}`,
    dir: join(lab.dir, 'agent'),
    env: {
      GRUE_LLM_PROVIDER: 'openai',
      GRUE_LLM_BASE_URL: fake.url,
      GRUE_LLM_MODEL: 'chaos-model',
      GRUE_LLM_API_KEY: canary,
      GRUE_LLM_TIMEOUT_MS: String(form.llmTimeoutMs),
    },
  });
  pool.add();
  const workflowId = `chaos-agent-${stamp}`;
  const input = {
    config: resolveEpisodeConfig({
      game: form.game,
      policy: 'full',
      seed: 3,
      maxTurns: form.maxTurns,
      stopOnDeath: false,
      maxThinkingIterations: 4,
    }),
  };
  say(
    `full agent ${workflowId}: ${form.maxTurns} turns against a fake endpoint failing ${FAULT_RATE * 100}% of calls, call ${SLOW_CALL} answered after ${form.slowMs / 1000} s`,
  );
  try {
    const handle = await lab.client.workflow.start(episodeWorkflow, { taskQueue: `chaos-agent-${stamp}`, workflowId, args: [input] });
    const result = (await handle.result()) as EpisodeResult;
    if (pool.failures.length) throw new Error(`workers died on their own: ${pool.failures.join('; ')}`);
    const turns = (await episodeRecordsFromHistory(lab.client, workflowId)).turns;
    compareTurns(turns, null, result.turns, tally);
    await countHistory(lab, workflowId, result.turns, tally);
    const served = fake.requests.filter((request) => !request.path.endsWith('/models'));
    const report = {
      turns: result.turns,
      faultsInjected: served.filter((request) => request.fault !== 'ok').length,
      slowAnswers: served.length >= SLOW_CALL ? 1 : 0,
      keyEchoes: served.filter((request) => request.fault === '500-echo-auth').length,
      fallbacks: turns.filter((turn) => turn.fallback).length,
      workerLogs: pool.logs,
    };
    say(
      `full agent done: ${result.turns} turns, ${report.faultsInjected} faults injected in ${served.length} calls, ${report.fallbacks} turns fell back`,
    );
    return report;
  } finally {
    await pool.stopAll();
    await fake.close();
  }
}

async function badInputs(lab: Lab, finishedId: string): Promise<BadInputReport> {
  // A workflow that stays running: nobody serves its queue.
  const runningId = `chaos-running-${Date.now()}`;
  await lab.client.workflow.start(episodeWorkflow, {
    taskQueue: 'chaos-nobody',
    workflowId: runningId,
    args: [{ config: resolveEpisodeConfig({ game: 'lighthouse', policy: 'oracle-free' }) }],
  });
  try {
    return tryBadInputs(badInputCases(runningId, finishedId), {
      TEMPORAL_ADDRESS: lab.address,
      TEMPORAL_UI_PORT: String(lab.uiPort),
      GRUE_DATA_DIR: join(lab.dir, 'cli'),
    });
  } finally {
    await lab.client.workflow.getHandle(runningId).terminate('chaos suite: bad-input check done');
  }
}

const median = (values: number[]) => {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
};

async function main(): Promise<void> {
  const opts = new Command()
    .name('npm run chaos --')
    .description(
      'Kill workers, restart the server, fail LLM calls and feed the CLI bad input; print one JSON object of what was lost, repeated or leaked.',
    )
    .option('--short', 'the small form CI runs (the shipped games, 3 + 2 kills, a 10-turn agent)')
    .option('--seed <n>', 'seed for kill timing and fault order', '1')
    .option('--keep', 'keep the working directory (server database, worker logs and data dirs) for inspection')
    .parse()
    .opts<{ short?: boolean; seed: string; keep?: boolean }>();
  const form = opts.short ? SHORT : FULL;
  if (!opts.short && !existsSync(ZORK))
    throw new Error(
      `the full form plays Zork I from ${ZORK}, which is not there; run the short form (npm run chaos -- --short) or put the game there`,
    );
  quietRuntime();
  const began = Date.now();
  const dir = mkdtempSync(join(tmpdir(), 'grue-chaos-'));
  const [port, uiPort] = [await freePort(), await freePort()];
  say(`working in ${dir}; dev server on 127.0.0.1:${port}`);
  const server = await startDevServer({ cli: ensureTemporalCli(), dataDir: join(dir, 'server'), port, uiPort });
  const address = `127.0.0.1:${port}`;
  const rng = createRng(Number(opts.seed));
  const lab: Lab = {
    dir,
    address,
    port,
    uiPort,
    server,
    client: new Client({ connection: await Connection.connect({ address }) }),
    random: () => rng.next(),
  };
  const tally: Tally = {
    kills: 0,
    killsMidActivity: 0,
    killedDuring: {},
    restarts: 0,
    turnsCompared: 0,
    mismatches: 0,
    gaps: 0,
    duplicates: 0,
    retries: 0,
    stalls: [],
    redone: [],
  };
  const canary = `sk-chaos-canary-${randomBytes(12).toString('hex')}`;
  let exitCode = 0;
  try {
    const episodeId = await episodeUnderKills(lab, form.episode, tally);
    await campaignUnderKills(lab, form.campaign, tally);
    const agent = await agentAgainstFaultyEndpoint(lab, form.agent, canary, tally);
    const bad = await badInputs(lab, episodeId);
    const leaks = await canaryHits(lab.client, canary, [dir]);
    const report = {
      form: opts.short ? 'short' : 'full',
      kills: tally.kills,
      restarts: tally.restarts,
      turnsCompared: tally.turnsCompared,
      mismatches: tally.mismatches,
      gaps: tally.gaps,
      duplicates: tally.duplicates,
      faultsInjected: agent.faultsInjected,
      retries: tally.retries,
      fallbacks: agent.fallbacks,
      stallSecondsMedian: tally.stalls.length ? Number(median(tally.stalls)!.toFixed(1)) : null,
      canaryHits: Object.values(leaks).reduce((sum, hits) => sum + hits, 0),
      killsMidActivity: tally.killsMidActivity,
      killedDuring: tally.killedDuring,
      stallSeconds: tally.stalls.map((stall) => Number(stall.toFixed(1))),
      turnDoneSeconds: tally.redone.map((redone) => Number(redone.toFixed(1))),
      slowAnswers: agent.slowAnswers,
      keyEchoes: agent.keyEchoes,
      agentTurns: agent.turns,
      canaryFoundIn: leaks,
      badInputs: bad,
      elapsedSeconds: Math.round((Date.now() - began) / 1000),
    };
    const wanted = form.episode.kills + form.campaign.kills;
    const problems = [
      report.mismatches && `${report.mismatches} mismatches`,
      report.gaps && `${report.gaps} gaps`,
      report.duplicates && `${report.duplicates} duplicates`,
      report.canaryHits && `the canary key found ${report.canaryHits} times`,
      bad.failures.length && `${bad.failures.length} bad inputs not handled`,
      report.kills < wanted && `only ${report.kills} of ${wanted} kills landed`,
      (report.stallSecondsMedian ?? 0) > 15 && `median stall ${report.stallSecondsMedian} s > 15 s`,
    ].filter(Boolean);
    for (const problem of problems) say(`FAILED: ${problem}`);
    if (problems.length) exitCode = 1;
    process.stdout.write(`${JSON.stringify(report, null, 2)}\n`);
  } finally {
    await lab.client.connection.close().catch(() => undefined);
    await lab.server.stop();
    if (!opts.keep && exitCode === 0) rmSync(dir, { recursive: true, force: true });
    else say(`kept ${dir}`);
  }
  process.exit(exitCode);
}

main().catch((err) => {
  process.stderr.write(`chaos: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
  process.exit(1);
});
