/**
 * npm run bench:memory -- [--game zork1] [--turns 100] [--every 5] [--model embedded|perfect] [--seed 1]
 *
 * Compaction (seed 001) measured against the engine's ground truth. One episode is played
 * in-process by the oracle-free policy (so every run sees the same moves and the measure is of
 * memory alone); the compaction module runs exactly as in the workflow (the same pipeline stages
 * and the same `compact` activity code), with the embedded model or with a scripted model that
 * answers perfectly from the engine (the upper bound the merge allows). At each compaction point:
 *   precision          claims about rooms, exits, item places and inventory the engine confirms ÷ claims it can check
 *   recall             engine facts from the turns seen (rooms, exits taken, places of seen items) that the model holds
 *   hallucinationRate  claims the engine contradicts ÷ all claims
 *   contextTokens      the compaction module's section of the oracle's context (structured model + raw turns not yet compacted)
 *   rawTokens          the raw transcript so far (command + response per turn)
 * Prints one JSON object: the values at the last compaction point as top-level keys
 * (hallucinationRate, precision, recall, contextTokens, rawTokens, contextRatio), the mean
 * secondsPerCompaction, the total rejectedUpdates and invalidCalls, and every point.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { createCompactionActivities } from '../src/activities/compaction';
import { createGameActivities } from '../src/activities/game';
import { approxTokens } from '../src/text';
import { createRng, seedFor } from '../src/agent/rng';
import { AgentState, initialState } from '../src/agent/state';
import { decide, deliberate, learn, turnView } from '../src/agent/turn';
import { applyWork, dueWork, initialMemory } from '../src/memory/runner';
import { GameSession, resolveStory } from '../src/engine';
import { createProvider } from '../src/llm';
import type { LlmProvider, ToolCallRequest, ToolCallResult } from '../src/llm/types';
import { CompactRequest, compactionModule, CompactionState, mergeCompaction } from '../src/memory/compaction';
import { GroundTruthFacts, itemLocationsFromTree, scoreModel } from '../src/memory/compaction/metrics';
import { resolveEpisodeConfig } from '../src/schemas/episode';
import { freshLearned } from '../src/agent/learned';
import { arg } from './harness';

const log = (msg: string) => process.stderr.write(`bench:memory ${msg}\n`);
const round = (x: number) => Number(x.toFixed(3));

/** A model that knows what the engine knows: every room, exit and seen item's place, stated exactly. */
class PerfectModel implements LlmProvider {
  readonly name = 'perfect';
  readonly model = 'perfect';
  truth: GroundTruthFacts = { rooms: [], exits: [], itemLocations: {}, inventory: [] };
  span = { from: 0, to: 0 };

  async callTools(_request: ToolCallRequest): Promise<ToolCallResult> {
    const { rooms, exits, itemLocations } = this.truth;
    const calls = [
      ...rooms.map((name) => ({
        tool: 'update_location',
        arguments: {
          name,
          description: '',
          exits: exits
            .filter((e) => e.from === name)
            .map((e) => ({ direction: e.command, leads_to: e.to }))
            .slice(-8),
          features: [],
        },
      })),
      ...Object.entries(itemLocations).map(([name, place]) => ({
        tool: 'update_item',
        arguments: {
          name,
          where_kind: place === 'carried' ? 'carried' : rooms.includes(place) ? 'room' : 'inside',
          where: place === 'carried' ? '' : place,
          state: [],
        },
      })),
      {
        tool: 'record_scene',
        arguments: {
          from_turn: this.span.from,
          to_turn: this.span.to,
          summary: `turns ${this.span.from}-${this.span.to}`,
          outcome: '',
          narrative: '',
        },
      },
    ];
    return { calls, invalid: [], usage: { promptTokens: 0, completionTokens: 0 }, model: this.model, raw: '' };
  }
  async complete(): Promise<never> {
    throw new Error('the perfect model only compacts');
  }
  async preflight(): Promise<void> {}
  async close(): Promise<void> {}
}

