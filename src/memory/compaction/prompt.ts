/**
 * The compaction prompt: the structured record so far, what the engine says for certain, and the
 * raw turns to fold in. Pure: the `compact` activity sends what this builds. Sized for the
 * embedded model's 2,048-token context: the record and the turns are cut to fit.
 */
import { clip } from '../../text';
import type { ChatMessage } from '../../llm/types';
import type { CompactRequest } from './index';
import { renderWorldModel } from './render';
import { COMPACTION_SYSTEM_PROMPT } from './tools';

export { COMPACTION_SYSTEM_PROMPT };

export function compactionPrompt(request: CompactRequest, budgetTokens: number): ChatMessage[] {
  const { facts } = request;
  const turns = request.turns.map((t) => `[${t.turn}] (${t.location}) > ${t.command}\n${clip(t.observation, 400)}`);
  const certain =
    `FACTS FROM THE GAME: you are in ${facts.location || 'an unknown place'}; carrying ` +
    `${facts.inventory.length ? facts.inventory.join(', ') : 'nothing'}; score ${facts.score}.`;
  const build = (recordTokens: number, turnCount: number) =>
    [
      `RECORD SO FAR:\n${renderWorldModel(request.model, { here: facts.location, budgetTokens: recordTokens }) || '(empty)'}`,
      certain,
      `NEW TURNS ${request.turns[request.turns.length - turnCount].turn}-${facts.turn}:\n${turns.slice(-turnCount).join('\n')}`,
      'Call the tools for what the new turns show.',
    ].join('\n\n');
  let recordTokens = Math.floor(budgetTokens / 3);
  let turnCount = turns.length;
  let user = build(recordTokens, turnCount);
  while ((COMPACTION_SYSTEM_PROMPT.length + user.length) / 4 > budgetTokens && (recordTokens > 60 || turnCount > 1)) {
    if (recordTokens > 60) recordTokens = Math.floor(recordTokens * 0.7);
    else turnCount--;
    user = build(recordTokens, turnCount);
  }
  return [
    { role: 'system', content: COMPACTION_SYSTEM_PROMPT },
    { role: 'user', content: user },
  ];
}
