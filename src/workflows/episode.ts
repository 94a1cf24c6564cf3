/**
 * One episode = one workflow. It decides; activities act. Every turn is a `stepGame` activity
 * whose result (observation, ground truth, valid actions, new snapshot) lands in workflow state,
 * so any worker can continue the game after a crash. Deterministic: no clock, no I/O, randomness
 * from a seeded PRNG carried in state.
 */
import {
  ApplicationFailure,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { describeZodError } from '../schemas/describe';
import { Beliefs, freshBeliefs, LIMITS, pushBounded } from '../agent/beliefs';
import { observe } from '../agent/dynamics';
import { choose, knownMove, triedKey } from '../agent/policy';
import { accuracy } from '../agent/reliability';
import { createRng, seedFor } from '../agent/rng';
import { recommendationWouldHelp, selectAction } from '../agent/selector';
import { StepOutcome, updateFromAnalysis, updateReliability } from '../agent/updater';
import type { TurnAnalysis } from '../schemas/oracle';
import {
  EpisodeConfig,
  EpisodeInput,
  EpisodeInputSchema,
  EpisodeResult,
  EpisodeStatus,
  LearnedState,
  LearnedStateSchema,
  MAX_LEARNED_STATES,
  TurnRecord,
} from '../schemas/episode';
import type { ActionOption, GroundTruthData } from '../schemas/game';
import { GAME_KEY, SCORE_KEY, TURN_KEY } from './searchAttributes';

function gameActivities(turnTimeoutSeconds: number) {
  return proxyActivities<Pick<Activities, 'startGame' | 'stepGame'>>({
    startToCloseTimeout: `${turnTimeoutSeconds} seconds`,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
  });
}

/**
 * Oracle queries: a local generation heartbeats while it runs; a flaky endpoint gets a few
 * retries, after which the turn falls back to the oracle-free policy.
 */
const oracle = proxyActivities<Pick<Activities, 'analyseTurn'>>({
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '90 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 4 },
});

const files = proxyActivities<Pick<Activities, 'writeTranscriptChunk' | 'finalizeTranscript'>>({
  startToCloseTimeout: '1 minute',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 20 },
});

export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
export const stopSignal = defineSignal('stop');
export const statusQuery = defineQuery<EpisodeStatus>('status');
export const transcriptQuery = defineQuery<TurnRecord[]>('transcript');

/** Everything an episode needs to go on in a new run after continue-as-new. */
export interface EpisodeCarry {
  storyMd5: string;
  storyName: string;
  maxScore: number | null;
  turn: number;
  snapshot: string;
  truth: GroundTruthData;
  worldHash: string;
  observation: string;
  options: ActionOption[];
  visited: string[];
  rngState: number;
  learned: LearnedState;
  lastCommand: string | null;
  /** The full agent's belief state and bookkeeping (absent for the other policies). */
  beliefs?: Beliefs;
  lastOutcome?: StepOutcome | null;
  llm?: { calls: number; promptTokens: number; completionTokens: number; fallbackTurns: number };
  /** Planning revision: this episode's state-action counts (see `PolicyContext.tried`). */
  tried?: Record<string, number>;
}

/**
 * The planning revision of the agents (multi-step planning on the dynamics model, which every
 * policy now learns; the oracle skipped when a known path decides the move; cross-episode
 * novelty; recommendations trusted by learned reliability). Histories recorded before it replay
 * on the old decisions.
 */
export const PLANNING_PATCH = 'planning-agent';
/** Bound on remembered state-action counts, for the same reason as MAX_VISITED. */
const MAX_TRIED = 1000;

/** Bound on remembered world hashes, so carried state stays small on very long episodes. */
export const MAX_VISITED = 1500;
/** Turns kept in memory for the transcript query beyond those not yet written out. */
const RECENT_TURNS = 20;

function publishProgress(carry: EpisodeCarry): void {
  upsertSearchAttributes([
    { key: SCORE_KEY, value: carry.truth.score },
    { key: TURN_KEY, value: carry.turn },
  ]);
}

function validate(input: unknown): EpisodeConfig {
  const parsed = EpisodeInputSchema.safeParse(input);
  if (!parsed.success) {
    const detail = describeZodError(parsed.error);
    throw ApplicationFailure.nonRetryable(`Invalid episode input: ${detail}`, 'InvalidInput');
  }
  return parsed.data;
}

