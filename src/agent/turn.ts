/**
 * One turn as a fixed sequence of named stages, all pure: the episode workflow runs them in order
 * and does only the I/O between them (the oracle query, the game step, memory modules' work).
 *
 *   perceive   the engine's observation and ground truth become the state (`initialState`, `learn`)
 *   recall     the LLM context: the beliefs and every memory module's `render`
 *   deliberate what needs no oracle is decided here; otherwise the oracle query to ask
 *   decide     the action, from the oracle's answer (or its absence) under the engine's vetting
 *   act        (workflow) stepGame runs the command
 *   learn      beliefs, reliability, dynamics, novelty, the room map, memory modules' bookkeeping
 *   maintain   (workflow, with ../memory/runner) each module's due work; records in ./records
 *
 * What the assist level changes is asked of ./assist; the memory modules are run by ../memory/runner.
 */
import { MEMORY_MODULES } from '../memory';
import type { AnyMemoryModule } from '../memory';
import { observeMemory } from '../memory/runner';
import type { EpisodeConfig } from '../schemas/episode';
import { cellOf, GameState, GroundTruthData } from '../schemas/game';
import { addUsage, NO_USAGE } from '../schemas/oracle';
import type { ContextSection, FailureAnswer, FailureRequest, OracleUsage, TurnAnalysis, TurnAnswer, TurnRequest } from '../schemas/oracle';
import { AdviceChoices, assistFor } from './assist';
import { Beliefs, beliefsContext, LIMITS as BELIEF_LIMITS, pushBounded } from './beliefs';
import { isFirstEver, placeOf } from './cells';
import { observe as observeDynamics, shortState } from './dynamics';
import type { LearnedState } from './learned';
import { choose, Known, knownMove, triedKey } from './policy';
import { policyContextOf } from './policyContext';
import type { Rng } from './rng';
import { afterBreakthrough } from './rooms';
import { selectAction, SelectionReason } from './selector';
import {
  AgentState,
  keepNewest,
  LIMITS,
  markVisited,
  moveAt,
  pushOnce,
  rememberDeath,
  rememberReward,
  turnView,
  visitedSet,
  withTruth,
} from './state';

export { turnView } from './state';
import type { ThoughtboxSession } from './thoughtbox/schema';
import { updateFromAnalysis, updateReliability } from './updater';

/** Tokens a memory module may use in the context unless it says otherwise. */
const MODULE_CONTEXT_TOKENS = 150;

