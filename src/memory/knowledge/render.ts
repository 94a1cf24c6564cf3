/**
 * Views of the knowledge state: `knowledgebase.md` with seed 000's sections rendered from the
 * layered items, plus `## CURRENT WORLD MAP` drawn from the rooms and exits the engine saw (the
 * model never writes it, so no update can lose it); `persistent_wisdom.md`; the LLM's context.
 */
import type { MapState } from '../map';
import { contextLine, fitLines, itemBlock, retrieve, Situation } from './layers';
import type { DeathEvent, KnowledgeItem, KnowledgeState } from './schema';

/** A story path as its file name without extension (the game ref may be a path on the worker). */
const storyName = (game: string) =>
  game
    .split(/[\\/]/)
    .pop()!
    .replace(/\.(z[1-8]|zblorb|zlb|blb)$/i, '');

export const MAP_HEADING = '## CURRENT WORLD MAP';

const DANGER = /\b(die|died|dies|death|dead|deadly|kill|killed|kills|grue|danger|dangerous|fatal|eaten|avoid)\b/i;
const isDanger = (item: KnowledgeItem) => DANGER.test(item.text) || item.keywords.some((k) => DANGER.test(k));

function block(items: readonly KnowledgeItem[]): string {
  return items.length ? items.map(itemBlock).join('\n\n') : 'Nothing yet.';
}

/** Seed 000's death analysis, from the engine's record of each death. */
export function deathAnalysis(deaths: readonly DeathEvent[]): string {
  if (!deaths.length) return 'No deaths occurred in this session.';
  const lines = [`**${deaths.length} death(s) occurred:**`, ''];
  for (const d of deaths) {
    lines.push(
      `**Death at Turn ${d.turn}**`,
      `- Cause: ${d.reason}`,
      `- Fatal Action: ${d.action || 'Unknown'}`,
      `- Location: ${d.location || 'Unknown'}`,
    );
    if (d.messages.length) lines.push(`- Key Messages: ${d.messages.join('; ')}`);
    lines.push('');
  }
  return lines.join('\n').trimEnd();
}

export function renderMap(map: MapState): string {
  const rooms = Object.entries(map.rooms);
  if (!rooms.length) return 'No rooms visited yet.';
  return rooms
    .map(
      ([room, exits]) =>
        `- ${room}: ${
          Object.entries(exits)
            .map(([command, to]) => `${command} → ${to}`)
            .join('; ') || 'no exits taken yet'
        }`,
    )
    .join('\n');
}

/** The first line of knowledgebase.md: which episode and update wrote it, so a backup says what it was. */
export function versionLine(state: KnowledgeState): string {
  return `<!-- grue knowledge base: episode ${state.episode + 1}, update ${state.stats.updates}, ${state.items.length} items -->`;
}

export function knowledgeMarkdown(state: KnowledgeState): string {
  const byLayer = (layer: KnowledgeItem['layer']) => state.items.filter((i) => i.layer === layer && !isDanger(i));
  const dangers = state.items.filter(isDanger);
  return [
    versionLine(state),
    `# Knowledge base: ${storyName(state.settings.game)}`,
    '',
    '## WORLD KNOWLEDGE',
    block(byLayer('IMPL')),
    '',
    '## STRATEGIC PATTERNS',
    block(byLayer('PRINCIPLE')),
    '',
    '## DEATH & DANGER ANALYSIS',
    deathAnalysis(state.deaths),
    ...(dangers.length ? ['', block(dangers)] : []),
    '',
    '## COMMAND SYNTAX',
    block(byLayer('INTERFACE')),
    '',
    '## LESSONS LEARNED',
    block(byLayer('META')),
    '',
    '## CROSS-EPISODE INSIGHTS',
    block(state.wisdom),
    '',
    MAP_HEADING,
    renderMap(state.map),
    '',
  ].join('\n');
}

export function wisdomMarkdown(state: KnowledgeState): string {
  const lines = [`# Persistent wisdom: ${storyName(state.settings.game)}`, '', `Synthesized after ${state.episode} episode(s).`, ''];
  lines.push(state.wisdom.length ? state.wisdom.map((w) => `- [${w.layer}] ${w.text}`).join('\n') : 'Nothing yet.');
  return `${lines.join('\n')}\n`;
}

/**
 * The context section: persistent wisdom first (it is what earlier episodes learned), then the
 * items retrieved for the situation, highest layer first, within the budget.
 */
export function renderKnowledge(state: KnowledgeState, situation: Situation, budgetTokens: number): string {
  const budgetChars = budgetTokens * 4;
  const wisdom = state.wisdom.map((w) => `[WISDOM] ${w.text}`);
  const relevant = retrieve(state.items, situation).map(contextLine);
  return fitLines([...fitLines(wisdom, Math.floor(budgetChars / 3)), ...relevant], budgetChars).join('\n');
}

export function describeKnowledge(state: KnowledgeState): string {
  const s = state.stats;
  const last = state.updates[state.updates.length - 1];
  return [
    knowledgeMarkdown(state),
    `knowledge: ${state.settings.every ? `update every ${state.settings.every} turns` : 'off'}, limit ` +
      `${Math.round(state.settings.limitBytes / 1024)} KB; ${s.updates} updates (${s.skipped} skipped, ${s.failures} failed), ` +
      `${s.verified} facts verified and ${s.refuted} refuted by the engine, ${s.wisdomSyntheses} wisdom syntheses, ${s.calls} LLM calls, ` +
      `${s.rejectedText ?? 0} answers rejected as not words` +
      (last
        ? `; last: turn ${last.turn}, ${last.skipped ? `skipped (${last.reason})` : `${last.seconds.toFixed(1)} s, ${last.size} bytes`}`
        : ''),
  ].join('\n');
}

/** One line per update decision, newest last (`grue knowledge --updates`). */
export function updatesTable(state: KnowledgeState): string {
  if (!state.updates.length) return 'No update decisions yet.\n';
  const rows = state.updates.map((u) =>
    u.skipped
      ? `turn ${u.turn}: skipped after ${u.turnsProcessed} turns: ${u.reason}`
      : `turn ${u.turn}: ${u.turnsProcessed} turns in ${u.seconds.toFixed(1)} s, ${u.calls} call, +${u.added} items, ` +
        `${u.merged} merged, ${u.ignored} ignored, ${u.compressed} compressed away, base ${u.size} bytes (${u.reason})`,
  );
  return `${rows.join('\n')}\n`;
}