/** The most common reasons, with counts (numbers and quoted names folded so alike reasons group). */
function countReasons(reasons: string[]): Record<string, number> {
  const counts = new Map<string, number>();
  for (const reason of reasons) {
    const key = reason
      .replace(/"[^"]*"/g, '"…"')
      .replace(/'[^']*'/g, "'…'")
      .replace(/\d+/g, 'N')
      .slice(0, 160);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  return Object.fromEntries([...counts].sort((a, b) => b[1] - a[1]).slice(0, 12));
}

async function main(): Promise<void> {
  const zork = join(__dirname, '..', '..', 'shared', 'games', 'zork1.z3');
  const game = arg('game', existsSync(zork) ? zork : 'lighthouse');
  const turns = Number(arg('turns', '100'));
  const every = Number(arg('every', '5'));
  const seed = Number(arg('seed', '1'));
  const which = arg('model', 'embedded');
  if (which !== 'embedded' && which !== 'perfect') throw new Error(`--model must be embedded or perfect, got ${which}`);

  // Moves: the oracle-free policy; memory: the full agent's modules with compaction every N.
  const moves = resolveEpisodeConfig({ game, seed, maxTurns: turns, policy: 'oracle-free', stopOnDeath: false });
  const memoryConfig = { ...moves, policy: 'full' as const, compactEvery: every };
  const perfect = new PerfectModel();
  const provider: LlmProvider = which === 'perfect' ? perfect : createProvider();
  const { compact } = createCompactionActivities(() => provider);
  const engine = createGameActivities();
  const truthSession = GameSession.fromFile(resolveStory(game));

  const start = await engine.startGame({ game, seed, assist: 'probe' });
  const learned = freshLearned();
  let state: AgentState = initialState(start, learned, seedFor(seed, 'policy'), initialMemory(learned, memoryConfig));
  let rawTokens = 0;
  let seenText = start.observation.toLowerCase();
  const points: Array<Record<string, number>> = [];
  /** Why the merge refused the model's updates, and the calls that failed their schema. */
  const refused: string[] = [];

  const truthAt = (s: AgentState): GroundTruthFacts => {
    const compaction = s.memory.compaction as CompactionState;
    truthSession.restore(Buffer.from(s.snapshot, 'base64'));
    const objects = truthSession.objectTree();
    const seen = objects.map((o) => o.name).filter((name) => name && seenText.includes(name.toLowerCase()));
    return {
      rooms: compaction.rooms,
      exits: compaction.exits,
      itemLocations: itemLocationsFromTree(objects, { playerId: truthSession.player ?? 0, visitedRooms: compaction.rooms, seen }),
      inventory: s.truth.inventory.map((i) => i.name),
    };
  };

  log(`${which}: ${turns} turns of ${game.split('/').pop()}, compaction every ${every}`);
  while (state.turn < turns) {
    const rng = createRng(state.rngState);
    const decision = decide(state, moves, rng, deliberate(state, moves, rng), null);
    const step = await engine.stepGame({
      game,
      storyMd5: state.story.md5,
      snapshot: state.snapshot,
      command: decision.command,
      assist: 'probe',
    });
    const before = state;
    state = learn(before, moves, decision, step, rng);
    rawTokens += approxTokens(`> ${step.command}\n${step.observation}`);
    seenText += `\n${step.observation.toLowerCase()}`;
    const view = turnView(state, before, state.turn === turns);
    for (const work of dueWork(state.memory, view)) {
      const truth = truthAt(state);
      perfect.truth = truth;
      perfect.span = { from: (state.memory.compaction as CompactionState).pending[0]?.turn ?? state.turn, to: state.turn };
      const statsBefore = (state.memory.compaction as CompactionState).stats;
      const t0 = performance.now();
      const result = await compact(work.request as CompactRequest);
      const seconds = (performance.now() - t0) / 1000;
      for (const { call, reason } of mergeCompaction(state.memory.compaction as CompactionState, result, view).rejected)
        refused.push(`${call.tool}: ${reason}`);
      for (const bad of result.invalid) refused.push(`${bad.tool} (invalid): ${bad.error}`);
      state = { ...state, memory: applyWork(state.memory, work, result, view).memory };
      const compaction = state.memory.compaction as CompactionState;
      const score = scoreModel(compaction.model, truth);
      const contextTokens = approxTokens(compactionModule.render(compaction, view, compactionModule.contextTokens ?? 450));
      points.push({
        turn: state.turn,
        precision: round(score.precision),
        recall: round(score.recall),
        hallucinationRate: round(score.hallucinationRate),
        claims: score.claims,
        contextTokens,
        rawTokens,
        calls: result.calls.length + result.invalid.length,
        seconds: round(seconds),
        rejectedUpdates: compaction.stats.rejectedUpdates - statsBefore.rejectedUpdates,
        invalidCalls: compaction.stats.invalidCalls - statsBefore.invalidCalls,
      });
      log(
        `turn ${state.turn}: ${JSON.stringify(points[points.length - 1])}${score.contradictions.length ? ` contradicted: ${score.contradictions.slice(0, 3).join(' | ')}` : ''}`,
      );
    }
  }
  await provider.close();
  const last = points[points.length - 1];
  console.log(
    JSON.stringify({
      game: game.split('/').pop(),
      model: which === 'perfect' ? 'perfect (scripted from the engine)' : `${provider.name}:${provider.model}`,
      turns,
      every,
      compactions: points.length,
      hallucinationRate: last.hallucinationRate,
      precision: last.precision,
      recall: last.recall,
      contextTokens: last.contextTokens,
      rawTokens: last.rawTokens,
      contextRatio: round(last.contextTokens / last.rawTokens),
      secondsPerCompaction: round(points.reduce((n, p) => n + p.seconds, 0) / points.length),
      rejectedUpdates: points.reduce((n, p) => n + p.rejectedUpdates, 0),
      invalidCalls: points.reduce((n, p) => n + p.invalidCalls, 0),
      appliedUpdates: (state.memory.compaction as CompactionState).stats.appliedUpdates,
      refusedReasons: countReasons(refused),
      points,
    }),
  );
}

main().then(
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
