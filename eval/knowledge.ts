/**
 * npm run eval:knowledge [-- --model gemma3-270m] [--windows N]
 * (the embedded model; with GRUE_LLM_PROVIDER=openai, the configured OpenAI-compatible endpoint)
 *
 * Seed 000's A/B test: the single-stage knowledge update (the seed-000 heuristic gate, then one
 * `updateKnowledge` call — the production activity) against the old three-stage pipeline
 * (assess → extract insights → create the base, eval/threeStage.ts) on the same recorded turn
 * windows: a fixed Zork I route, with a death, played in the real engine and cut into windows of
 * 10 turns (eval/knowledgeWindows.ts). Each pipeline carries its base from window to window,
 * merged with `mergeItems` and compressed to 8 KB with `compress`, as the knowledge module does;
 * the two run window by window in turn, with the model loaded before anything is timed.
 * After each window the IMPL items it wrote are replayed by the real `verifyKnowledge` activity
 * from the first snapshot of the window in the item's room (else the window's start).
 *
 * Prints one JSON object; `singleStage` and `threeStage` each hold
 *   calls          LLM calls made (a failed call counts)
 *   seconds        wall seconds of those calls
 *   size           bytes of the final base (knowledgeBytes)
 *   specificity    share of the final items whose text or keywords name a real object or room
 *                  of the story (names from its object table; null for an empty base)
 *   verifiedShare  share of the final IMPL items whose check passes in the engine (an IMPL item
 *                  without a verification counts as not verified; null when there is no IMPL item)
 * plus items, implItems, verified, failures, tokens and the final items; `windows` has the
 * per-window details (gate, assessment, insights, calls, seconds, items added).
 */
import { createKnowledgeActivities } from '../src/activities/knowledge';
import { StorySessions } from '../src/activities/stories';
import { GameSession } from '../src/engine/session';
import { createProvider, LlmProvider } from '../src/llm';
import { LocalProvider } from '../src/llm/localProvider';
import { DEFAULT_EMBEDDED_MODEL, embeddedModel, ensureModel } from '../src/llm/models';
import { compress, contextLine, knowledgeBytes, mergeItems } from '../src/memory/knowledge/layers';
import { screenFor } from '../src/memory/knowledge/prompt';
import type { KnowledgeAnswer, KnowledgeItem, UpdateRequest } from '../src/memory/knowledge/schema';
import {
  checksFor,
  namesIn,
  recordWindows,
  RecordedWindow,
  Recording,
  requireZork,
  specificity,
  StoryNames,
  storyNames,
} from './knowledgeWindows';
import { threeStageUpdate } from './threeStage';

const log = (msg: string) => process.stderr.write(`eval:knowledge ${msg}\n`);
const round = (x: number, digits = 3) => Number(x.toFixed(digits));

function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** The knowledge module's default size limit (`--knowledge-kb 8`). */
const LIMIT_BYTES = 8 * 1024;
/** The story as the prompts name it (what a player who typed `zork1` would see). */
const GAME = 'zork1';

type Pipeline = 'singleStage' | 'threeStage';

interface Attempt {
  answer: KnowledgeAnswer | null;
  calls: number;
  seconds: number;
  promptTokens: number;
  completionTokens: number;
  failures: number;
  detail: Record<string, unknown>;
}

interface Verdict {
  passed: boolean;
  response: string;
  /** The window the check was run from. */
  window: number;
  /** The room and check that were replayed. */
  signature: string;
}

interface PipelineRun {
  items: KnowledgeItem[];
  nextId: number;
  calls: number;
  seconds: number;
  promptTokens: number;
  completionTokens: number;
  failures: number;
  verdicts: Map<string, Verdict>;
  windows: Record<string, unknown>[];
}

type Activities = ReturnType<typeof createKnowledgeActivities>;

async function singleStage(activities: Activities, request: UpdateRequest, w: RecordedWindow): Promise<Attempt> {
  const none = { promptTokens: 0, completionTokens: 0 };
  if (!w.gate.update) return { answer: null, calls: 0, seconds: 0, ...none, failures: 0, detail: { gate: w.gate } };
  const started = performance.now();
  try {
    const result = await activities.updateKnowledge(request);
    const seconds = (performance.now() - started) / 1000;
    return {
      answer: result.answer,
      calls: result.usage.calls,
      seconds,
      promptTokens: result.usage.promptTokens,
      completionTokens: result.usage.completionTokens,
      failures: 0,
      detail: { gate: w.gate },
    };
  } catch (err) {
    const seconds = (performance.now() - started) / 1000;
    return {
      answer: null,
      calls: 1,
      seconds,
      ...none,
      failures: 1,
      detail: { gate: w.gate, error: err instanceof Error ? err.message.slice(0, 300) : String(err) },
    };
  }
}

