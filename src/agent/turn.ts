/**
 * One turn as a fixed sequence of named stages, all pure: the episode workflow runs them in order
 * and does only the I/O between them (the oracle query, the game step, memory modules' work).
 *
 *   perceive   the engine's observation and ground truth become the state (`initialState`, `learn`)
 *   recall     the LLM context: the beliefs and every memory module's `render`
 *   deliberate what needs no oracle is decided here; otherwise the oracle query to ask
 *   decide     the action, from the oracle's answer (or its absence) under the engine's vetting
 *   act        (workflow) stepGame runs the command
 *   learn      beliefs, reliability, dynamics, novelty, memory modules' bookkeeping
 *   maintain   each memory module says whether its work is due; the workflow runs it, `apply` merges
 */
import { MEMORY_MODULES } from '../memory';
import type { AnyMemoryModule, ModuleWork, TurnView } from '../memory';
import { KnowledgeState, updateAt } from '../memory/knowledge';
import type { EpisodeConfig } from '../schemas/episode';
import type { EpisodeResult, TurnRecord } from './records';
import type { LearnedState } from './learned';
import { ActionOption, cellOf, GameState, GroundTruthData } from '../schemas/game';
import { addUsage, NO_USAGE } from '../schemas/oracle';
import type { ContextSection, FailureAnswer, FailureRequest, OracleUsage, TurnAnalysis, TurnAnswer, TurnRequest } from '../schemas/oracle';
import { Beliefs, beliefsContext, LIMITS as BELIEF_LIMITS, pushBounded } from './beliefs';
import { knownStates, observe as observeDynamics, shortState } from './dynamics';
import { CellMemory, exhausted, frontier, isFirstEver, placeOf, tierOf } from './cells';
import { exitsOf } from './rooms';
import { choose, knownMove, MAX_TRIES, nextUntried, PolicyContext, safePool, timesTried, triedKey } from './policy';
import { accuracy } from './reliability';
import type { Rng } from './rng';
import { actionWouldHelp, selectAction, SelectionReason } from './selector';
import { AgentState, doneIn, keepNewest, LIMITS, markVisited, moveAt, pushOnce, rememberCells, rememberDeath, rememberReward, visitedSet, withTruth } from './state';
import type { ThoughtboxSession } from './thoughtbox/schema';
import { updateFromAnalysis, updateReliability } from './updater';

/** Tokens a memory module may use in the context unless it says otherwise. */
const MODULE_CONTEXT_TOKENS = 150;

export function isOver(truth: GroundTruthData, config: EpisodeConfig): boolean {
  return truth.victory || (truth.done && !truth.died) || (truth.died && config.stopOnDeath);
}

function policyContext(state: AgentState, config: EpisodeConfig, rng: Rng): PolicyContext {
  return {
    assist: config.assist,
    options: state.options,
    commands: state.commands,
    observation: state.observation,
    worldHash: state.worldHash,
    visited: visitedSet(state),
    cells: cellMemory(state),
    learned: state.learned,
    rng,
    tried: state.tried,
    rooms: { here: state.truth.location.id, exits: state.exits, open: new Set(state.open) },
  };
}

/** The cells this episode and earlier ones reached (see cells.ts). */
function cellMemory(state: AgentState): CellMemory {
  const known = knownStates(state.learned.dynamics);
  return {
    here: cellOf(state.truth),
    seen: new Set(state.cells),
    seenBefore: new Set(state.learned.cells),
    deadly: new Set(state.learned.deadlyPlaces),
    visited: visitedSet(state),
    known: { has: (hash) => known.has(shortState(hash)) },
    doneHere: doneIn(state, state.truth.location.id),
  };
}

/** What a memory module sees; `before` is the state the last command was run from. */
export function turnView(state: AgentState, before: AgentState | null, ending = false): TurnView {
  return {
    turn: state.turn,
    command: state.lastCommand,
    before: before?.truth ?? null,
    truth: state.truth,
    observation: state.observation,
    worldHash: state.worldHash,
    snapshot: state.snapshot,
    storyMd5: state.story.md5,
    goal: state.beliefs.currentSubgoal !== 'unknown' ? state.beliefs.currentSubgoal : state.beliefs.overallGoal,
    ending,
  };
}

// ── recall ──────────────────────────────────────────────────────────────────────────────────

