/**
 * Seed 001's compaction as a memory module: every N turns (or early on a new room or a score
 * change, with the smart trigger) the `compact` activity gives the model the structured world
 * model and the raw turns since the last compaction, and the model answers with updater tool
 * calls; `apply` merges them with the engine's ground truth winning. The context then holds the
 * structured model plus only the turns not yet compacted, however long the episode runs.
 */
import { z } from 'zod';
import { OracleUsageSchema } from '../../schemas/oracle';
import { defineMemoryModule, TurnView } from '../module';
import { ObservedExitSchema } from './facts';
import { applyToolCalls, EngineFacts, EngineFactsSchema, withGroundTruth } from './merge';
import type { ToolCall } from './tools';
import { emptyWorldModel, WorldModelSchema } from './models';
import { renderWorldModel } from './render';
import { screenFreeText } from './screen';

/** Raw turns kept for the next compaction: a compaction that keeps failing does not grow the state without bound. */
export const MAX_PENDING_TURNS = 20;
export const MAX_OBSERVATION_CHARS = 600;
const MAX_FACT_ROOMS = 200;
const MAX_FACT_EXITS = 300;

export const RawTurnSchema = z.object({
  turn: z.number().int(),
  command: z.string(),
  observation: z.string(),
  location: z.string(),
  score: z.number().int(),
});
export type RawTurn = z.infer<typeof RawTurnSchema>;

const ExitSchema = ObservedExitSchema;

/** Seed 001's compaction_state, plus the settings this episode runs with. */
export const CompactionStatsSchema = z.object({
  lastCompactedTurn: z.number().int(),
  compactions: z.number().int(),
  calls: z.number().int(),
  appliedUpdates: z.number().int(),
  rejectedUpdates: z.number().int(),
  invalidCalls: z.number().int(),
  /** Calls rejected because their free text did not read as words (see screen.ts); absent in states from before the screen. */
  rejectedText: z.number().int().optional(),
  failures: z.number().int(),
  /** Raw turns dropped unread because compactions kept failing. */
  droppedTurns: z.number().int(),
});
export type CompactionStats = z.infer<typeof CompactionStatsSchema>;

export const CompactionStateSchema = z.object({
  settings: z.object({ every: z.number().int(), smart: z.boolean() }),
  model: WorldModelSchema,
  pending: z.array(RawTurnSchema),
  /** What the engine showed: rooms visited and moves between them (the merge's ground truth). */
  rooms: z.array(z.string()),
  exits: z.array(ExitSchema),
  /** The smart trigger fired since the last compaction. */
  dueEarly: z.boolean(),
  /** After a failed compaction, the next try waits for another `every` turns (or the episode's end). */
  retryAfterTurn: z.number().int(),
  stats: CompactionStatsSchema,
});
export type CompactionState = z.infer<typeof CompactionStateSchema>;

/** The `compact` activity's input. */
export const CompactRequestSchema = z.object({
  model: WorldModelSchema,
  turns: z.array(RawTurnSchema).min(1).max(MAX_PENDING_TURNS),
  facts: EngineFactsSchema,
  seed: z.number().int(),
});
export type CompactRequest = z.infer<typeof CompactRequestSchema>;

/** The `compact` activity's answer: the model's tool calls (validated), the ones that failed validation, usage. */
export const CompactResultSchema = z.object({
  calls: z.array(z.object({ tool: z.string(), arguments: z.unknown() })),
  invalid: z.array(z.object({ tool: z.string(), error: z.string() })),
  usage: OracleUsageSchema,
});
export type CompactResult = z.infer<typeof CompactResultSchema>;

const freshStats = (): CompactionStats => ({
  lastCompactedTurn: 0,
  compactions: 0,
  calls: 0,
  appliedUpdates: 0,
  rejectedUpdates: 0,
  invalidCalls: 0,
  failures: 0,
  droppedTurns: 0,
});

function engineFacts(state: CompactionState, view: TurnView): EngineFacts {
  return {
    turn: view.turn,
    location: view.truth.location.name,
    inventory: view.truth.inventory.map((item) => item.name),
    score: view.truth.score,
    visitedRooms: state.rooms,
    exits: state.exits,
  };
}

/** A scene covers the turns this compaction read, whatever turn numbers the model wrote. */
function sceneSpans(calls: ToolCall[], from: number, to: number): ToolCall[] {
  return calls.map((call) =>
    call.tool === 'record_scene' && call.arguments && typeof call.arguments === 'object'
      ? { ...call, arguments: { ...call.arguments, from_turn: from, to_turn: to } }
      : call,
  );
}

function observe(state: CompactionState, view: TurnView): CompactionState {
  // Idle (no LLM, or compaction off): keep nothing, so an oracle-free episode carries no raw turns.
  if (state.settings.every === 0) return state;
  const room = view.truth.location.name;
  const from = view.before?.location.name;
  const newRoom = !!room && !state.rooms.includes(room);
  const rooms = newRoom ? [...state.rooms, room].slice(-MAX_FACT_ROOMS) : state.rooms;
  const moved = !!(view.command && from && room && from !== room);
  const exits =
    moved && !state.exits.some((e) => e.from === from && e.command === view.command && e.to === room)
      ? [...state.exits, { from: from!, command: view.command!, to: room }].slice(-MAX_FACT_EXITS)
      : state.exits;
  if (!view.command) return { ...state, rooms, exits };
  const turn: RawTurn = {
    turn: view.turn,
    command: view.command,
    observation: view.observation.slice(0, MAX_OBSERVATION_CHARS),
    location: room,
    score: view.truth.score,
  };
  const pending = [...state.pending.filter((t) => t.turn !== turn.turn), turn];
  const dropped = Math.max(0, pending.length - MAX_PENDING_TURNS);
  const scoreChanged = view.before !== null && view.before.score !== view.truth.score;
  // Ground truth is written over the model every turn, so what the context shows of the player's
  // room, inventory and score is never stale between compactions.
  return {
    ...state,
    model: withGroundTruth(state.model, {
      turn: view.turn,
      location: room,
      inventory: view.truth.inventory.map((i) => i.name),
      score: view.truth.score,
      visitedRooms: rooms,
      exits,
    }),
    rooms,
    exits,
    pending: pending.slice(dropped),
    dueEarly: state.dueEarly || newRoom || scoreChanged,
    stats: { ...state.stats, droppedTurns: state.stats.droppedTurns + dropped },
  };
}

