/**
 * The oracle's per-turn prompt, adapted from seed 004 and fitted to a token budget: the
 * observation is cut first, then the lowest-priority context sections are dropped. Pure: the
 * activity sends what this builds.
 */
import type { ChatMessage } from '../llm/types';
import type { FailureRequest, TurnRequest } from '../schemas/oracle';
import { approxTokens, clip } from '../text';

const SYSTEM = 'You help an agent play a text adventure game. You answer questions about the game as JSON only.';

/** Valid actions shown to the model (and allowed in its answer), at most. */
export const PROMPT_ACTIONS = 30;

/** How the valid actions are shown: a JSON list to name one from, or a numbered list to answer by number. */
export type ActionListStyle = 'names' | 'numbers';

/** The questions; without a list (the `none` assist) the model writes the command itself. */
const questions = (style: ActionListStyle | null) =>
  'Answer these: Did the last action make progress (new place, new item, story moved on)? If it failed, why, and what must happen first? ' +
  'What is the overall goal of the game, and the immediate goal? What blocks progress? ' +
  (style
    ? `Which ONE action from VALID ACTIONS should be taken now${style === 'numbers' ? ' (give its number)' : ''}, ` +
      `and why? Give up to 3 alternative actions from the list${style === 'numbers' ? ' (their numbers)' : ''}. `
    : 'Which ONE command should be typed now (a short command such as "open door", "take lamp" or "north"), and why? ' +
      'Give up to 3 alternative commands. ') +
  'How confident are you (low, medium, high)? Use "" for anything unknown.';

/** The action question alone: what a recommendation-only answer is asked. */
const actionQuestion = (style: ActionListStyle) =>
  `Which ONE action from VALID ACTIONS makes progress in the game now${style === 'numbers' ? ' (give its number)' : ''}?`;

/** What the prompt asks: the merged turn analysis (production), or only the action. */
export type TurnQuestion = 'analysis' | 'action';

const actionList = (actions: string[], style: ActionListStyle) =>
  style === 'names' ? `VALID ACTIONS: ${JSON.stringify(actions)}` : `VALID ACTIONS:\n${actions.map((a, i) => `${i + 1}. ${a}`).join('\n')}`;

/**
 * The merged per-turn query: how did the last action go, and what now? The observation appears
 * once — it is the game's response to the last action.
 */
export function turnAnalysisPrompt(
  request: TurnRequest,
  budgetTokens: number,
  style: ActionListStyle = 'names',
  ask: TurnQuestion = 'analysis',
): ChatMessage[] {
  const actions = request.validActions.slice(0, PROMPT_ACTIONS);
  const build = (obsChars: number, sections: number): string =>
    [
      request.lastAction ? `LAST ACTION: ${request.lastAction}` : 'LAST ACTION: none (the game just started)',
      `${request.lastAction ? "GAME'S RESPONSE" : 'OPENING'}:\n${clip(request.observation, obsChars)}`,
      ...request.context.slice(0, sections).map((s) => `${s.title}:\n${s.text}`),
      ...(actions.length ? [actionList(actions, style)] : []),
      ask === 'action' && actions.length ? actionQuestion(style) : questions(actions.length ? style : null),
    ].join('\n\n');
  let obsChars = 1500;
  let sections = request.context.length;
  let user = build(obsChars, sections);
  while (approxTokens(SYSTEM + user) > budgetTokens && (obsChars > 200 || sections > 1)) {
    if (obsChars > 200) obsChars = Math.floor(obsChars * 0.7);
    else sections--;
    user = build(obsChars, sections);
  }
  return [
    { role: 'system', content: SYSTEM },
    { role: 'user', content: user },
  ];
}

/** The focused failure question, asked when the last action changed nothing in the world. */
export function failurePrompt(request: FailureRequest): ChatMessage[] {
  // Tiny models echo the text nearest the answer, so the game's own words come last.
  return [
    { role: 'system', content: SYSTEM },
    {
      role: 'user',
      content: [
        'An action did not work. Say what must happen first (the prerequisite, usually ' +
          "stated in the game's response), why it failed, what to do instead, and the lesson.",
        `SITUATION BEFORE:\n${clip(request.situation, 1000)}`,
        `ACTION TRIED: ${request.failedAction}`,
        `GAME'S RESPONSE: ${clip(request.response, 500)}`,
      ].join('\n\n'),
    },
  ];
}