function remember(learned: LearnedState, worldHash: string, command: string): LearnedState {
  const known = learned.rewarding[worldHash] ?? [];
  if (known.includes(command)) return learned;
  const rewarding = { ...learned.rewarding, [worldHash]: [...known, command] };
  const keys = Object.keys(rewarding);
  if (keys.length > MAX_LEARNED_STATES) delete rewarding[keys[0]];
  return { ...learned, rewarding };
}

export async function episodeWorkflow(rawInput: EpisodeInput, carried?: EpisodeCarry): Promise<EpisodeResult> {
  const config = validate(rawInput);
  const { workflowId } = workflowInfo();
  const game = gameActivities(config.turnTimeoutSeconds);

  // Handlers first: queries and signals must work while the first activity is still running.
  // What queries see; kept equal to `carry` below once the game has started.
  let view: EpisodeCarry | null = carried ?? null;
  let pending: TurnRecord[] = [];
  let recent: TurnRecord[] = [];
  let paused = false;
  let stopping = false;
  let finished = false;
  let runTurns = 0;

  setHandler(pauseSignal, () => void (paused = true));
  setHandler(resumeSignal, () => void (paused = false));
  setHandler(stopSignal, () => void (stopping = true));
  setHandler(statusQuery, () => ({
    game: config.game,
    turn: view?.turn ?? 0,
    maxTurns: config.maxTurns,
    score: view?.truth.score ?? 0,
    maxScore: view?.maxScore ?? null,
    moves: view?.truth.moves ?? 0,
    location: view?.truth.location.name ?? '',
    paused,
    stopping,
    finished,
    victory: view?.truth.victory ?? false,
    died: view?.truth.died ?? false,
    lastCommand: view?.lastCommand ?? null,
    lastObservation: view?.observation ?? '',
    runTurns,
  }));
  setHandler(transcriptQuery, () => [...recent, ...pending.filter((p) => !recent.includes(p))]);
  const planning = patched(PLANNING_PATCH);

  let carry: EpisodeCarry;
  if (carried) {
    carry = carried;
  } else {
    const start = await game.startGame({ game: config.game, seed: config.seed, validActions: true });
    carry = {
      storyMd5: start.storyMd5,
      storyName: start.storyName,
      maxScore: start.maxScore,
      turn: 0,
      snapshot: start.snapshot,
      truth: start.truth,
      worldHash: start.worldHash,
      observation: start.observation,
      options: start.options,
      visited: [start.worldHash],
      rngState: seedFor(config.seed, 'policy'),
      learned: LearnedStateSchema.parse(config.learned ?? {}),
      lastCommand: null,
      ...(planning ? { tried: {} } : {}),
    };
    if (config.policy === 'full') {
      carry.beliefs = withTruth(freshBeliefs(carry.learned.overallGoal), carry.truth);
      carry.lastOutcome = null;
      carry.llm = { calls: 0, promptTokens: 0, completionTokens: 0, fallbackTurns: 0 };
    }
    upsertSearchAttributes([
      { key: GAME_KEY, value: config.game },
      { key: SCORE_KEY, value: carry.truth.score },
      { key: TURN_KEY, value: 0 },
    ]);
  }

  view = carry;
  const rng = createRng(carry.rngState);
  const visited = new Set(carry.visited);

  const flush = async () => {
    if (pending.length === 0) return;
    await files.writeTranscriptChunk({ workflowId, turns: pending });
    pending = [];
  };

  const over = (t: GroundTruthData) => t.victory || (t.done && !t.died) || (t.died && config.stopOnDeath);
  while (carry.turn < config.maxTurns && !over(carry.truth) && !stopping) {
    await condition(() => !paused || stopping);
    if (stopping) break;

    const before = carry;
    const tried = planning ? (before.tried ?? {}) : undefined;
    const decision = config.policy === 'full' ? await decideWithOracle(before, visited, rng, config.seed, tried) : null;
    const choice = decision?.choice ?? choose(config.policy, { options: before.options, worldHash: before.worldHash, visited, learned: before.learned, rng, tried });
    const next = await game.stepGame({
      game: config.game,
      storyMd5: before.storyMd5,
      snapshot: before.snapshot,
      command: choice.command,
      validActions: true,
    });

    const scoreDelta = next.truth.score - before.truth.score;
    const outcome: StepOutcome = { scoreDelta, newState: !visited.has(next.worldHash) };
    carry = {
      ...before,
      turn: before.turn + 1,
      snapshot: next.snapshot,
      truth: next.truth,
      worldHash: next.worldHash,
      observation: next.observation,
      options: next.options,
      rngState: rng.state,
      learned: scoreDelta > 0 ? remember(before.learned, before.worldHash, choice.command) : before.learned,
      lastCommand: choice.command,
    };
    if (tried) {
      carry.tried = bumpTried(tried, before.worldHash, choice.command);
      carry.learned = { ...carry.learned, dynamics: observe(carry.learned.dynamics, before.worldHash, choice.command, next.worldHash, scoreDelta) };
    }
    if (decision) carry = learnFromStep(carry, before, decision, choice.command, outcome, planning);
    view = carry;
    visited.add(next.worldHash);
    runTurns++;

    const record: TurnRecord = {
      turn: carry.turn,
      command: choice.command,
      observation: next.observation,
      score: next.truth.score,
      moves: next.truth.moves,
      location: next.truth.location.name,
      worldHash: next.worldHash,
      validActions: next.options.length,
      reason: choice.reason,
      ...(decision
        ? {
            fallback: decision.fallback,
            llmCalls: decision.usage.calls,
            tokens: decision.usage.promptTokens + decision.usage.completionTokens,
            ...(decision.analysis ? { recommended: decision.analysis.recommended_action } : {}),
          }
        : {}),
    };
    pending.push(record);
    recent = [...recent, record].slice(-RECENT_TURNS);

    if (scoreDelta !== 0 || carry.turn % 10 === 0) {
      publishProgress(carry);
    }
    if (pending.length >= config.transcriptFlushEvery) await flush();

    const more = carry.turn < config.maxTurns && !over(carry.truth) && !stopping;
    if (more && (runTurns >= config.continueAsNewEvery || workflowInfo().continueAsNewSuggested)) {
      await flush();
      publishProgress(carry);
      const visitedList = [...visited].slice(-MAX_VISITED);
      await continueAsNew<typeof episodeWorkflow>(rawInput, { ...carry, visited: visitedList });
    }
  }

  await flush();
  const transcriptPath = await files.finalizeTranscript({ workflowId });
  publishProgress(carry);
  finished = true;
  const learned: LearnedState = {
    ...carry.learned,
    episodes: carry.learned.episodes + 1,
    bestScore: Math.max(carry.learned.bestScore, carry.truth.score),
    ...(carry.beliefs ? { overallGoal: carry.beliefs.overallGoal } : {}),
  };
  return {
    game: config.game,
    storyMd5: carry.storyMd5,
    seed: config.seed,
    policy: config.policy,
    score: carry.truth.score,
    maxScore: carry.maxScore,
    moves: carry.truth.moves,
    turns: carry.turn,
    victory: carry.truth.victory,
    died: carry.truth.died,
    stopped: stopping,
    transcriptPath,
    learned,
    ...(carry.llm
      ? { llm: carry.llm, recommendationAccuracy: accuracy(carry.learned.reliability, 'recommendation'), beliefs: carry.beliefs }
      : {}),
  };
}