export function recall(state: AgentState, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): ContextSection[] {
  const view = turnView(state, null);
  const sections: ContextSection[] = [{ title: "AGENT'S BELIEFS", text: beliefsContext(state.beliefs) }];
  for (const module of modules) {
    const text = module.render(state.memory[module.name], view, module.contextTokens ?? MODULE_CONTEXT_TOKENS);
    if (text) sections.push({ title: module.name.toUpperCase(), text });
  }
  return sections;
}

// ── deliberate ──────────────────────────────────────────────────────────────────────────────

export interface Choice {
  command: string;
  reason: SelectionReason | 'remembered';
  why: string;
}

/**
 * Either the move is decided without the oracle, or these are the questions to ask it: the
 * merged turn query, and the failure analysis when the last action changed nothing.
 */
export type Deliberation = { kind: 'decided'; choice: Choice } | { kind: 'ask'; request: TurnRequest; failure: FailureRequest | null };

/** The oracle's answers, as the workflow got them. */
export interface OracleAnswers {
  turn: TurnAnswer;
  failure: FailureAnswer | null;
}

export function deliberate(state: AgentState, config: EpisodeConfig, rng: Rng, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): Deliberation {
  const ctx = policyContext(state, config, rng);
  if (config.policy !== 'full') return { kind: 'decided', choice: choose(config.policy, ctx) };
  // A move the probes or a learned path already decide needs no oracle call.
  const known = knownMove(ctx);
  if (known.choice) return { kind: 'decided', choice: known.choice };
  const listed = advisedCommands(state, config, known.pool, ctx);
  // Nothing to choose between: no valid action at all, or one move alone opens something new
  // (asked anyway when every turn is to be thought through).
  const nothingToAsk = config.assist !== 'none' && (listed.length === 0 || (listed.length === 1 && config.thoughtbox !== 'always'));
  if (nothingToAsk) {
    const move = selectAction({ ...ctx, reliability: state.learned.reliability, analysis: null });
    return { kind: 'decided', choice: { command: move.command, reason: move.reason, why: move.why } };
  }
  const context = recall(state, modules);
  const seed = (config.seed + state.turn) | 0;
  const failed = state.lastCommand !== null && state.lastOutcome !== null && !state.lastOutcome.worldChanged;
  return {
    kind: 'ask',
    request: { observation: state.observation, lastAction: state.lastCommand, validActions: listed, context, seed },
    failure: failed ? { situation: context[0].text, failedAction: state.lastCommand!, response: state.observation, seed } : null,
  };
}

/**
 * The actions the oracle is asked to choose from. Under `probe`, the best novelty tier's, when it
 * has any worth a choice (the selector takes advice only from there, and a short list is a
 * short prompt); under `valid`, the untried moves of the least risky kind left (the selector's
 * choices there too); under `none`, nothing: the model writes the command.
 */
function advisedCommands(state: AgentState, config: EpisodeConfig, pool: ActionOption[], ctx: PolicyContext): string[] {
  if (config.assist === 'none') return [];
  if (config.assist === 'valid') return nextUntried(ctx)?.commands ?? [];
  const best = frontier(pool, ctx.cells);
  return (best?.options ?? []).filter((o) => timesTried(state.tried, state.worldHash, o.command) < MAX_TRIES).map((o) => o.command);
}

/** The oracle's answers as one analysis: the failure analysis is the better judge of why the last action failed. */
export function analysisOf(answers: OracleAnswers): TurnAnalysis {
  return withFailure(answers.turn.answer, answers.failure);
}

function withFailure(analysis: TurnAnalysis, failure: FailureAnswer | null): TurnAnalysis {
  if (!failure) return analysis;
  const f = failure.answer;
  return { ...analysis, last_action_made_progress: false, failure_reason: f.failure_reason || analysis.failure_reason, prerequisite: f.prerequisite || analysis.prerequisite };
}


// ── decide ──────────────────────────────────────────────────────────────────────────────────

export interface Decision {
  command: string;
  reason: Choice['reason'];
  why: string;
  analysis: TurnAnalysis | null;
  /** The beliefs after taking the analysis in (unchanged without one). */
  beliefs: Beliefs;
  /** The oracle was asked and stayed unreachable: the oracle-free policy chose. */
  fallback: boolean;
  /** The model that answered (provider:model), when one did. */
  model?: string;
  usage: OracleUsage;
  /** What the engine's probe says the recommendation would have done (null: no answer). */
  recommendationProbe: boolean | null;
  /** This turn's thoughtbox session, when one was offered. */
  thinking: ThoughtboxSession | null;
  /** What the engine's probe says the session's concluded action would have done (null: no conclusion). */
  conclusionProbe: boolean | null;
}

