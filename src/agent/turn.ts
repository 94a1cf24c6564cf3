/**
 * One turn as a fixed sequence of named stages, all pure: the episode workflow runs them in order
 * and does only the I/O between them (the oracle query, the game step, memory modules' work).
 *
 *   perceive   the engine's observation and ground truth become the state (`initialState`, `learn`)
 *   recall     the LLM context: the beliefs and every memory module's `render`
 *   deliberate what needs no oracle is decided here; otherwise the oracle query to ask
 *   decide     the action, from the oracle's answer (or its absence) under the engine's vetting
 *   act        (workflow) stepGame runs the command
 *   learn      (./learn) beliefs, reliability, dynamics, novelty, the room map, memory modules' bookkeeping
 *   maintain   (workflow, with ../memory/runner) each module's due work; records in ./records
 *
 * What the assist level changes is asked of ./assist; the memory modules are run by ../memory/runner.
 */
import { MEMORY_MODULES } from '../memory';
import type { AnyMemoryModule } from '../memory';
import type { EpisodeConfig } from '../schemas/episode';
import { GroundTruthData } from '../schemas/game';
import { addUsage, NO_USAGE } from '../schemas/oracle';
import type { ContextSection, FailureAnswer, TurnAnalysis } from '../schemas/oracle';
import { assistFor } from './assist';
import { beliefsContext } from './beliefs';
import { choose, knownMove } from './policy';
import { policyContextOf } from './policyContext';
import type { Rng } from './rng';
import { accuracy } from './reliability';
import { drawTrust, selectAction } from './selector';
import { thoughtboxMayOffer } from './thoughtbox/trigger';
import { AgentState, turnView } from './state';

export { turnView } from './state';
import type { ThoughtboxSession } from './thoughtbox/schema';
import { updateFromAnalysis } from './updater';
import type { Decision, Deliberation, OracleAnswers } from './decision';

export type { Choice, Decision, Deliberation, OracleAnswers } from './decision';
export { learn } from './learn';

/** Tokens a memory module may use in the context unless it says otherwise. */
const MODULE_CONTEXT_TOKENS = 150;

/** Under --oracle-budget, turns without a new place or points after which the explorer counts as lost. */
export const ORACLE_STALL_TURNS = 5;

export function isOver(truth: GroundTruthData, config: EpisodeConfig): boolean {
  // A death the game asks its final question after ends the episode even where deaths do not (Zork's player is revived; Inform's is not).
  return truth.victory || truth.ended === true || (truth.done && !truth.died) || (truth.died && config.stopOnDeath);
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
  const reliability = state.learned.reliability;
  /** The selector's move without an answer: exploration within the choices the oracle would have had. */
  const unadvised = (note = ''): Deliberation => {
    const move = selectAction({ ...ctx, reliability, analysis: null, known, advice });
    return { kind: 'decided', choice: { command: move.command, reason: move.reason, why: move.why + note } };
  };
  // Nothing to choose between: no valid action at all, or one move alone opens something new
  // (asked anyway when every turn is to be thought through).
  if (assistFor(config.assist).needsNoOracle(advice, config.thoughtbox === 'always')) return unadvised();
  const budget = config.oracleBudget;
  if (budget !== undefined) {
    if (state.oracleTurns >= budget) return unadvised(`; the oracle not asked: its budget of ${budget} turns is spent`);
    // A budget is spent where the explorer is lost: with a move that opens something up, and progress
    // within the last few turns, its own pick is as good a use of the turn as the oracle's.
    if (state.stalledTurns < ORACLE_STALL_TURNS && assistFor(config.assist).explorerLeads(ctx, known.pool))
      return unadvised('; the oracle not asked: the explorer still has moves that open something up (--oracle-budget)');
  }
  // Ask only where the answer may be taken: the selector's draws come first, and a turn whose
  // every answer (recommendation, other advice, a thought) would be passed over is explored
  // without the call, as it would have been after it.
  const trust = state.asksOnlyWhenHeeded ? drawTrust({ ...ctx, reliability }) : undefined;
  const heeded = !trust || trust.recommendation || trust.other || (trust.thought && thoughtboxMayOffer(state, config));
  if (!heeded && config.thoughtbox !== 'always') {
    const trusted = Math.round(100 * accuracy(reliability, 'recommendation'));
    return unadvised(`; the oracle not asked: its advice would not have been taken (recommendations help ${trusted}% of the time)`);
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
    ...(trust ? { trust } : {}),
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
    ...(deliberation.trust ? { trust: deliberation.trust } : {}),
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
