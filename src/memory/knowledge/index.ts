/**
 * Knowledge that lasts (seeds 000 + 002) as a memory module. Every `every` turns the seed-000
 * gate looks at the turn window; a window worth it goes to the `updateKnowledge` activity (one
 * LLM call) and the layered items it answers are merged, then compressed to the size limit. IMPL
 * facts that are unsure or stale are replayed in the engine by `verifyKnowledge` (no LLM). At the
 * episode's end `synthesizeWisdom` (one call) distils what the next episode should know; the
 * campaign carries items, wisdom, map and snapshots forward through `learned.memory`.
 */
import { defineMemoryModule, ModuleWork, TurnView } from '../module';
import { mapModule } from '../map';
import { compress, knowledgeBytes, mergeItems } from './layers';
import { KNOWLEDGE_INSTRUCTIONS, screenFor } from './prompt';
import { describeKnowledge, knowledgeMarkdown, renderKnowledge, wisdomMarkdown } from './render';
import {
  EpisodeSummary,
  KnowledgeState,
  KnowledgeStateSchema,
  LIMITS,
  UpdateMetrics,
  UpdateResult,
  VerifyResult,
  WisdomResult,
} from './schema';
import { applyVerdicts, dueChecks } from './verify';
import { deathThisTurn, emptyWindow, extendWindow, scoreChangeThisTurn, shouldUpdateAt } from './window';

export * from './schema';

type Request = ModuleWork<unknown>;
type Result = UpdateResult | VerifyResult | WisdomResult;

const freshStats = (): KnowledgeState['stats'] => ({
  updates: 0,
  skipped: 0,
  failures: 0,
  verified: 0,
  refuted: 0,
  wisdomSyntheses: 0,
  calls: 0,
  promptTokens: 0,
  completionTokens: 0,
});

/** Turn numbers restart with each episode: carried items are "seen" at its start. */
const carriedItem = <T extends { lastSeenTrue: number; lastVerifiedTurn: number | null }>(item: T): T => ({
  ...item,
  lastSeenTrue: 0,
  lastVerifiedTurn: null,
});

function withMetrics(state: KnowledgeState, metrics: UpdateMetrics): KnowledgeState['updates'] {
  return [...state.updates, metrics].slice(-LIMITS.updates);
}

/** The record of a window that made no LLM call: the gate skipped it, or its update failed. */
function notUpdated(state: KnowledgeState, view: TurnView, reason: string): UpdateMetrics {
  return {
    turn: view.turn,
    seconds: 0,
    turnsProcessed: state.window.actions.length,
    size: knowledgeBytes(state.items),
    calls: 0,
    skipped: true,
    reason,
    added: 0,
    merged: 0,
    ignored: 0,
    compressed: 0,
  };
}

/** The turn's record of an update decision made this turn (the transcript shows it). */
export function updateAt(state: KnowledgeState | undefined, turn: number): UpdateMetrics | null {
  const last = state?.updates[state.updates.length - 1];
  return last && last.turn === turn ? last : null;
}

function summary(state: KnowledgeState, view: TurnView): EpisodeSummary {
  return {
    turns: view.turn,
    score: view.truth.score,
    maxScore: null,
    died: view.truth.died,
    victory: view.truth.victory,
    deaths: state.deaths,
    rooms: Object.keys(state.map.rooms).length,
    scoreChanges: state.scoreChanges,
  };
}

function observe(state: KnowledgeState, view: TurnView): KnowledgeState {
  if (state.settings.every === 0) return state;
  const room = view.truth.location.name;
  const anchors =
    room && !state.anchors[room]
      ? Object.fromEntries([...Object.entries(state.anchors), [room, { turn: view.turn, snapshot: view.snapshot }]].slice(-LIMITS.anchors))
      : state.anchors;
  if (!view.command) return { ...state, anchors, map: mapModule.observe(state.map, view) };
  const death = deathThisTurn(view);
  const scored = scoreChangeThisTurn(view);
  return {
    ...state,
    map: mapModule.observe(state.map, view),
    anchors,
    window: extendWindow(state.window, view),
    deaths: death ? [...state.deaths, death].slice(-LIMITS.deathsPerWindow) : state.deaths,
    scoreChanges: scored ? [...state.scoreChanges, scored].slice(-LIMITS.scoreChanges) : state.scoreChanges,
  };
}