const NO_ADVICE = { analysis: null, fallback: false, usage: NO_USAGE, recommendationProbe: null, thinking: null, conclusionProbe: null } as const;

/**
 * The action. `answer` is the oracle's answer when it was asked, or 'unreachable' when the LLM
 * failed after its retries: that turn is played by the oracle-free policy. `thinking` is the
 * turn's thoughtbox session: a concluded one offers its action to the selector; any other
 * outcome (declined, iteration limit, ...) leaves the choice to the oracle and the selector.
 */
export function decide(state: AgentState, config: EpisodeConfig, rng: Rng, deliberation: Deliberation, answer: OracleAnswers | 'unreachable' | null, thinking: ThoughtboxSession | null = null): Decision {
  if (deliberation.kind === 'decided') return { ...deliberation.choice, ...NO_ADVICE, beliefs: state.beliefs };
  if (answer === null) throw new Error('decide: the oracle was to be asked, but no answer was given');
  const ctx = policyContext(state, config, rng);
  if (answer === 'unreachable') {
    const choice = choose('oracle-free', ctx);
    return { ...choice, why: `LLM unreachable; ${choice.why}`, ...NO_ADVICE, beliefs: state.beliefs, fallback: true };
  }
  const analysis = analysisOf(answer);
  const beliefs = updateFromAnalysis(state.beliefs, analysis, state.learned.reliability, state.lastCommand, state.lastOutcome);
  const conclusion = thinking?.outcome === 'concluded' ? thinking.action : null;
  const selection = selectAction({ ...ctx, reliability: state.learned.reliability, analysis, conclusion });
  const oracleUsage = answer.failure ? addUsage(answer.turn.usage, answer.failure.usage) : answer.turn.usage;
  return {
    command: selection.command,
    reason: selection.reason,
    why: selection.why,
    ...(answer.turn.model ? { model: answer.turn.model } : {}),
    analysis,
    beliefs,
    fallback: false,
    usage: thinking ? addUsage(oracleUsage, thinking.usage) : oracleUsage,
    recommendationProbe: config.assist === 'probe' ? actionWouldHelp(analysis.recommended_action, state.options, ctx.visited) : null,
    thinking,
    conclusionProbe: conclusion && config.assist === 'probe' ? actionWouldHelp(conclusion, state.options, ctx.visited) : null,
  };
}

// ── learn ───────────────────────────────────────────────────────────────────────────────────

