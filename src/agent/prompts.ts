/**
 * Oracle prompts, adapted from seed 004 and fitted to a token budget: long observations are cut,
 * valid actions capped, beliefs summarised. Pure functions: the activity sends what these build.
 */
import type { ChatMessage } from '../llm/types';
import { Beliefs, beliefsContext } from './beliefs';

/** Rough tokens for English text (4 characters a token): enough to stay inside a small context. */
export const approxTokens = (text: string) => Math.ceil(text.length / 4);

export function clip(text: string, maxChars: number): string {
  return text.length <= maxChars ? text : `${text.slice(0, maxChars - 20)} [...]`;
}

const SYSTEM = 'You help an agent play a text adventure game. You answer questions about the game as JSON only.';

export interface TurnPromptInput {
  observation: string;
  beliefs: Beliefs;
  validActions: string[];
  lastAction: string | null;
  lastResponse: string | null;
  /** Prompt budget in tokens (the model's context minus room for the answer). */
  budgetTokens: number;
}

/** The merged per-turn query: how did the last action go, and what now? */
export function turnAnalysisPrompt(i: TurnPromptInput): ChatMessage[] {
  const actions = i.validActions.slice(0, 30);
  let obsChars = 1500;
  const build = (obs: number): string =>
    [
      `CURRENT OBSERVATION:\n${clip(i.observation, obs)}`,
      i.lastAction ? `LAST ACTION: ${i.lastAction}\nGAME'S RESPONSE: ${clip(i.lastResponse ?? '', Math.min(obs, 400))}` : 'LAST ACTION: none (the game just started)',
      `AGENT'S BELIEFS:\n${beliefsContext(i.beliefs)}`,
      `VALID ACTIONS: ${JSON.stringify(actions)}`,
      'Answer these: Did the last action make progress (new place, new item, story moved on)? If it failed, why, and what must happen first? ' +
        'What is the overall goal of the game, and the immediate goal? What blocks progress? Which ONE action from VALID ACTIONS should be taken now, and why? ' +
        'Give up to 3 alternative actions from the list. How confident are you (low, medium, high)? Use "" for anything unknown.',
    ].join('\n\n');
  let user = build(obsChars);
  while (approxTokens(SYSTEM + user) > i.budgetTokens && obsChars > 200) {
    obsChars = Math.floor(obsChars * 0.7);
    user = build(obsChars);
  }
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
}

export function failurePrompt(observation: string, beliefs: Beliefs, failedAction: string, response: string): ChatMessage[] {
  // Tiny models echo the text nearest the answer, so the game's own words come last.
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        "An action did not work. Say what must happen first (the prerequisite, usually stated in the game's response), why it failed, what to do instead, and the lesson.",
        `SITUATION BEFORE:\n${clip(observation, 1000)}`,
        `AGENT'S BELIEFS:\n${beliefsContext(beliefs)}`,
        `ACTION TRIED: ${failedAction}`,
        `GAME'S RESPONSE: ${clip(response, 500)}`,
      ].join('\n\n'),
    },
  ];
}

export function progressPrompt(before: string, action: string, after: string, scoreChange: number): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        `BEFORE ACTION:\n${clip(before, 500)}`,
        `ACTION TAKEN: ${action}`,
        `AFTER ACTION:\n${clip(after, 500)}`,
        `SCORE CHANGE: ${scoreChange}`,
        'Did this action make meaningful progress toward winning (new location, something important changed, closer to the goal), or was it shuffling or repeating? What was accomplished?',
      ].join('\n\n'),
    },
  ];
}

export function stateVariablesPrompt(observation: string, beliefs: Beliefs, contradictions: string[]): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        `CURRENT OBSERVATION:\n${clip(observation, 1000)}`,
        `AGENT'S BELIEFS:\n${beliefsContext(beliefs)}`,
        `CONTRADICTIONS OBSERVED: ${JSON.stringify(contradictions.slice(0, 5))}`,
        'The same action sometimes works and sometimes does not. Which hidden state variables should the agent track to predict outcomes better?',
      ].join('\n\n'),
    },
  ];
}

export function extractStatePrompt(observation: string, variables: string[]): ChatMessage[] {
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: `CURRENT OBSERVATION:\n${clip(observation, 1200)}\n\nVARIABLES TO EXTRACT: ${JSON.stringify(variables.slice(0, 8))}\n\nGive each variable's value from the observation ("unknown" if it does not say).`,
    },
  ];
}