/** The compaction's result merged in, with the updates the merge refused and why (bench:memory reports them). */
export function mergeCompaction(
  state: CompactionState,
  result: CompactResult,
  view: TurnView,
): { state: CompactionState; rejected: Array<{ call: ToolCall; reason: string }> } {
  const facts = engineFacts(state, view);
  const screened = screenFreeText(result.calls);
  const merged = applyToolCalls(state.model, sceneSpans(screened.kept, state.pending[0]?.turn ?? view.turn, view.turn), facts);
  const next: CompactionState = {
    ...state,
    model: merged.model,
    pending: state.pending.filter((t) => t.turn > view.turn),
    dueEarly: false,
    stats: {
      ...state.stats,
      lastCompactedTurn: view.turn,
      compactions: state.stats.compactions + 1,
      calls: state.stats.calls + result.calls.length + result.invalid.length,
      appliedUpdates: state.stats.appliedUpdates + merged.applied,
      rejectedUpdates: state.stats.rejectedUpdates + merged.rejected.length + screened.rejected.length,
      invalidCalls: state.stats.invalidCalls + result.invalid.length,
      rejectedText: (state.stats.rejectedText ?? 0) + screened.rejected.length,
    },
  };
  return { state: next, rejected: [...screened.rejected, ...merged.rejected] };
}

export const compactionModule = defineMemoryModule<CompactionState, CompactRequest, CompactResult>({
  name: 'compaction',
  schema: CompactionStateSchema,
  contextTokens: 450,
  initial(inherited, config) {
    // The world model and the rooms seen carry over from earlier episodes; the turns and counters do not.
    const settings = { every: config.policy === 'full' ? config.compactEvery : 0, smart: config.compactSmart };
    return inherited
      ? { ...inherited, settings, pending: [], dueEarly: false, retryAfterTurn: 0, stats: freshStats() }
      : { settings, model: emptyWorldModel(), pending: [], rooms: [], exits: [], dueEarly: false, retryAfterTurn: 0, stats: freshStats() };
  },
  observe,
  activities: ['compact'],
  due(state, view) {
    if (state.settings.every === 0 || state.pending.length === 0) return null;
    const due =
      view.ending ||
      (view.turn >= state.retryAfterTurn && (state.pending.length >= state.settings.every || (state.settings.smart && state.dueEarly)));
    return due
      ? { activity: 'compact', request: { model: state.model, turns: state.pending, facts: engineFacts(state, view), seed: view.turn } }
      : null;
  },
  apply: (state, result, view) => mergeCompaction(state, result, view).state,
  failed: (state, view) => ({
    ...state,
    retryAfterTurn: view.turn + Math.max(1, state.settings.every),
    stats: { ...state.stats, failures: state.stats.failures + 1 },
  }),
  files: (state) => ({
    locations: state.model.locations,
    items: state.model.items,
    characters: state.model.characters,
    quests: state.model.quests,
    scenes: state.model.scenes,
    narratives: { narrative: state.model.narrative },
    compaction_state: { settings: state.settings, pendingTurns: state.pending.map((t) => t.turn), ...state.stats },
  }),
  render(state, view, budgetTokens) {
    if (state.settings.every === 0) return '';
    // The raw turns not yet compacted get up to half the budget, newest first; the model the rest.
    // The current turn's response is left out: the prompt shows it once, as the observation.
    const budgetChars = budgetTokens * 4;
    const kept: string[] = [];
    let used = 0;
    for (const turn of state.pending.filter((t) => t.turn !== view.turn).reverse()) {
      const text = `[${turn.turn}] > ${turn.command}: ${turn.observation.slice(0, 300)}`;
      if (used + text.length + 1 > budgetChars / 2) break;
      kept.unshift(text);
      used += text.length + 1;
    }
    const modelText = renderWorldModel(state.model, { here: view.truth.location.name, budgetTokens: Math.floor((budgetChars - used) / 4) });
    return [modelText, kept.length ? `NOT YET COMPACTED:\n${kept.join('\n')}` : ''].filter(Boolean).join('\n');
  },
  describe: (state) =>
    [
      renderWorldModel(state.model, { here: '', budgetTokens: 100_000 }),
      `compaction: every ${state.settings.every || 'off'}${state.settings.smart ? ' (smart)' : ''}; ` +
        `${state.stats.compactions} done, last at turn ${state.stats.lastCompactedTurn}; ` +
        `${state.stats.appliedUpdates} updates applied, ${state.stats.rejectedUpdates} rejected, ` +
        `${state.stats.invalidCalls} invalid calls, ${state.stats.rejectedText ?? 0} rejected as not words, ` +
        `${state.stats.failures} failures; ${state.pending.length} turns pending`,
    ].join('\n'),
});