/** The state after `step` (the engine's result of running `step.command`, which is what is learned from). */
export function learn(state: AgentState, decision: Decision, step: GameState & { command: string }, rng: Rng, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): AgentState {
  const command = step.command;
  // A scene's moves (9:05's yes/no questions in the car) change only global variables, so the
  // object tree's hash stays put through the whole scene; the probe tells them apart by the
  // globals they set. Learning from the probe's hash keeps "no, then yes" apart from "yes".
  const scene = state.options.find((option) => option.command === command && option.scene);
  const reached = scene?.resultHash ?? step.worldHash;
  const scoreDelta = step.truth.score - state.truth.score;
  const outcome = { scoreDelta, newState: !visitedSet(state).has(reached), worldChanged: reached !== state.worldHash };
  const beliefsBefore = decision.beliefs;
  const analysis = decision.analysis;
  // A first ever: later episodes return here (see learned.frontier).
  const firstEver = !step.truth.died && isFirstEver(cellOf(step.truth), { seen: new Set(state.cells), seenBefore: new Set(state.learned.cells) });
  const reliability = analysis
    ? updateReliability(state.learned.reliability, outcome, {
        actedOnBlocker: decision.reason === 'blocker',
        // The analysis judged the *previous* action's progress: score the claim against what that action did.
        progressClaim: state.lastOutcome ? { claimed: analysis.last_action_made_progress, actual: state.lastOutcome } : null,
        recommendationProbe: decision.recommendationProbe,
        conclusionProbe: decision.conclusionProbe,
        actedOn: decision.reason === 'recommended' ? 'recommendation' : decision.reason === 'thought' ? 'thought' : null,
        ...(listedWithoutProbe(state) ? { firstEver } : {}),
      })
    : state.learned.reliability;
  let learned: LearnedState = {
    ...state.learned,
    reliability,
    dynamics: observeDynamics(state.learned.dynamics, state.worldHash, command, reached, scoreDelta),
  };
  if (scoreDelta > 0) learned = rememberReward(learned, state.worldHash, command);
  if (step.truth.died) learned = rememberDeath(learned, state.worldHash, placeOf(cellOf(state.truth)), moveAt(state.truth.location.id, command));
  const place = step.truth.location.name;
  const newPlace = place !== '' && !state.places.includes(place);
  const key = triedKey(state.worldHash, command);
  const next: AgentState = {
    ...state,
    turn: state.turn + 1,
    snapshot: step.snapshot,
    truth: step.truth,
    worldHash: reached,
    observation: step.observation,
    options: step.options,
    commands: step.commands,
    lastCommand: command,
    lastOutcome: outcome,
    rngState: rng.state,
    visited: markVisited(state.visited, reached),
    tried: keepNewest({ ...state.tried, [key]: (state.tried[key] ?? 0) + 1 }, LIMITS.tried),
    learned,
    beliefs: withTruth({ ...beliefsBefore, actionHistory: pushBounded(beliefsBefore.actionHistory, command, BELIEF_LIMITS.actionHistory) }, step.truth),
    llm: {
      calls: state.llm.calls + decision.usage.calls,
      promptTokens: state.llm.promptTokens + decision.usage.promptTokens,
      completionTokens: state.llm.completionTokens + decision.usage.completionTokens,
      fallbackTurns: state.llm.fallbackTurns + (decision.fallback ? 1 : 0),
      ...(decision.model ?? state.llm.model ? { model: decision.model ?? state.llm.model } : {}),
    },
    cells: pushOnce(state.cells, cellOf(step.truth), LIMITS.cells),
    // The state the find was made from: a later episode returns there and tries what was not tried.
    discovered: firstEver ? pushOnce(state.discovered, shortState(state.worldHash), LIMITS.frontier) : state.discovered,
    done: pushOnce(state.done, `${state.truth.location.id}|${command}`, LIMITS.done),
    places: newPlace ? [...state.places, place].slice(-LIMITS.places) : state.places,
    stalledTurns: scoreDelta > 0 || newPlace ? 0 : state.stalledTurns + 1,
    lastThoughtboxTurn: decision.thinking ? state.turn : state.lastThoughtboxTurn,
  };
  const explored = mapped(afterBreakthrough(next, state, command), state);
  const view = turnView(explored, state);
  const memory = { ...explored.memory };
  for (const module of modules) memory[module.name] = module.observe(memory[module.name], view);
  return { ...explored, memory };
}

/**
 * The room map after a step: the room left and the room reached add their exits as the probe
 * showed them there, and both are judged again with what is known now (the move just made no
 * longer opens anything), joining or leaving the open rooms.
 */
function mapped(now: AgentState, before: AgentState): AgentState {
  if (listedWithoutProbe(before)) return mappedByMoves(now, before);
  if (now.options.length === 0 && before.options.length === 0) return now; // `none`: no list to map by
  const memory = cellMemory(now);
  let exits = now.exits;
  let open = now.open;
  let spent = now.spent;
  for (const judged of [before, now]) {
    const id = judged.truth.location.id;
    // Merged, not replaced: from inside something (a bed, a car) the room's exits are not valid.
    exits = keepNewest<Record<string, number>>({ ...withoutKey(exits, String(id)), [id]: { ...exits[id], ...exitsOf(id, judged.options) } }, LIMITS.rooms);
    open = open.filter((other) => other !== id);
    const best = frontier(safePool(judged.options, memory.deadly), { ...memory, here: cellOf(judged.truth), doneHere: doneIn(now, id) });
    const opensSomething = best !== null && !exhausted(best.tier);
    if (opensSomething) open = [...open, id].slice(-LIMITS.rooms);
    // The room just left, as it was left: spent or not.
    if (judged === before && id !== now.truth.location.id) spent = opensSomething ? spent.filter((other) => other !== id) : [...spent.filter((other) => other !== id), id].slice(-LIMITS.rooms);
  }
  return { ...now, exits, open, spent };
}

/** Valid commands listed without their outcomes: the `valid` assist (the state does not carry its config). */
const listedWithoutProbe = (state: AgentState) => state.options.length === 0 && state.commands.length > 0;

/**
 * The room map without the probe (`valid`): only the moves made show where they lead. The move
 * just made adds an exit when it changed rooms; the room left and the room reached are open while
 * a move going places, taking or opening is untried in them (see nextUntried).
 */
