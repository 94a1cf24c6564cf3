/**
 * One episode = one workflow: a short durable loop around the turn pipeline of src/agent/turn.ts.
 * The workflow decides nothing itself: the pipeline's pure stages decide, and the workflow runs
 * the activities between them (oracle query, game step, memory modules' work), writes the
 * transcript, and continues as new with the agent's state every `continueAsNewEvery` turns.
 */
import {
  ActivityFailure,
  ApplicationFailure,
  CancellationScope,
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  log,
  patched,
  proxyActivities,
  setHandler,
  upsertSearchAttributes,
  workflowInfo,
} from '@temporalio/workflow';
import type { Activities } from '../activities';
import { createRng, seedFor } from '../agent/rng';
import { AgentState, AgentStateSchema, fitCarry, initialState } from '../agent/state';
import { openSession, runSession, ThoughtboxSession, thoughtboxOffer } from '../agent/thoughtbox';
import { analysisOf, decide, Deliberation, deliberate, isOver, learn, OracleAnswers, turnView } from '../agent/turn';
import { episodeResult, EpisodeResult, TurnRecord, turnRecord, withEndingMaintenance } from '../agent/records';
import { freshLearned } from '../agent/learned';
import type { MemoryActivity } from '../memory';
import { applyWork, initialMemory, MAX_WORK_ROUNDS, memoryModuleNames, nextWork, prepareMemory, workFailed } from '../memory/runner';
import { EpisodeInput, EpisodeInputSchema, EpisodeStatus } from './contract';
import { validatedInput } from './input';
import { GAME_KEY, SCORE_KEY, TURN_KEY } from '../schemas/searchAttributes';
import { LlmTally } from './llmTally';
import { decisionFlags, SPENT_COMMANDS_PATCH, STORY_FAULT_PATCH } from './decisionPatches';
import { STORY_FAULT_TYPES, StoryFault } from '../schemas/storyFault';

// ── activities ──────────────────────────────────────────────────────────────────────────────

const TURN_HEARTBEAT_TIMEOUT_SECONDS = 10;

/**
 * A turn heartbeats while it probes the valid actions: a worker that died mid-turn is noticed
 * after the heartbeat timeout, not after the whole turn timeout.
 */
const gameActivities = (turnTimeoutSeconds: number) =>
  proxyActivities<Pick<Activities, 'startGame' | 'stepGame'>>({
    startToCloseTimeout: `${turnTimeoutSeconds} seconds`,
    heartbeatTimeout: `${Math.min(TURN_HEARTBEAT_TIMEOUT_SECONDS, turnTimeoutSeconds)} seconds`,
    retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 10 },
  });

/** LLM work heartbeats while it runs; a flaky endpoint gets a few retries, then the turn plays on without it. */
const llmWork = {
  startToCloseTimeout: '5 minutes',
  heartbeatTimeout: '30 seconds',
  retry: { initialInterval: '2 seconds', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 4 },
} as const;
const oracle = proxyActivities<Pick<Activities, 'analyseTurn' | 'analyseFailure'>>(llmWork);
/** One thought per activity: a retried or resumed session repeats no accepted thought (see thinkThrough). */
const thinker = proxyActivities<Pick<Activities, 'think'>>(llmWork);
/** Memory modules' activities, called by the name each module gives (see src/memory/module.ts). */
const memoryActivities = proxyActivities<Pick<Activities, MemoryActivity>>(llmWork);

/** A file write takes milliseconds (reading the history back heartbeats per run): a dead worker's write is retried after 10 s. */
const files = proxyActivities<Pick<Activities, 'writeTranscriptChunk' | 'finalizeTranscript' | 'writeMemoryFiles' | 'writeThoughts'>>({
  startToCloseTimeout: '1 minute',
  heartbeatTimeout: '10 seconds',
  retry: { initialInterval: '1 second', backoffCoefficient: 2, maximumInterval: '30 seconds', maximumAttempts: 20 },
});

export const pauseSignal = defineSignal('pause');
export const resumeSignal = defineSignal('resume');
export const stopSignal = defineSignal('stop');
export const statusQuery = defineQuery<EpisodeStatus>('status');
export const transcriptQuery = defineQuery<TurnRecord[]>('transcript');
/** Every memory module's current state, by module name (`grue memory`). */
export const memoryQuery = defineQuery<Record<string, unknown>>('memory');
/** This run's recent thoughtbox sessions, the one in progress last (all of them: thoughts.jsonl). */
export const thinkingQuery = defineQuery<ThoughtboxSession[]>('thinking');