function bumpTried(tried: Record<string, number>, worldHash: string, command: string): Record<string, number> {
  const k = triedKey(worldHash, command);
  const next = { ...tried, [k]: (tried[k] ?? 0) + 1 };
  const keys = Object.keys(next);
  for (let i = 0; i < keys.length - MAX_TRIED; i++) delete next[keys[i]];
  return next;
}

interface Decision {
  choice: { command: string; reason: string };
  analysis: TurnAnalysis | null;
  /** Beliefs after taking the analysis in (unchanged when there was none). */
  beliefs: Beliefs;
  followedRecommendation: boolean;
  fallback: boolean;
  usage: { calls: number; promptTokens: number; completionTokens: number };
  /** Planning revision: would the recommendation have helped, by the engine's probe (null: no answer). */
  recommendationProbe?: boolean | null;
}

/** Ask the oracle about the situation, then let the agent decide. An unreachable LLM means an oracle-free turn. */
async function decideWithOracle(
  c: EpisodeCarry,
  visited: Set<string>,
  rng: ReturnType<typeof createRng>,
  seed: number,
  tried: Record<string, number> | undefined,
): Promise<Decision> {
  const beliefs = c.beliefs ?? freshBeliefs();
  let analysis: TurnAnalysis | null = null;
  let usage = { calls: 0, promptTokens: 0, completionTokens: 0 };
  let fallback = false;
  if (tried) {
    // A move the probes or a learned path already decide needs no oracle call.
    const known = knownMove({ options: c.options, worldHash: c.worldHash, visited, learned: c.learned, rng, tried });
    if (known.choice) return { choice: known.choice, analysis, beliefs, followedRecommendation: false, fallback, usage, recommendationProbe: null };
  }
  if (c.options.length > 0) {
    try {
      const r = await oracle.analyseTurn({
        observation: c.observation,
        beliefs,
        validActions: c.options.map((o) => o.command),
        lastAction: c.lastCommand,
        lastResponse: c.lastCommand ? c.observation : null,
        seed: (seed + c.turn) | 0,
      });
      analysis = r.answer;
      usage = r.usage;
    } catch {
      fallback = true;
    }
  }
  if (fallback) {
    const choice = choose('oracle-free', { options: c.options, worldHash: c.worldHash, visited, learned: c.learned, rng, tried });
    return { choice, analysis: null, beliefs, followedRecommendation: false, fallback, usage, ...(tried ? { recommendationProbe: null } : {}) };
  }
  const updated = !analysis
    ? beliefs
    : tried
      ? updateFromAnalysis(beliefs, analysis, c.learned.reliability, c.lastCommand, c.lastOutcome ?? null)
      : updateFromAnalysis(beliefs, analysis, c.learned.reliability, c.lastCommand);
  const selection = selectAction({
    analysis,
    options: c.options,
    beliefs: updated,
    reliability: c.learned.reliability,
    dynamics: c.learned.dynamics,
    worldHash: c.worldHash,
    visited,
    rng,
    ...(tried ? { tried, learned: c.learned } : {}),
  });
  return {
    choice: { command: selection.command, reason: selection.reason },
    analysis,
    beliefs: updated,
    followedRecommendation: selection.followedRecommendation,
    fallback,
    usage,
    ...(tried ? { recommendationProbe: analysis ? recommendationWouldHelp(analysis, c.options, visited) : null } : {}),
  };
}

