/** Shared fixtures for the agent's unit tests. */
import type { ActionOption } from '../../src/schemas/game';
import type { TurnAnalysis } from '../../src/schemas/oracle';

/** A valid action whose probe leads to `h-<command>` and changes nothing else. */
export const opt = (command: string, extra: Partial<ActionOption> = {}): ActionOption => ({ command, resultHash: `h-${command}`, scoreDelta: 0, outcome: 'continue', ...extra });

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