/** Turns kept in memory for the transcript query beyond those not yet written out. */
const RECENT_TURNS = 20;
/** Thoughtbox sessions kept in memory for the thinking query. */
const RECENT_SESSIONS = 10;

// ── the workflow ────────────────────────────────────────────────────────────────────────────

export async function episodeWorkflow(input: EpisodeInput, carried?: AgentState): Promise<EpisodeResult> {
  const { config, learned } = validatedInput(EpisodeInputSchema, input, 'episode input');
  // The carry is parsed too: a run that continued as new under older code carries a state without
  // the fields added since, and the schema's defaults fill them in.
  const carriedState = carried === undefined ? null : validatedInput(AgentStateSchema, carried, 'carried agent state');
  const { workflowId } = workflowInfo();
  // Agent changes that alter decisions are patched, so a run started under the code before them
  // replays as it was played; each later run (after continue-as-new) takes them up. Asked once,
  // before any activity, so the answer holds for the whole run.
  const spendsRepeats = patched(SPENT_COMMANDS_PATCH);
  const decisions = decisionFlags();
  const game = gameActivities(config.turnTimeoutSeconds);
  /** An LLM activity's input, with the episode's model when it names one (the worker's otherwise; see LLM_MODEL_KEY). */
  const withModel = <T extends object>(request: T): T => (config.model ? { ...request, llmModel: config.model } : request);

  // Handlers first: queries and signals must work while the first activity is still running.
  let state: AgentState | null = carriedState;
  const control = { paused: false, standing: false, stopping: false, finished: false, runTurns: 0 };
  let pending: TurnRecord[] = [];
  let recent: TurnRecord[] = [];
  setHandler(pauseSignal, () => void (control.paused = true));
  setHandler(resumeSignal, () => void (control.paused = false));
  setHandler(stopSignal, () => void (control.stopping = true));
  setHandler(statusQuery, () => status(config, state, control));
  setHandler(transcriptQuery, () => [...recent, ...pending.filter((p) => !recent.includes(p))]);
  setHandler(memoryQuery, () => state?.memory ?? {});
  let sessions: ThoughtboxSession[] = [];
  let thinkingNow: ThoughtboxSession | null = null;
  setHandler(thinkingQuery, () => (thinkingNow ? [...sessions, thinkingNow] : sessions));

  const flush = async () => {
    if (pending.length === 0) return;
    await files.writeTranscriptChunk({ workflowId, turns: pending });
    pending = [];
  };
  /** Write what is pending, assemble transcript.jsonl and publish the last progress; returns its path. */
  const closeTranscript = async (last: AgentState | null) => {
    await flush();
    const path = await files.finalizeTranscript({ workflowId });
    publishProgress(last);
    return path;
  };

  if (!state) {
    const start = await game.startGame({
      game: config.game,
      seed: config.seed,
      assist: config.assist,
      ...(config.openingCommands?.length ? { openingCommands: config.openingCommands } : {}),
    });
    const known = learned ?? freshLearned();
    state = initialState(start, known, seedFor(config.seed, 'policy'), initialMemory(known, config));
    upsertSearchAttributes([{ key: GAME_KEY, value: config.game }]);
    publishProgress(state);
  }
  state = { ...state, ...decisions };
  // Answered and failed LLM calls, carried through continue-as-new in the state's usage.
  const tally = new LlmTally(state.llm);

  /**
   * The thoughtbox's tool-calling loop: one `think` activity per round, each carrying the turn's
   * context and every earlier round; the pure reducer takes each answer in. Every finished
   * activity is in the history, so a worker lost mid-session resumes at the next thought.
   */
  const thinkThrough = async (
    before: AgentState,
    deliberation: Extract<Deliberation, { kind: 'ask' }>,
    answers: OracleAnswers | 'unreachable',
  ): Promise<ThoughtboxSession | null> => {
    const offer = thoughtboxOffer(before, config, answers, deliberation.trust);
    if (!offer || answers === 'unreachable') return null;
    thinkingNow = openSession(before.turn, offer.trigger, offer.required, config.maxThinkingIterations);
    const session = await runSession(
      thinkingNow,
      deliberation.request,
      analysisOf(answers),
      // A conclusion is one of the actions the oracle was asked about (any command under the `none` assist).
      deliberation.request.validActions.map((command) => ({ command })),
      (request) => tally.call('think', 'thoughtbox', () => thinker.think(withModel(request))),
      (round) => void (thinkingNow = round),
    );
    if (session.outcome === 'limit')
      log.warn('thoughtbox reached maxThinkingIterations without a conclusion; the oracle and selector decide', {
        turn: session.turn,
        iterations: session.iterations,
      });
    await files.writeThoughts({ workflowId, session });
    sessions = [...sessions, session].slice(-RECENT_SESSIONS);
    thinkingNow = null;
    return session;
  };

  /** One turn through the pipeline; returns the next state and the turn's record, or the story's fault on the command. */
  const playTurn = async (before: AgentState): Promise<[AgentState, TurnRecord] | StoryFault> => {
    // Workflow time (deterministic: the time of the workflow task), so a replay records the same elapsedMs.
    const startedAt = Date.now();
    const rng = createRng(before.rngState);
    const deliberation = deliberate(before, config, rng);
    const answer = deliberation.kind === 'ask' ? await askOracle(deliberation, withModel, tally) : null;
    const thinking = deliberation.kind === 'ask' && answer ? await thinkThrough(before, deliberation, answer) : null;
    const decision = decide(before, config, rng, deliberation, answer, thinking);
    const stepping = game.stepGame({
      game: config.game,
      storyMd5: before.story.md5,
      snapshot: before.snapshot,
      command: decision.command,
      assist: config.assist,
    });
    const step = await stepping.catch((err: unknown) => {
      // Asked only when a story faults: a run that failed on one before this patch replays as it failed.
      const fault = storyFaultOf(err, before.turn + 1, decision.command);
      if (fault && patched(STORY_FAULT_PATCH)) return { fault };
      throw err;
    });
    if ('fault' in step) return step.fault;
    // Before the patch nothing was counted, so nothing is ever spent (see SPENT_AFTER).
    const counted = spendsRepeats ? before : { ...before, made: {} };
    const learned = learn(counted, config, decision, step, rng);
    const [maintained, failures] = memoryReadNext(learned)
      ? await maintain(workflowId, learned, before, false, withModel, tally)
      : [learned, [] as string[]];
    const after = { ...maintained, llm: tally.into(maintained.llm) };
    const llmFailures = tally.takeTurnFailures();
    const record = { ...turnRecord(after, decision, config, failures), ...(llmFailures.length ? { llmFailures } : {}) };
    return [after, { ...record, elapsedMs: Date.now() - startedAt }];
  };

  let storyFault: StoryFault | null = null;
  const more = (s: AgentState) => s.turn < config.maxTurns && !isOver(s.truth, config) && !control.stopping && !storyFault;
  /**
   * Whether this turn's memory work is worth doing now. Under `when-read` only when the next turn
   * asks the oracle, whose context is where that work is read: deliberation is pure and does not
   * depend on memory to decide whether to ask, so it is looked at here with the next turn's own
   * random state (not consumed). Work skipped stays due (raw turns pend, windows extend).
   */
  const memoryReadNext = (next: AgentState) =>
    config.memoryWork !== 'when-read' || (more(next) && deliberate(next, config, createRng(next.rngState)).kind === 'ask');
  /** Held here between turns while paused (the turn under way when the pause came has ended). */
  const standWhilePaused = async () => {
    control.standing = control.paused;
    await condition(() => !control.paused || control.stopping);
    control.standing = false;
  };
  const runIsFull = () => control.runTurns >= config.continueAsNewEvery || (control.runTurns > 0 && workflowInfo().continueAsNewSuggested);
  try {
    while (more(state)) {
      // A pause holds here, before continue-as-new too, so it is not lost to a new run.
      await standWhilePaused();
      if (!more(state) || runIsFull()) break;
      const played = await playTurn(state);
      if (!Array.isArray(played)) {
        storyFault = played;
        log.warn('the story faulted on the command; the episode ends with the turns played before it', storyFault);
        break;
      }
      const [next, record] = played;
      state = next;
      control.runTurns++;
      pending.push(record);
      recent = [...recent, record].slice(-RECENT_TURNS);
      if (state.lastOutcome?.scoreDelta || state.turn % 10 === 0) publishProgress(state);
      if (pending.length >= config.transcriptFlushEvery) await flush();
    }
    if (more(state)) {
      // The run is full. A pause or a stop that comes while its transcript is written is held here:
      // the next run would not know of it (nothing awaits between this and continue-as-new).
      await flush();
      publishProgress(state);
      await standWhilePaused();
    }
    if (!more(state)) {
      [state] = await maintain(workflowId, state, null, true, withModel, tally);
      state = { ...state, llm: tally.into(state.llm) };
      // What the end-of-episode maintenance decided (the final knowledge update, its failures) belongs to the last turn's record.
      const last = recent[recent.length - 1];
      const endingFailures = tally.takeTurnFailures();
      const amended = last ? withEndingMaintenance(last, state, endingFailures) : null;
      if (last && amended !== last) {
        pending = [...pending.filter((r) => r.turn !== last.turn), amended!];
        recent = [...recent.slice(0, -1), amended!];
      }
    }
  } catch (err) {
    // Ended by a failure or a cancellation: the turns played so far still reach the transcript.
    const last = state;
    await CancellationScope.nonCancellable(() => closeTranscript(last));
    throw err;
  }
  if (more(state)) {
    // The carry is trimmed to its byte budget (see fitCarry) so every run's input stays small.
    await continueAsNew<typeof episodeWorkflow>({ config }, fitCarry(state));
  }

  const transcriptPath = await closeTranscript(state);
  control.finished = true;
  return episodeResult(state, config, control.stopping, transcriptPath, storyFault);
}