function mappedByMoves(now: AgentState, before: AgentState): AgentState {
  const from = before.truth.location.id;
  const to = now.truth.location.id;
  let exits = now.exits;
  if (to !== from && !now.truth.died && now.lastCommand !== null) {
    exits = keepNewest<Record<string, number>>({ ...withoutKey(exits, String(from)), [from]: { ...exits[from], [now.lastCommand]: to } }, LIMITS.rooms);
  }
  let open = now.open.filter((id) => id !== from && id !== to);
  const opensUp = (judged: AgentState) =>
    nextUntried({ assist: 'valid', options: [], commands: judged.commands, observation: judged.observation, worldHash: judged.worldHash, tried: now.tried, learned: now.learned, rooms: { here: judged.truth.location.id, exits, open: new Set() } })?.opensUp ?? false;
  for (const judged of to === from ? [now] : [before, now]) if (opensUp(judged)) open = [...open, judged.truth.location.id];
  return { ...now, exits, open: open.slice(-LIMITS.rooms) };
}

/**
 * A breakthrough: the world changed in a way new to this episode in a room the episode had left
 * with nothing more to do there. Something hidden had to be undone or brought there first (9:05's
 * shower takes a player who has put everything down; its clean clothes go on only after it), so
 * what was judged done elsewhere may not be: every mapped room is open again, and cells and
 * items count as new to the episode again (earlier episodes' novelty is kept). A novel change
 * made on a first visit, or in a room left with moves untried, is ordinary exploration.
 */
function afterBreakthrough(next: AgentState, state: AgentState, command: string): AgentState {
  const room = state.truth.location.id;
  if (!state.spent.includes(room)) return next;
  const taken = state.options.find((option) => option.command === command);
  if (!taken) return next;
  const tier = tierOf(taken, cellMemory(state));
  if (tier !== 'new-state-ever' && tier !== 'new-state') return next;
  const rooms = Object.keys(next.exits).map(Number).filter((id) => id !== next.truth.location.id);
  return {
    ...next,
    learned: rememberCells(next.learned, state.cells),
    cells: [cellOf(next.truth)],
    open: rooms.slice(-LIMITS.rooms),
    spent: [],
  };
}

const withoutKey = <T>(record: Record<string, T>, key: string): Record<string, T> => {
  const { [key]: _dropped, ...rest } = record;
  return rest;
};

// ── maintain ────────────────────────────────────────────────────────────────────────────────

export interface MemoryWork extends ModuleWork {
  module: string;
}

/** A module's work is asked for at most this many times a turn (an update, checks of what it learned, the wisdom). */
export const MAX_WORK_ROUNDS = 4;

export const memoryModuleNames = (modules: readonly AnyMemoryModule[] = MEMORY_MODULES) => modules.map((m) => m.name);

function moduleNamed(name: string, modules: readonly AnyMemoryModule[]): AnyMemoryModule {
  const module = modules.find((m) => m.name === name);
  if (!module) throw new Error(`no memory module named ${name}`);
  return module;
}

function withModuleState(state: AgentState, module: AnyMemoryModule, moduleState: unknown): AgentState {
  return { ...state, memory: { ...state.memory, [module.name]: moduleState } };
}

/** Every module's maintenance-time bookkeeping (`prepare`), before any work is asked for. */
export function prepareMemory(state: AgentState, view: TurnView, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): AgentState {
  let next = state;
  for (const module of modules) if (module.prepare) next = withModuleState(next, module, module.prepare(next.memory[module.name], view));
  return next;
}

/** The module's work due now, or null. */
export function nextWork(state: AgentState, view: TurnView, moduleName: string, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): MemoryWork | null {
  const module = moduleNamed(moduleName, modules);
  if (!module.activities.length) return null;
  const work = module.due(state.memory[module.name], view);
  if (!work) return null;
  if (!module.activities.includes(work.activity)) throw new Error(`memory module ${module.name} asked for ${work.activity}, which is not one of its activities (${module.activities.join(', ')})`);
  return { module: module.name, ...work };
}

/** The first work due now of each module, in module order (benchmarks; the workflow asks module by module). */
export function dueWork(state: AgentState, view: TurnView, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): MemoryWork[] {
  return modules.map((m) => nextWork(state, view, m.name, modules)).filter((w): w is MemoryWork => w !== null);
}

/** The state with the module's result merged in, and the files its state is now viewed as (if any). */
export function applyWork(state: AgentState, work: MemoryWork, result: unknown, view: TurnView, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): { state: AgentState; files: Record<string, unknown> | null } {
  const module = moduleNamed(work.module, modules);
  const memory = module.apply(state.memory[module.name], result, view, work);
  const files = module.files ? module.files(memory) : null;
  return { state: withModuleState(state, module, memory), files: files && Object.keys(files).length ? files : null };
}