/**
 * The seed-000 gate, when a window is complete (every `every` turns, and at the episode's end
 * with the seed's final override): a window not worth an LLM call is recorded as skipped, with
 * the reason, and dropped; one that is becomes the pending update.
 */
function prepare(state: KnowledgeState, view: TurnView): KnowledgeState {
  if (state.settings.every === 0 || state.pending || !state.window.actions.length) return state;
  const span = view.turn - state.window.startTurn + 1;
  if (!view.ending && span < state.settings.every) return state;
  const decision = shouldUpdateAt(state.window, view.ending);
  if (decision.update) return { ...state, pending: { reason: decision.reason, final: view.ending } };
  return {
    ...state,
    window: emptyWindow(view.turn + 1),
    updates: withMetrics(state, notUpdated(state, view, decision.reason)),
    stats: { ...state.stats, skipped: state.stats.skipped + 1 },
  };
}

function applyUpdate(state: KnowledgeState, result: UpdateResult, view: TurnView): KnowledgeState {
  const merged = mergeItems(state.items, result.answer.items, state.nextId, {
    turn: view.turn,
    rooms: Object.keys(state.map.rooms),
    window: state.window,
    source: 'observation',
    accept: screenFor(state.window),
    instructions: KNOWLEDGE_INSTRUCTIONS,
  });
  const compressed = compress(merged.items, state.settings.limitBytes);
  const metrics: UpdateMetrics = {
    turn: view.turn,
    seconds: result.seconds,
    turnsProcessed: state.window.actions.length,
    size: knowledgeBytes(compressed.items),
    calls: result.usage.calls,
    skipped: false,
    reason: state.pending?.reason ?? 'update',
    added: merged.added,
    merged: merged.merged,
    ignored: merged.ignored,
    compressed: compressed.removed,
  };
  return {
    ...state,
    items: compressed.items,
    nextId: merged.nextId,
    window: emptyWindow(view.turn + 1),
    pending: null,
    updates: withMetrics(state, metrics),
    stats: { ...state.stats, updates: state.stats.updates + 1, ...usage(state, result), ...rejectedText(state, merged.rejectedText) },
  };
}

const rejectedText = (state: KnowledgeState, more: number) => ({ rejectedText: (state.stats.rejectedText ?? 0) + more });

function usage(state: KnowledgeState, result: UpdateResult | WisdomResult) {
  return {
    calls: state.stats.calls + result.usage.calls,
    promptTokens: state.stats.promptTokens + result.usage.promptTokens,
    completionTokens: state.stats.completionTokens + result.usage.completionTokens,
  };
}

function applyWisdom(state: KnowledgeState, result: WisdomResult, view: TurnView): KnowledgeState {
  const answers = result.answer.insights.map((i) => ({
    ...i,
    confidence: 0.9,
    room: '',
    verify_commands: [],
    verify_expect: '',
    replaces: '',
  }));
  const merged = mergeItems(
    state.wisdom,
    answers,
    state.nextWisdomId,
    { turn: view.turn, rooms: [], window: state.window, source: 'wisdom', instructions: KNOWLEDGE_INSTRUCTIONS },
    'w',
  );
  return {
    ...state,
    wisdom: merged.items.slice(-LIMITS.wisdom),
    nextWisdomId: merged.nextId,
    wisdomDone: true,
    stats: {
      ...state.stats,
      wisdomSyntheses: state.stats.wisdomSyntheses + 1,
      ...usage(state, result),
      ...rejectedText(state, merged.rejectedText),
    },
  };
}

