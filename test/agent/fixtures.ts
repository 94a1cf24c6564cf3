/** Shared fixtures for the agent's unit tests. */
import { freshLearned, type LearnedState } from '../../src/agent/learned';
import { createRng } from '../../src/agent/rng';
import { type AgentState, initialState } from '../../src/agent/state';
import { initialMemory } from '../../src/memory/runner';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { decide, learn } from '../../src/agent/turn';
import type { EpisodeConfig } from '../../src/schemas/episode';
import type { ActionOption, GameState, GroundTruthData } from '../../src/schemas/game';
import type { TurnAnalysis } from '../../src/schemas/oracle';

/** A valid action whose probe leads to `h-<command>` and changes nothing else. */
export const opt = (command: string, extra: Partial<ActionOption> = {}): ActionOption => ({
  command,
  resultHash: `h-${command}`,
  scoreDelta: 0,
  outcome: 'continue',
  resultCell: HERE,
  ...extra,
});

/** The cell the fixtures' player is in: location 1, nothing carried, no score. */
export const HERE = '1//0';

/** A policy context's assist-dependent part under `probe`, with nothing seen yet but `HERE`. */
export const probeContext = (visited: { has(hash: string): boolean } = new Set<string>()) => ({
  assist: 'probe' as const,
  commands: [],
  observation: '',
  cells: { here: HERE, seen: new Set([HERE]), seenBefore: new Set<string>(), deadly: new Set<string>(), visited },
});

/** An oracle answer at 9:05's opening, recommending "stand up" with high confidence. */
export const analysis = (over: Partial<TurnAnalysis> = {}): TurnAnalysis => ({
  last_action_made_progress: false,
  accomplishment: '',
  failure_reason: '',
  prerequisite: '',
  overall_goal: 'get to work',
  immediate_goal: 'get out of bed',
  blocking_condition: '',
  recommended_action: 'stand up',
  action_reasoning: 'you are in bed',
  alternative_actions: [],
  confidence: 'high',
  ...over,
});

/** Ground truth in room `id` called `name`: nothing carried, no score, nobody dead. */
export const roomTruth = (id: number, name: string): GroundTruthData => ({
  score: 0,
  moves: 0,
  location: { id, name },
  inventory: [],
  done: false,
  victory: false,
  died: false,
});

/**
 * `state` after the explorer made `command` (decided as untried) and the game answered with
 * `next` ("Done." in the same place, a world state named after the command, unless `next` says).
 */
export function playedFrom(config: EpisodeConfig, state: AgentState, command: string, next: Partial<GameState>): AgentState {
  const decision = decide(state, config, createRng(1), { kind: 'decided', choice: { command, reason: 'untried', why: 'test' } }, null);
  const step = {
    command,
    observation: 'Done.',
    snapshot: 's',
    commands: [],
    truth: state.truth,
    worldHash: `h-${command}`,
    options: [],
    ...next,
  };
  return learn(state, config, decision, step, createRng(1));
}

/** The episode config of the `valid` fixtures: the oracle-free explorer, given the valid commands. */
export const validConfig = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'valid' });

/** A `valid` episode's first state: the reply, ground truth and world state given, the list offering `commands`, with what earlier episodes `learned`. */
export function validStart(
  start: { observation: string; truth: GroundTruthData; worldHash: string },
  commands: string[],
  learned: LearnedState,
): AgentState {
  return initialState(
    { ...start, snapshot: 's0', options: [], commands, storyMd5: '0'.repeat(32), storyName: 'test', maxScore: 10 },
    learned,
    1,
    initialMemory(freshLearned(), validConfig),
  );
}