async function threeStage(provider: LlmProvider, request: UpdateRequest): Promise<Attempt> {
  const r = await threeStageUpdate(provider, request);
  const sum = (f: (s: (typeof r.stages)[number]) => number) => r.stages.reduce((n, s) => n + f(s), 0);
  return {
    answer: r.answer,
    calls: r.stages.length,
    seconds: sum((s) => s.seconds),
    promptTokens: sum((s) => s.usage.promptTokens),
    completionTokens: sum((s) => s.usage.completionTokens),
    failures: r.stages.filter((s) => !s.ok).length,
    detail: {
      assessment: r.assessment,
      insights: r.insights,
      stages: r.stages.map((s) => ({ stage: s.stage, seconds: round(s.seconds, 1), ok: s.ok, ...(s.error ? { error: s.error } : {}) })),
    },
  };
}

const signature = (item: KnowledgeItem) =>
  item.verification ? JSON.stringify([item.room, item.verification.commands, item.verification.expect]) : '';

/**
 * The IMPL items this update wrote, replayed in the engine (four checks per activity, its limit).
 * An item restated with the same check that already passed keeps its verdict: replaying "move
 * rug" in a later window, after the rug was moved, would refute a fact that was shown true.
 */
async function verifyWritten(
  activities: Activities,
  recording: Recording,
  w: RecordedWindow,
  items: readonly KnowledgeItem[],
  verdicts: Map<string, Verdict>,
): Promise<number> {
  const written = items.filter((i) => i.layer === 'IMPL' && i.lastSeenTrue === w.window.endTurn);
  const due = written.filter((i) => {
    const old = verdicts.get(i.id);
    return !(old?.passed && old.signature === signature(i));
  });
  for (const item of due) verdicts.delete(item.id);
  const checks = checksFor(due, w);
  for (let i = 0; i < checks.length; i += 4) {
    const { results } = await activities.verifyKnowledge({
      game: recording.story,
      storyMd5: recording.storyMd5,
      checks: checks.slice(i, i + 4),
    });
    for (const r of results) {
      const item = due.find((d) => d.id === r.id)!;
      verdicts.set(r.id, { passed: r.passed, response: r.response, window: w.index, signature: signature(item) });
    }
  }
  return checks.length;
}

const freshRun = (): PipelineRun => ({
  items: [],
  nextId: 1,
  calls: 0,
  seconds: 0,
  promptTokens: 0,
  completionTokens: 0,
  failures: 0,
  verdicts: new Map(),
  windows: [],
});

/** One pipeline's update on one window: the call(s), the merge and compression, the checks of what it wrote. */
async function step(
  pipeline: Pipeline,
  state: PipelineRun,
  w: RecordedWindow,
  total: number,
  recording: Recording,
  provider: LlmProvider,
  activities: Activities,
): Promise<void> {
  const request: UpdateRequest = {
    game: GAME,
    episode: 0,
    window: w.window,
    existing: state.items,
    wisdom: [],
    final: w.final,
    seed: w.window.endTurn,
  };
  const attempt = pipeline === 'singleStage' ? await singleStage(activities, request, w) : await threeStage(provider, request);
  state.calls += attempt.calls;
  state.seconds += attempt.seconds;
  state.promptTokens += attempt.promptTokens;
  state.completionTokens += attempt.completionTokens;
  state.failures += attempt.failures;
  let added = 0;
  let merged = 0;
  let removed = 0;
  let checked = 0;
  if (attempt.answer) {
    const m = mergeItems(state.items, attempt.answer.items, state.nextId, {
      turn: w.window.endTurn,
      rooms: w.rooms,
      window: w.window,
      source: 'observation',
      accept: screenFor(w.window),
    });
    const c = compress(m.items, LIMIT_BYTES);
    state.items = c.items;
    state.nextId = m.nextId;
    added = m.added;
    merged = m.merged;
    removed = c.removed;
    checked = await verifyWritten(activities, recording, w, state.items, state.verdicts);
  }
  const passed = [...state.verdicts.values()].filter((v) => v.window === w.index && v.passed).length;
  state.windows.push({
    calls: attempt.calls,
    seconds: round(attempt.seconds, 1),
    answered: attempt.answer?.items.length ?? 0,
    added,
    merged,
    compressed: removed,
    checked,
    passed,
    items: state.items.length,
    ...attempt.detail,
  });
  log(
    `${pipeline} window ${w.index + 1}/${total} (turns ${w.window.startTurn}-${w.window.endTurn}): ${attempt.calls} call(s), ${round(attempt.seconds, 1)} s, ${attempt.answer ? `${attempt.answer.items.length} answered, +${added} new, ${merged} merged, ${checked} checked (${passed} passed)` : 'no update'}${attempt.failures ? `, ${attempt.failures} failed` : ''}`,
  );
}