/** The module's work failed after its retries: it keeps its last good state (and notes the failure). */
export function workFailed(state: AgentState, work: MemoryWork, view: TurnView, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): AgentState {
  const module = moduleNamed(work.module, modules);
  if (!module.failed) return state;
  return withModuleState(state, module, module.failed(state.memory[module.name], view, work));
}

/** Each module's starting state: what the previous episode of a campaign left, under this episode's config. */
export function initialMemory(learned: LearnedState, config: EpisodeConfig, modules: readonly AnyMemoryModule[] = MEMORY_MODULES): Record<string, unknown> {
  return Object.fromEntries(modules.map((m) => [m.name, m.initial(learned.memory[m.name] as never, config)]));
}

// ── records and results ─────────────────────────────────────────────────────────────────────

export function turnRecord(state: AgentState, decision: Decision, config: EpisodeConfig, memoryFailures: string[]): TurnRecord {
  return {
    turn: state.turn,
    command: state.lastCommand ?? '',
    observation: state.observation,
    score: state.truth.score,
    moves: state.truth.moves,
    location: state.truth.location.name,
    worldHash: state.worldHash,
    validActions: state.options.length + state.commands.length,
    reason: decision.reason,
    why: decision.why,
    ...(config.policy === 'full'
      ? {
          fallback: decision.fallback,
          llmCalls: decision.usage.calls,
          tokens: decision.usage.promptTokens + decision.usage.completionTokens,
          ...(decision.analysis ? { recommended: decision.analysis.recommended_action } : {}),
          usedThoughtbox: usedThoughtbox(decision.thinking),
          thinkingSteps: decision.thinking?.thoughts.length ?? 0,
        }
      : {}),
    ...(memoryFailures.length ? { memoryFailures } : {}),
    ...knowledgeRecord(state),
  };
}

/** The last turn's record with what the end-of-episode maintenance decided (the same record when it decided nothing new). */
export function withEndingMaintenance(record: TurnRecord, state: AgentState): TurnRecord {
  const { knowledgeUpdate } = knowledgeRecord(state);
  if (!knowledgeUpdate || record.turn !== state.turn || JSON.stringify(knowledgeUpdate) === JSON.stringify(record.knowledgeUpdate)) return record;
  return { ...record, knowledgeUpdate };
}

/** The knowledge update decided this turn, with seed 000's metrics (the transcript shows each one). */
function knowledgeRecord(state: AgentState): Pick<TurnRecord, 'knowledgeUpdate'> {
  const update = updateAt(state.memory.knowledge as KnowledgeState | undefined, state.turn);
  return update ? { knowledgeUpdate: update } : {};
}

/** A session that was offered and declined did no thinking. */
const usedThoughtbox = (session: ThoughtboxSession | null) => session !== null && session.outcome !== 'declined';

/**
 * What this episode passes on to the next one of a campaign. The frontier keeps the earlier
 * episodes' firsts this one never stood in again, then adds its own: each first is returned to
 * once, oldest first, so the tree of discoveries is explored breadth-first (see knownMove).
 */
export function learnedAfter(state: AgentState): LearnedState {
  const visited = visitedSet(state);
  let frontier = state.learned.frontier.filter((goal) => !visited.has(goal));
  for (const goal of state.discovered) frontier = pushOnce(frontier, goal, LIMITS.frontier);
  return {
    ...rememberCells(state.learned, state.cells),
    frontier,
    episodes: state.learned.episodes + 1,
    bestScore: Math.max(state.learned.bestScore, state.truth.score),
    overallGoal: state.beliefs.overallGoal,
    memory: state.memory,
  };
}

export function episodeResult(state: AgentState, config: EpisodeConfig, stopped: boolean, transcriptPath: string): EpisodeResult {
  return {
    game: config.game,
    storyMd5: state.story.md5,
    seed: config.seed,
    policy: config.policy,
    assist: config.assist,
    score: state.truth.score,
    maxScore: state.story.maxScore,
    moves: state.truth.moves,
    turns: state.turn,
    victory: state.truth.victory,
    died: state.truth.died,
    stopped,
    transcriptPath,
    learned: learnedAfter(state),
    ...(config.policy === 'full' ? { llm: state.llm, recommendationAccuracy: accuracy(state.learned.reliability, 'recommendation'), beliefs: state.beliefs } : {}),
  };
}