export function isOver(truth: GroundTruthData, config: EpisodeConfig): boolean {
  return truth.victory || (truth.done && !truth.died) || (truth.died && config.stopOnDeath);
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
 * merged turn query, and the failure analysis when the last action changed nothing. An asked turn
 * carries what deliberating found (what is certain, the moves the oracle may name) to `decide`.
 */
export type Deliberation =
  | { kind: 'decided'; choice: Choice }
  | { kind: 'ask'; request: TurnRequest; failure: FailureRequest | null; known: Known; advice: AdviceChoices };

/** The oracle's answers, as the workflow got them. */
export interface OracleAnswers {
  turn: TurnAnswer;
  failure: FailureAnswer | null;
}

export function deliberate(
  state: AgentState,
  config: EpisodeConfig,
  rng: Rng,
  modules: readonly AnyMemoryModule[] = MEMORY_MODULES,
): Deliberation {
  const ctx = policyContextOf(state, config, rng);
  if (config.policy !== 'full') return { kind: 'decided', choice: choose(config.policy, ctx) };
  // A move the probes or a learned path already decide needs no oracle call.
  const known = knownMove(ctx);
  if (known.choice) return { kind: 'decided', choice: known.choice };
  const advice = assistFor(config.assist).adviceChoices(ctx, known.pool);
  // Nothing to choose between: no valid action at all, or one move alone opens something new
  // (asked anyway when every turn is to be thought through).
  if (assistFor(config.assist).needsNoOracle(advice, config.thoughtbox === 'always')) {
    const move = selectAction({ ...ctx, reliability: state.learned.reliability, analysis: null, known, advice });
    return { kind: 'decided', choice: { command: move.command, reason: move.reason, why: move.why } };
  }
  const context = recall(state, modules);
  const seed = (config.seed + state.turn) | 0;
  const failed = state.lastCommand !== null && state.lastOutcome !== null && !state.lastOutcome.worldChanged;
  return {
    kind: 'ask',
    request: { observation: state.observation, lastAction: state.lastCommand, validActions: advice.commands, context, seed },
    failure: failed ? { situation: context[0].text, failedAction: state.lastCommand!, response: state.observation, seed } : null,
    known,
    advice,
  };
}

/** The oracle's answers as one analysis: the failure analysis is the better judge of why the last action failed. */
export function analysisOf(answers: OracleAnswers): TurnAnalysis {
  return withFailure(answers.turn.answer, answers.failure);
}

function withFailure(analysis: TurnAnalysis, failure: FailureAnswer | null): TurnAnalysis {
  if (!failure) return analysis;
  const f = failure.answer;
  return {
    ...analysis,
    last_action_made_progress: false,
    failure_reason: f.failure_reason || analysis.failure_reason,
    prerequisite: f.prerequisite || analysis.prerequisite,
  };
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

const NO_ADVICE = {
  analysis: null,
  fallback: false,
  usage: NO_USAGE,
  recommendationProbe: null,
  thinking: null,
  conclusionProbe: null,
} as const;

/**
 * The action. `answer` is the oracle's answer when it was asked, or 'unreachable' when the LLM
 * failed after its retries: that turn is played by the oracle-free policy. `thinking` is the
 * turn's thoughtbox session: a concluded one offers its action to the selector; any other
 * outcome (declined, iteration limit, ...) leaves the choice to the oracle and the selector.
 */
export function decide(
  state: AgentState,
  config: EpisodeConfig,
  rng: Rng,
  deliberation: Deliberation,
  answer: OracleAnswers | 'unreachable' | null,
  thinking: ThoughtboxSession | null = null,
): Decision {
  if (deliberation.kind === 'decided') return { ...deliberation.choice, ...NO_ADVICE, beliefs: state.beliefs };
  if (answer === null) throw new Error('decide: the oracle was to be asked, but no answer was given');
  const ctx = policyContextOf(state, config, rng);
  if (answer === 'unreachable') {
    const choice = choose('oracle-free', ctx, deliberation.known);
    return {
      ...choice,
      why: `no LLM answer (its failure is in llmFailures); ${choice.why}`,
      ...NO_ADVICE,
      beliefs: state.beliefs,
      fallback: true,
    };
  }
  const assist = assistFor(config.assist);
  const analysis = analysisOf(answer);
  const beliefs = updateFromAnalysis(state.beliefs, analysis, state.learned.reliability, state.lastCommand, state.lastOutcome);
  const conclusion = thinking?.outcome === 'concluded' ? thinking.action : null;
  const selection = selectAction({
    ...ctx,
    reliability: state.learned.reliability,
    analysis,
    conclusion,
    known: deliberation.known,
    advice: deliberation.advice,
  });
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
    recommendationProbe: assist.judgeAdvice(analysis.recommended_action, state.options, ctx.visited),
    thinking,
    conclusionProbe: conclusion ? assist.judgeAdvice(conclusion, state.options, ctx.visited) : null,
  };
}

// ── learn ───────────────────────────────────────────────────────────────────────────────────

/** The state after `step` (the engine's result of running `step.command`, which is what is learned from). */
export function learn(
  state: AgentState,
  config: EpisodeConfig,
  decision: Decision,
  step: GameState & { command: string },
  rng: Rng,
  modules: readonly AnyMemoryModule[] = MEMORY_MODULES,
): AgentState {
  const assist = assistFor(config.assist);
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
  const firstEver =
    !step.truth.died && isFirstEver(cellOf(step.truth), { seen: new Set(state.cells), seenBefore: new Set(state.learned.cells) });
  const reliability = analysis
    ? updateReliability(state.learned.reliability, outcome, {
        actedOnBlocker: decision.reason === 'blocker',
        // The analysis judged the *previous* action's progress: score the claim against what that action did.
        progressClaim: state.lastOutcome ? { claimed: analysis.last_action_made_progress, actual: state.lastOutcome } : null,
        recommendationProbe: decision.recommendationProbe,
        conclusionProbe: decision.conclusionProbe,
        actedOn: decision.reason === 'recommended' ? 'recommendation' : decision.reason === 'thought' ? 'thought' : null,
        ...(assist.judgesHelpByFirsts(state) ? { firstEver } : {}),
      })
    : state.learned.reliability;
  let learned: LearnedState = {
    ...state.learned,
    reliability,
    dynamics: observeDynamics(state.learned.dynamics, state.worldHash, command, reached, scoreDelta),
  };
  if (scoreDelta > 0) learned = rememberReward(learned, state.worldHash, command);
  if (step.truth.died)
    learned = rememberDeath(learned, state.worldHash, placeOf(cellOf(state.truth)), moveAt(state.truth.location.id, command));
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
    beliefs: withTruth(
      { ...beliefsBefore, actionHistory: pushBounded(beliefsBefore.actionHistory, command, BELIEF_LIMITS.actionHistory) },
      step.truth,
    ),
    llm: {
      calls: state.llm.calls + decision.usage.calls,
      promptTokens: state.llm.promptTokens + decision.usage.promptTokens,
      completionTokens: state.llm.completionTokens + decision.usage.completionTokens,
      fallbackTurns: state.llm.fallbackTurns + (decision.fallback ? 1 : 0),
      ...((decision.model ?? state.llm.model) ? { model: decision.model ?? state.llm.model } : {}),
    },
    cells: pushOnce(state.cells, cellOf(step.truth), LIMITS.cells),
    // The state the find was made from: a later episode returns there and tries what was not tried.
    discovered: firstEver ? pushOnce(state.discovered, shortState(state.worldHash), LIMITS.frontier) : state.discovered,
    done: pushOnce(state.done, `${state.truth.location.id}|${command}`, LIMITS.done),
    places: newPlace ? [...state.places, place].slice(-LIMITS.places) : state.places,
    stalledTurns: scoreDelta > 0 || newPlace ? 0 : state.stalledTurns + 1,
    lastThoughtboxTurn: decision.thinking ? state.turn : state.lastThoughtboxTurn,
  };
  const explored = assist.mapRooms(afterBreakthrough(next, state, command), state);
  return { ...explored, memory: observeMemory(explored.memory, turnView(explored, state), modules) };
}
