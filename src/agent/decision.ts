/** What the stages of a turn hand each other: the choice, the questions for the oracle, its answers, the decision. */
import type { FailureAnswer, FailureRequest, OracleUsage, TurnAnalysis, TurnAnswer, TurnRequest } from '../schemas/oracle';
import type { AdviceChoices } from './assist';
import type { Beliefs } from './beliefs';
import type { Known } from './policy';
import type { AdviceTrust, SelectionReason } from './selector';
import type { ThoughtboxSession } from './thoughtbox/schema';

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
  | {
      kind: 'ask';
      request: TurnRequest;
      failure: FailureRequest | null;
      known: Known;
      advice: AdviceChoices;
      /** Which answers the selector will take, drawn before asking (absent in runs from before the draw came first). */
      trust?: AdviceTrust;
    };

/** The oracle's answers, as the workflow got them. */
export interface OracleAnswers {
  turn: TurnAnswer;
  failure: FailureAnswer | null;
}

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