/** After a full-agent step: beliefs, reliability, dynamics and usage move forward. */
function learnFromStep(c: EpisodeCarry, before: EpisodeCarry, d: Decision, command: string, outcome: StepOutcome, planning: boolean): EpisodeCarry {
  const beliefs = d.beliefs;
  // The analysis judged the *previous* action's progress: score the claim against what that action did.
  const progressClaim = d.analysis && before.lastOutcome ? { claimed: d.analysis.last_action_made_progress, actual: before.lastOutcome } : null;
  const reliability = updateReliability(before.learned.reliability, outcome, {
    followedRecommendation: d.followedRecommendation,
    actedOnBlocker: d.choice.reason === 'blocker',
    progressClaim,
    ...(d.recommendationProbe !== undefined ? { recommendationProbe: d.recommendationProbe } : {}),
  });
  const llm = before.llm ?? { calls: 0, promptTokens: 0, completionTokens: 0, fallbackTurns: 0 };
  return {
    ...c,
    beliefs: withTruth({ ...beliefs, actionHistory: pushBounded(beliefs.actionHistory, command, LIMITS.actionHistory) }, c.truth),
    lastOutcome: outcome,
    // The planning revision has already put this step in the dynamics model, for every policy.
    learned: { ...c.learned, reliability, dynamics: planning ? c.learned.dynamics : observe(before.learned.dynamics, before.worldHash, command, c.worldHash, outcome.scoreDelta) },
    llm: {
      calls: llm.calls + d.usage.calls,
      promptTokens: llm.promptTokens + d.usage.promptTokens,
      completionTokens: llm.completionTokens + d.usage.completionTokens,
      fallbackTurns: llm.fallbackTurns + (d.fallback ? 1 : 0),
    },
  };
}

/** Ground truth always wins over beliefs for what the game states plainly. */
function withTruth(b: Beliefs, t: GroundTruthData): Beliefs {
  return { ...b, location: t.location.name || b.location, inventory: t.inventory.map((i) => i.name) };
}
