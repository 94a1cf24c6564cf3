/**
 * Seed 000's turn window: what happened since the last update decision, collected from the
 * engine's ground truth turn by turn; the seed's quality gate (`shouldUpdate`) and its prompt
 * formatter. All pure.
 */
import type { TurnView } from '../module';
import { DeathEvent, LIMITS, ScoreChange, TurnWindow } from './schema';

export const emptyWindow = (startTurn: number): TurnWindow => ({
  startTurn,
  endTurn: startTurn,
  actions: [],
  deaths: [],
  scoreChanges: [],
  locationChanges: [],
});

const DEATH_WORDS = /\b(die|died|dies|dead|death|killed|kill|eaten|devoured|slain|perish)/i;

/** The sentences of a death message that say what happened (the seed's death_messages). */
export function deathMessages(observation: string): string[] {
  return observation
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/\*+/g, '').trim())
    .filter((s) => s && DEATH_WORDS.test(s))
    .slice(0, 4)
    .map((s) => s.slice(0, 160));
}

/** The engine says the player died: the cause is the game's own words. */
export function deathEvent(view: TurnView): DeathEvent {
  const messages = deathMessages(view.observation);
  return {
    turn: view.turn,
    reason: messages[0] ?? view.observation.replace(/\s+/g, ' ').trim().slice(0, 160),
    action: view.command ?? '',
    location: view.before?.location.name || view.truth.location.name,
    messages,
  };
}

/** The death this turn brought, if the engine says the player has just died. */
export function deathThisTurn(view: TurnView): DeathEvent | null {
  return view.truth.died && !(view.before?.died ?? false) ? deathEvent(view) : null;
}

/** The score change this turn brought, if any. */
export function scoreChangeThisTurn(view: TurnView): ScoreChange | null {
  return view.before && view.before.score !== view.truth.score ? { turn: view.turn, from: view.before.score, to: view.truth.score } : null;
}

/** The window after the turn `view` shows (bounded: the oldest actions go first). */
export function extendWindow(window: TurnWindow, view: TurnView): TurnWindow {
  if (!view.command) return window;
  const location = view.truth.location.name;
  const actions = [
    ...window.actions.filter((a) => a.turn !== view.turn),
    { turn: view.turn, action: view.command, response: view.observation.slice(0, LIMITS.windowResponse), location },
  ].slice(-LIMITS.windowActions);
  const before = view.before;
  const death = deathThisTurn(view);
  const scored = scoreChangeThisTurn(view);
  return {
    startTurn: window.actions.length ? window.startTurn : view.turn,
    endTurn: view.turn,
    actions,
    deaths: death ? [...window.deaths, death].slice(-LIMITS.deathsPerWindow) : window.deaths,
    scoreChanges: scored ? [...window.scoreChanges, scored].slice(-LIMITS.windowActions) : window.scoreChanges,
    locationChanges:
      before && before.location.name && location && before.location.name !== location
        ? [...window.locationChanges, { turn: view.turn, from: before.location.name, to: location }].slice(-LIMITS.windowActions)
        : window.locationChanges,
  };
}

export interface UpdateDecision {
  update: boolean;
  reason: string;
}

/** Seed 000's `_should_update_knowledge`, branch for branch. */
export function shouldUpdate(window: TurnWindow): UpdateDecision {
  const actions = window.actions;
  if (actions.length < 3) return { update: false, reason: 'Too few actions (< 3)' };
  if (window.deaths.length) return { update: true, reason: `Contains ${window.deaths.length} death event(s)` };
  if (window.scoreChanges.length) return { update: true, reason: `Score changed ${window.scoreChanges.length} times` };
  if (window.locationChanges.length) return { update: true, reason: `Discovered ${window.locationChanges.length} new locations` };
  const uniqueActions = new Set(actions.map((a) => a.action)).size;
  const variety = uniqueActions / actions.length;
  if (variety < 0.3) return { update: false, reason: `Too repetitive (${(variety * 100).toFixed(1)}% unique actions)` };
  if (new Set(actions.map((a) => a.response.slice(0, 50))).size < 2) return { update: false, reason: 'No new information in responses' };
  if (actions.reduce((n, a) => n + a.response.length, 0) < 100) return { update: false, reason: 'Responses too short/uninformative' };
  return { update: true, reason: `Varied gameplay (${uniqueActions} unique actions)` };
}

/** The gate with the seed's end-of-episode override: a final window with a death or 5+ actions is processed anyway. */
export function shouldUpdateAt(window: TurnWindow, final: boolean): UpdateDecision {
  const decision = shouldUpdate(window);
  if (final && !decision.update && (window.deaths.length > 0 || window.actions.length >= 5))
    return { update: true, reason: 'Final update with significant content' };
  return decision;
}

/** Seed 000's truncation: a response over 300 characters keeps its first 250. */
export function truncatedResponse(response: string): string {
  return response.length > 300 ? `${response.slice(0, 250)}... [truncated]` : response;
}

/**
 * Seed 000's `_format_turn_data_for_prompt`. The seed's per-action "Reasoning" and "Critic
 * Score" lines are left out: grue has no critic, and the selector's reason is not game data.
 * `maxActions` keeps the most recent actions (the seed's "limit to the most recent if over the
 * token limit"); deaths and score changes are always listed in full.
 */
export function formatTurnData(window: TurnWindow, episode: string, maxActions: number = LIMITS.windowActions): string {
  const actions = window.actions.slice(-maxActions);
  const lines = [
    `EPISODE: ${episode}`,
    `TURNS: ${window.startTurn}-${window.endTurn}`,
    `TOTAL ACTIONS: ${window.actions.length}`,
    '',
    'GAMEPLAY LOG:',
  ];
  if (actions.length < window.actions.length) lines.push(`(the ${window.actions.length - actions.length} earliest actions left out)`);
  for (const a of actions) lines.push(`Turn ${a.turn}: ${a.action}`, `Response: ${truncatedResponse(a.response)}`, '');
  lines.push('EVENTS:');
  if (window.deaths.length) {
    lines.push(`Deaths: ${window.deaths.length}`);
    for (const d of window.deaths) {
      lines.push(
        `  - Turn ${d.turn}: ${d.reason}`,
        `    Fatal action: ${d.action || 'Unknown'}`,
        `    Location: ${d.location || 'Unknown'}`,
      );
      if (d.messages.length) lines.push(`    Messages: ${d.messages.join(', ')}`);
    }
  } else lines.push('Deaths: None');
  if (window.scoreChanges.length) {
    lines.push('', `Score Changes: ${window.scoreChanges.length}`);
    for (const c of window.scoreChanges) lines.push(`  - Turn ${c.turn}: ${c.from} → ${c.to}`);
  }
  if (window.locationChanges.length) {
    lines.push('', `Location Changes: ${window.locationChanges.length}`);
    for (const c of window.locationChanges) lines.push(`  - Turn ${c.turn}: ${c.from} → ${c.to}`);
  }
  return lines.join('\n');
}