function summary(state: PipelineRun, names: StoryNames) {
  const items = state.items;
  const impl = items.filter((i) => i.layer === 'IMPL');
  const verified = impl.filter((i) => state.verdicts.get(i.id)?.passed).length;
  return {
    calls: state.calls,
    seconds: round(state.seconds, 1),
    size: knowledgeBytes(items),
    specificity: items.length ? round(specificity(items, names)) : null,
    verifiedShare: impl.length ? round(verified / impl.length) : null,
    items: items.length,
    implItems: impl.length,
    implWithVerification: impl.filter((i) => i.verification).length,
    verified,
    failures: state.failures,
    promptTokens: state.promptTokens,
    completionTokens: state.completionTokens,
    finalItems: items.map((i) => {
      const verdict = state.verdicts.get(i.id);
      return {
        line: contextLine(i),
        names: namesIn([i.text, ...i.keywords].join(' . '), names),
        ...(i.layer === 'IMPL'
          ? {
              verification: i.verification,
              verified: verdict?.passed ?? false,
              ...(verdict ? { response: verdict.response.slice(0, 120) } : {}),
            }
          : {}),
      };
    }),
  };
}

/** Both pipelines on `windows`, one after the other, with the same provider: the JSON the script prints. */
export async function evaluate(provider: LlmProvider, recording: Recording, windows: readonly RecordedWindow[], names: StoryNames) {
  const activities = createKnowledgeActivities(() => provider, new StorySessions());
  const single = freshRun();
  const three = freshRun();
  // Window by window, the two pipelines in turn: a machine that gets busier halfway through slows both alike.
  for (const w of windows) {
    await step('singleStage', single, w, windows.length, recording, provider, activities);
    await step('threeStage', three, w, windows.length, recording, provider, activities);
  }
  return {
    model: `${provider.name}:${provider.model}`,
    story: GAME,
    seed: recording.seed,
    turns: windows.length ? windows[windows.length - 1].window.endTurn - windows[0].window.startTurn + 1 : 0,
    limitBytes: LIMIT_BYTES,
    singleStage: summary(single, names),
    threeStage: summary(three, names),
    windows: windows.map((w, i) => ({
      turns: `${w.window.startTurn}-${w.window.endTurn}`,
      deaths: w.window.deaths.map((d) => `turn ${d.turn} in ${d.location}: ${d.reason}`),
      singleStage: single.windows[i],
      threeStage: three.windows[i],
    })),
  };
}

async function main(): Promise<void> {
  const story = requireZork();
  const model = arg('model', DEFAULT_EMBEDDED_MODEL);
  const limit = Number(arg('windows', '0'));
  if (!Number.isInteger(limit) || limit < 0) throw new Error(`--windows must be a whole number (0: all), got ${arg('windows', '')}`);

  const recording = recordWindows(story);
  const windows = limit ? recording.windows.slice(0, limit) : recording.windows;
  const names = storyNames(GameSession.fromFile(story));
  log(
    `${recording.commands.length} turns of ${story} (seed ${recording.seed}) in ${recording.windows.length} windows; evaluating ${windows.length}; ${recording.windows.reduce((n, w) => n + w.window.deaths.length, 0)} death(s)`,
  );

  const remote = process.env.GRUE_LLM_PROVIDER === 'openai';
  if (!remote) {
    embeddedModel(model);
    await ensureModel(model, log);
  }
  // Generous: the evaluation measures the model, and shares two cores with whatever else runs.
  const provider = remote ? createProvider() : new LocalProvider({ modelId: model, timeoutMs: 600_000 });
  try {
    // Load the model before anything is timed: neither pipeline pays for it.
    const loading = performance.now();
    await provider.preflight();
    log(`${provider.name}:${provider.model} ready in ${round((performance.now() - loading) / 1000, 1)} s`);
    const result = await evaluate(provider, recording, windows, names);
    process.stdout.write(`${JSON.stringify(result, null, 2)}\n`);
  } finally {
    await provider.close();
  }
}

if (require.main === module) {
  main().catch((err) => {
    log(err instanceof Error ? (err.stack ?? err.message) : String(err));
    process.exit(1);
  });
}