export const knowledgeModule = defineMemoryModule<KnowledgeState, unknown, Result>({
  name: 'knowledge',
  schema: KnowledgeStateSchema,
  contextTokens: 200,
  initial(inherited, config) {
    const settings = {
      every: config.policy === 'full' ? config.knowledgeEvery : 0,
      limitBytes: config.knowledgeKb * 1024,
      verifyAfter: config.knowledgeVerifyAfter,
      game: config.game,
    };
    const episodeOnly = {
      window: emptyWindow(1),
      pending: null,
      wisdomDone: false,
      deaths: [],
      scoreChanges: [],
      updates: [],
      stats: freshStats(),
    };
    if (inherited)
      return {
        ...inherited,
        ...episodeOnly,
        settings,
        items: inherited.items.map(carriedItem),
        wisdom: inherited.wisdom.map(carriedItem),
        episode: inherited.episode + 1,
      };
    return { ...episodeOnly, settings, items: [], wisdom: [], nextId: 1, nextWisdomId: 1, map: { rooms: {} }, anchors: {}, episode: 0 };
  },
  observe,
  prepare,
  activities: ['updateKnowledge', 'verifyKnowledge', 'synthesizeWisdom'],
  due(state, view): Request | null {
    if (state.settings.every === 0) return null;
    if (state.pending) {
      return {
        activity: 'updateKnowledge',
        request: {
          game: state.settings.game,
          episode: state.episode,
          window: state.window,
          existing: state.items,
          wisdom: state.wisdom,
          final: state.pending.final,
          seed: view.turn,
        },
      };
    }
    const checks = dueChecks(state, view.turn);
    if (checks.length) return { activity: 'verifyKnowledge', request: { game: state.settings.game, storyMd5: view.storyMd5, checks } };
    if (view.ending && !state.wisdomDone && view.turn > 0) {
      return {
        activity: 'synthesizeWisdom',
        request: {
          game: state.settings.game,
          episode: state.episode,
          summary: summary(state, view),
          items: state.items,
          wisdom: state.wisdom,
          seed: view.turn,
        },
      };
    }
    return null;
  },
  apply(state, result, view, work) {
    if (work.activity === 'updateKnowledge') return applyUpdate(state, result as UpdateResult, view);
    if (work.activity === 'synthesizeWisdom') return applyWisdom(state, result as WisdomResult, view);
    const verdicts = applyVerdicts(state.items, result as VerifyResult, view.turn);
    return {
      ...state,
      items: verdicts.items,
      stats: { ...state.stats, verified: state.stats.verified + verdicts.verified, refuted: state.stats.refuted + verdicts.refuted },
    };
  },
  /**
   * A failed update keeps the base as it was and drops its window (the seed returns the existing knowledge);
   * a failed check or synthesis is not retried this turn.
   */
  failed(state, view, work) {
    const stats = { ...state.stats, failures: state.stats.failures + 1 };
    if (work.activity === 'updateKnowledge') {
      return {
        ...state,
        pending: null,
        window: emptyWindow(view.turn + 1),
        updates: withMetrics(state, notUpdated(state, view, 'the update failed after its retries')),
        stats,
      };
    }
    if (work.activity === 'synthesizeWisdom') return { ...state, wisdomDone: true, stats };
    const checked = new Set(((work.request as { checks: Array<{ id: string }> }).checks ?? []).map((c) => c.id));
    return { ...state, items: state.items.map((i) => (checked.has(i.id) ? { ...i, lastVerifiedTurn: view.turn } : i)), stats };
  },
  record(state, turn) {
    const update = updateAt(state, turn);
    return update ? { knowledgeUpdate: update } : {};
  },
  files: (state) =>
    state.settings.every === 0
      ? {}
      : {
          'knowledgebase.md': knowledgeMarkdown(state),
          'persistent_wisdom.md': wisdomMarkdown(state),
          knowledge: { items: state.items, wisdom: state.wisdom, updates: state.updates, stats: state.stats, settings: state.settings },
        },
  describe: describeKnowledge,
  render(state, view, budgetTokens) {
    if (state.settings.every === 0) return '';
    return renderKnowledge(
      state,
      {
        room: view.truth.location.name,
        inventory: view.truth.inventory.map((i) => i.name),
        observation: view.observation,
        goal: view.goal,
      },
      budgetTokens,
    );
  },
});
