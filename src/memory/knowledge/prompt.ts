/**
 * The single-stage update prompt (seed 000's one prompt, asking for seed 002's layered items)
 * and the wisdom synthesis prompt. Pure; sized to a token budget so the embedded model's
 * 2,048-token context holds prompt and answer: the existing base is cut first, then the oldest
 * actions (deaths, score and location changes are always kept).
 */
import { approxTokens } from '../../text';
import type { ChatMessage } from '../../llm/types';
import { layerRank, words } from './layers';
import type { ItemAnswer, KnowledgeItem, TurnWindow, UpdateRequest, WisdomRequest } from './schema';
import { formatTurnData } from './window';

export const UPDATE_SYSTEM =
  'You are creating a knowledge base for an AI agent playing a text adventure. ' +
  'Focus on preserving specific, actionable facts from the gameplay ' +
  'while also identifying strategic patterns. Never abstract specific discoveries into generic advice.';

/** The four layers as the model is told them (also used by eval/threeStage.ts, so both pipelines ask for the same items). */
export const LAYER_GUIDE = [
  'Write each item in one of four layers:',
  '- META: how to learn this game (e.g. "examining things reveals hidden exits")',
  '- PRINCIPLE: a stable rule of the world (e.g. "the guard only lets a uniformed visitor pass")',
  '- INTERFACE: a command form the parser accepts (e.g. "put X in Y works")',
  '- IMPL: a concrete fact (e.g. "the bronze key is under the doormat at the Cottage"), ' +
    'with room, verify_commands (e.g. ["lift doormat"]) and verify_expect (e.g. "bronze key")',
].join('\n');

const RULES = [
  'RULES:',
  '1. Be specific: exact names of rooms, objects and commands from the log.',
  '2. Only facts the log shows; lower confidence for what is uncertain.',
  '3. To update an existing item, put its id in replaces; never repeat an item unchanged.',
  '4. At most 8 items, the most useful first.',
].join('\n');

/**
 * The screen an answered item must pass to be kept: it names something the turns showed (a word
 * of a command, a response, a room or a death), and it is not a copy of the prompt's own
 * guide — gemma3-270m answers "[IMPL] a concrete fact" and "[META] how to learn this game"
 * when it has nothing to say.
 */
export function screenFor(window: TurnWindow): (answer: ItemAnswer) => boolean {
  const seen = new Set(
    words(
      window.actions
        .flatMap((a) => [a.action, a.response, a.location])
        .concat(window.deaths.flatMap((d) => [d.reason, ...d.messages]))
        .join(' '),
    ),
  );
  const guide = [UPDATE_SYSTEM, ...LAYER_GUIDE.split('\n'), ...RULES.split('\n')].map((line) => new Set(words(line)));
  return (answer) => {
    const own = words(answer.text);
    const copied = own.length > 0 && guide.some((line) => own.filter((w) => line.has(w)).length >= 0.8 * own.length);
    return !copied && [...own, ...answer.keywords.flatMap(words)].some((w) => seen.has(w));
  };
}

export const existingLines = (items: readonly KnowledgeItem[]) =>
  items.map((i) => `${i.id} [${i.layer} ${i.confidence.toFixed(1)}] ${i.text}${i.room ? ` (${i.room})` : ''}`);

function section(title: string, lines: readonly string[], empty: string): string {
  return `${title}:\n${lines.length ? lines.join('\n') : empty}`;
}

/** Most useful first when the base must be cut: higher layers, then more confident. */
const byUse = (items: readonly KnowledgeItem[]) =>
  [...items].sort((a, b) => layerRank(a.layer) - layerRank(b.layer) || b.confidence - a.confidence);

export function updatePrompt(request: UpdateRequest, budgetTokens: number): ChatMessage[] {
  const existing = existingLines(byUse(request.existing));
  const wisdom = request.wisdom.map((w) => `- ${w.text}`);
  const build = (existingCount: number, maxActions: number) =>
    [
      `Analyze this ${request.game} gameplay data and update the knowledge base.`,
      formatTurnData(request.window, `${request.game} #${request.episode + 1}`, maxActions),
      section('EXISTING KNOWLEDGE BASE', existing.slice(0, existingCount), 'No existing knowledge - this is the first update'),
      ...(wisdom.length ? [section('PERSISTENT WISDOM FROM PREVIOUS EPISODES', wisdom, '')] : []),
      LAYER_GUIDE,
      RULES,
      request.final ? 'This is the end of the episode: record what the next episode should know.' : '',
    ]
      .filter(Boolean)
      .join('\n\n');
  let existingCount = existing.length;
  let maxActions = request.window.actions.length;
  let user = build(existingCount, maxActions);
  while (approxTokens(UPDATE_SYSTEM + user) > budgetTokens && (existingCount > 0 || maxActions > 3)) {
    if (existingCount > 4) existingCount = Math.floor(existingCount * 0.7);
    else if (maxActions > 3) maxActions--;
    else existingCount--;
    user = build(existingCount, maxActions);
  }
  return [
    { role: 'system', content: UPDATE_SYSTEM },
    { role: 'user', content: user },
  ];
}

export const WISDOM_SYSTEM =
  'You distil cross-episode wisdom for an AI agent playing a text adventure: ' +
  'lasting lessons that will help the next episode, not a story of this one.';

/** Every instruction the knowledge prompts give: an answer repeating them is rejected (see notWords). */
export const KNOWLEDGE_INSTRUCTIONS: readonly string[] = [UPDATE_SYSTEM, LAYER_GUIDE, RULES, WISDOM_SYSTEM];

export function wisdomPrompt(request: WisdomRequest, budgetTokens: number): ChatMessage[] {
  const s = request.summary;
  const summary = [
    `EPISODE ${request.episode + 1} OF ${request.game}: ${s.turns} turns, score ${s.score}${s.maxScore ? ` of ${s.maxScore}` : ''}, ` +
      `${s.rooms} rooms seen, ${s.victory ? 'won' : s.died ? 'died' : 'did not finish'}.`,
    ...s.deaths.map((d) => `Death at turn ${d.turn} in ${d.location || 'an unknown place'} after "${d.action}": ${d.reason}`),
    ...s.scoreChanges.map((c) => `Score ${c.from} → ${c.to} at turn ${c.turn}`),
  ].join('\n');
  const build = (itemCount: number) =>
    [
      summary,
      section('KNOWLEDGE BASE', existingLines(byUse(request.items)).slice(0, itemCount), '(empty)'),
      section(
        'PREVIOUS WISDOM',
        request.wisdom.map((w) => `- [${w.layer}] ${w.text}`),
        '(none yet)',
      ),
      'Write at most 6 insights (META: how to approach this game; PRINCIPLE: a rule that ' +
        'holds every episode). Keep previous wisdom that still holds; use exact names.',
    ].join('\n\n');
  let itemCount = request.items.length;
  let user = build(itemCount);
  while (approxTokens(WISDOM_SYSTEM + user) > budgetTokens && itemCount > 0) {
    itemCount = Math.floor(itemCount * 0.7);
    user = build(itemCount);
  }
  return [
    { role: 'system', content: WISDOM_SYSTEM },
    { role: 'user', content: user },
  ];
}