/** The story's own fault on `command` (the same from the same snapshot, every try), or null for any other failure. */
function storyFaultOf(err: unknown, turn: number, command: string): StoryFault | null {
  if (!(err instanceof ActivityFailure) || !(err.cause instanceof ApplicationFailure)) return null;
  const cause = err.cause;
  return cause.type && STORY_FAULT_TYPES.includes(cause.type) ? { turn, command, message: cause.message } : null;
}

// ── the pipeline's I/O ──────────────────────────────────────────────────────────────────────

/** The oracle's answers, or 'unreachable' when the turn query failed (a failed failure analysis is just left out). */
type WithModel = <T extends object>(request: T) => T;

async function askOracle(
  deliberation: Extract<Deliberation, { kind: 'ask' }>,
  withModel: WithModel,
  tally: LlmTally,
): Promise<OracleAnswers | 'unreachable'> {
  const turn = await tally.call('analyseTurn', 'oracle', () => oracle.analyseTurn(withModel(deliberation.request)));
  if (turn === 'unreachable') return turn;
  const failure = deliberation.failure
    ? await tally.call('analyseFailure', 'failure analysis', () => oracle.analyseFailure(withModel(deliberation.failure!)))
    : null;
  return { turn, failure: failure === 'unreachable' ? null : failure };
}

