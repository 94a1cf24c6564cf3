/**
 * When a turn gets a thoughtbox session. `always` thinks on every turn the oracle is asked; `auto`
 * offers it on a hard turn and lets the model decline: the oracle names a blocker, the engine saw
 * the last action change nothing and the failure analysis named why, the agent has made no
 * progress for a while, or an earlier episode died from this very state. Auto waits a few turns
 * between offers, so a turn that stays hard does not buy a session every turn.
 */
import type { EpisodeConfig } from '../../schemas/episode';
import { shortState } from '../dynamics';
import type { AgentState } from '../state';
import type { OracleAnswers } from '../decision';
import type { AdviceTrust } from '../selector';

export const AUTO = { stalledTurns: 8, cooldownTurns: 3 } as const;

export interface Offer {
  trigger: string;
  required: boolean;
}

const said = (text: string) => text.trim() !== '' && !/^(unknown|none|n\/a|nothing)$/i.test(text.trim());

/** Whether this turn may get a session at all, before the oracle's answers say whether it is hard. */
export function thoughtboxMayOffer(state: AgentState, config: EpisodeConfig): boolean {
  if (config.policy !== 'full' || config.thoughtbox === 'off') return false;
  return config.thoughtbox === 'always' || state.lastThoughtboxTurn === null || state.turn - state.lastThoughtboxTurn >= AUTO.cooldownTurns;
}

/** `trust`: the selector's draws made before asking; a conclusion it would not take is not worth a session. */
export function thoughtboxOffer(
  state: AgentState,
  config: EpisodeConfig,
  answers: OracleAnswers | 'unreachable' | null,
  trust?: AdviceTrust,
): Offer | null {
  // Thinking needs the oracle's context and a reachable model.
  if (!thoughtboxMayOffer(state, config) || answers === null || answers === 'unreachable') return null;
  if (config.thoughtbox === 'always') return { trigger: 'always', required: true };
  if (trust && !trust.thought) return null;
  const trigger = hardness(state, answers);
  return trigger ? { trigger, required: false } : null;
}

function hardness(state: AgentState, answers: OracleAnswers): string | null {
  if (state.learned.deaths.includes(shortState(state.worldHash))) return 'an earlier episode died from this state';
  const blocker = answers.turn.answer.blocking_condition;
  if (said(blocker)) return `blocker: ${blocker}`;
  const failure = answers.failure?.answer;
  if (failure && (said(failure.prerequisite) || said(failure.failure_reason)))
    return `failure: ${said(failure.prerequisite) ? failure.prerequisite : failure.failure_reason}`;
  if (state.stalledTurns >= AUTO.stalledTurns) return `no progress for ${state.stalledTurns} turns`;
  return null;
}