/**
 * Every memory module's due work, module by module: each result is applied before the module is
 * asked again (an update, then engine checks of what it learned, then the wisdom), a bounded
 * number of rounds. A module whose work fails is named in the result and the episode plays on
 * with the state it had (DESIGN: memory never stops a game); a failed update does not cost the
 * episode its wisdom.
 */
async function maintain(
  workflowId: string,
  state: AgentState,
  before: AgentState | null,
  ending: boolean,
  withModel: WithModel,
  tally: LlmTally,
): Promise<[AgentState, string[]]> {
  const view = turnView(state, before, ending);
  const failures: string[] = [];
  let memory = prepareMemory(state.memory, view);
  for (const module of memoryModuleNames()) {
    const failed = new Set<string>();
    for (let round = 0; round < MAX_WORK_ROUNDS; round++) {
      const work = nextWork(memory, view, module);
      // An activity that failed this turn is not tried again until the next one; the module's other work still runs.
      if (!work || failed.has(work.activity)) break;
      // Each module builds its own activity's request; the activity parses it at its boundary.
      const run = memoryActivities[work.activity] as (request: object) => Promise<unknown>;
      const result = await tally.call(work.activity, `memory module ${module} (${work.activity})`, () =>
        run(withModel(work.request as object)),
      );
      if (result === 'unreachable') {
        if (!failures.includes(module)) failures.push(module);
        failed.add(work.activity);
        memory = workFailed(memory, work, view);
        continue;
      }
      const applied = applyWork(memory, work, result, view);
      memory = applied.memory;
      if (applied.files) await files.writeMemoryFiles({ workflowId, files: applied.files });
    }
  }
  return [{ ...state, memory }, failures];
}

// ── boundaries and views ────────────────────────────────────────────────────────────────────

function publishProgress(state: AgentState | null): void {
  if (!state) return;
  upsertSearchAttributes([
    { key: SCORE_KEY, value: state.truth.score },
    { key: TURN_KEY, value: state.turn },
  ]);
}

function status(
  config: EpisodeInput['config'],
  state: AgentState | null,
  control: { paused: boolean; standing: boolean; stopping: boolean; finished: boolean; runTurns: number },
): EpisodeStatus {
  return {
    game: config.game,
    turn: state?.turn ?? 0,
    maxTurns: config.maxTurns,
    score: state?.truth.score ?? 0,
    maxScore: state?.story.maxScore ?? null,
    moves: state?.truth.moves ?? 0,
    location: state?.truth.location.name ?? '',
    victory: state?.truth.victory ?? false,
    died: state?.truth.died ?? false,
    lastCommand: state?.lastCommand ?? null,
    lastObservation: state?.observation ?? '',
    ...control,
  };
}
