/**
 * The turn pipeline's stages, called directly without Temporal: what each stage decides, that
 * learning uses the command the engine ran, that a memory module plugs in without touching the
 * loop, and that the carried state stays within its byte budget.
 */
import { z } from 'zod';
import { turnAnalysisPrompt } from '../../src/agent/prompts';
import { createRng } from '../../src/agent/rng';
import { AgentState, fitCarry, initialState, jsonBytes, MAX_CARRY_BYTES } from '../../src/agent/state';
import { decide, deliberate, isOver, learn, ORACLE_STALL_TURNS, recall, turnView } from '../../src/agent/turn';
import { oracleFreePolicy, triedKey } from '../../src/agent/policy';
import { policyContextOf } from '../../src/agent/policyContext';
import { applyWork, dueWork, initialMemory, workFailed } from '../../src/memory/runner';
import { defineMemoryModule, MEMORY_MODULES, type MemoryActivity } from '../../src/memory';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { freshLearned } from '../../src/agent/learned';
import type { GameState, GroundTruthData, StartGameResult } from '../../src/schemas/game';
import { analysis, opt } from './fixtures';

const truth = (location: string, score = 0): GroundTruthData => ({
  score,
  moves: 0,
  location: { id: 1, name: location },
  inventory: [],
  done: false,
  victory: false,
  died: false,
});

function startOf(options = [opt('north'), opt('open door'), opt('take lamp')]): StartGameResult {
  return {
    observation: 'You are in a hall.',
    truth: truth('Hall'),
    worldHash: 'h-start',
    snapshot: 'snap0',
    options,
    commands: [],
    storyMd5: '0'.repeat(32),
    storyName: 'test',
    maxScore: 10,
  };
}

const stateOf = (start = startOf()) => initialState(start, freshLearned(), 1, initialMemory(freshLearned(), config('full')));
const config = (policy: 'full' | 'oracle-free' | 'random') => resolveEpisodeConfig({ game: 'test', policy });
const step = (command: string, over: Partial<GameState> = {}): GameState & { command: string } => ({
  command,
  observation: `You ${command}.`,
  truth: truth('Kitchen'),
  worldHash: `h-${command}`,
  snapshot: 'snap1',
  options: [opt('south')],
  commands: [],
  ...over,
});
const answered = (over = {}) => ({
  turn: { answer: analysis({ recommended_action: 'open door', ...over }), usage: { calls: 1, promptTokens: 100, completionTokens: 20 } },
  failure: null,
});

describe('the end of an episode', () => {
  const keepGoing = resolveEpisodeConfig({ game: 'test', stopOnDeath: false });
  const dead = { ...truth('Hall'), done: true, died: true };

  it('plays on after a death the game goes on from, unless it stops on deaths', () => {
    expect(isOver(dead, keepGoing)).toBe(false);
    expect(isOver(dead, resolveEpisodeConfig({ game: 'test', stopOnDeath: true }))).toBe(true);
  });

  it('ends on a death after which the game asks its final question, even where deaths do not end it', () => {
    expect(isOver({ ...dead, ended: true }, keepGoing)).toBe(true);
  });
});

describe('the turn pipeline', () => {
  it('oracle-free and random policies decide in deliberate, without asking the oracle', () => {
    for (const policy of ['oracle-free', 'random'] as const) {
      const d = deliberate(stateOf(), config(policy), createRng(1));
      expect(d.kind).toBe('decided');
    }
  });

  it('the full agent asks the oracle with the observation once and every memory module in the context', () => {
    let state = stateOf();
    const play = (command: string, over: Partial<GameState> = {}) =>
      (state = learn(
        state,
        config('full'),
        decide(state, config('full'), createRng(1), { kind: 'decided', choice: { command, reason: 'novel', why: 'test' } }, null),
        step(command, over),
        createRng(1),
      ));
    play('north');
    play('south', { truth: truth('Hall'), options: [opt('north'), opt('wait'), opt('sing')] });
    const d = deliberate(state, config('full'), createRng(2));
    if (d.kind !== 'ask') throw new Error('expected an oracle query');
    expect(d.request).toMatchObject({ observation: 'You south.', lastAction: 'south', validActions: ['wait', 'sing'] });
    expect(d.request.context.map((s) => s.title)).toEqual(["AGENT'S BELIEFS", 'COMPACTION', 'MAP']);
    expect(d.failure).toBeNull(); // the world changed: nothing failed
    const prompt = turnAnalysisPrompt(d.request, 1500)[1].content;
    expect(prompt.split('You south.')).toHaveLength(2);
    expect(prompt).toMatch(/KNOWN EXITS: north -> Kitchen/);
  });

  it('asks for a failure analysis when the last action changed nothing', () => {
    let state = stateOf();
    state = learn(
      state,
      config('full'),
      decide(
        state,
        config('full'),
        createRng(1),
        { kind: 'decided', choice: { command: 'open door', reason: 'novel', why: 'test' } },
        null,
      ),
      step('open door', { worldHash: 'h-start', truth: truth('Hall'), observation: 'It is locked.', options: [opt('south'), opt('wait')] }),
      createRng(1),
    );
    const d = deliberate(state, config('full'), createRng(2));
    expect(d.kind === 'ask' && d.failure).toMatchObject({ failedAction: 'open door', response: 'It is locked.' });
  });

  it('under valid, the oracle is asked to choose among the untried moves of the least risky kind, and not asked when one is left', () => {
    const valid = resolveEpisodeConfig({ game: 'test', policy: 'full', assist: 'valid' });
    const withCommands = (commands: string[]) => stateOf({ ...startOf(), options: [], commands });
    const d = deliberate(withCommands(['jump', 'close door', 'north', 'take lamp']), valid, createRng(1));
    expect(d.kind === 'ask' && d.request.validActions).toEqual(['north', 'take lamp']);
    expect(deliberate(withCommands(['jump', 'close door', 'north']), valid, createRng(1))).toMatchObject({
      kind: 'decided',
      choice: { command: 'north', reason: 'untried' },
    });
  });

  it('with an oracle budget, the oracle is asked only where the explorer is lost, and no more turns than the budget', () => {
    const budgeted = resolveEpisodeConfig({ game: 'test', policy: 'full', assist: 'valid', oracleBudget: 2 });
    const start = initialState(
      { ...startOf(), options: [], commands: ['north', 'take lamp', 'jump', 'sing'] },
      freshLearned(),
      1,
      initialMemory(freshLearned(), budgeted),
    );
    const always = { ...start.learned.reliability, recommendation: { tried: 1000, helped: 1000 }, thought: { tried: 1000, helped: 1000 } };
    const trusted = { ...start, learned: { ...start.learned, reliability: always } };
    // Untried moves that go places or take things: the explorer leads, the budget is kept.
    const leading = deliberate(trusted, budgeted, createRng(1));
    expect(leading).toMatchObject({ kind: 'decided', choice: { reason: 'untried' } });
    expect(leading.kind === 'decided' && leading.choice.why).toMatch(/oracle not asked: the explorer still has moves/);
    // Without the budget the same turn asks.
    const { oracleBudget: _unlimited, ...unlimited } = budgeted;
    expect(deliberate(trusted, unlimited, createRng(1)).kind).toBe('ask');
    // Only moves that open nothing up, or several turns without progress: lost, so asked.
    const spent = { ...trusted, commands: ['jump', 'sing', 'wave'] };
    expect(deliberate(spent, budgeted, createRng(1)).kind).toBe('ask');
    expect(deliberate({ ...trusted, stalledTurns: ORACLE_STALL_TURNS }, budgeted, createRng(1)).kind).toBe('ask');
    // The budget counts the turns asked, and once spent the explorer plays on alone.
    let state = spent;
    const asked = deliberate(state, budgeted, createRng(1));
    state = learn(
      state,
      budgeted,
      decide(state, budgeted, createRng(1), asked, answered({ recommended_action: 'jump' })),
      step('jump'),
      createRng(1),
    );
    expect(state.oracleTurns).toBe(1);
    state = { ...state, commands: ['sing', 'wave', 'dance'], oracleTurns: 2 };
    const over = deliberate(state, budgeted, createRng(1));
    expect(over.kind === 'decided' && over.choice.why).toMatch(/budget of 2 turns is spent/);
  });

  it('a room whose object has no name counts as a place by its number, so walking into one is progress and keeps the oracle budget', () => {
    // Some stories name no room object and print room names from a routine: every location's name is ''.
    const nameless = (id: number): GroundTruthData => ({ ...truth(''), location: { id, name: '' } });
    const budgeted = resolveEpisodeConfig({ game: 'test', policy: 'full', assist: 'valid', oracleBudget: 2 });
    const start = initialState(
      { ...startOf(), truth: nameless(1), options: [], commands: ['north', 'take lamp'] },
      freshLearned(),
      1,
      initialMemory(freshLearned(), budgeted),
    );
    expect(start.places).toEqual(['#1']);
    const always = { ...start.learned.reliability, recommendation: { tried: 1000, helped: 1000 }, thought: { tried: 1000, helped: 1000 } };
    const lost = { ...start, stalledTurns: ORACLE_STALL_TURNS - 1, learned: { ...start.learned, reliability: always } };
    const walked = (from: AgentState, room: number) =>
      learn(
        from,
        budgeted,
        decide(from, budgeted, createRng(1), { kind: 'decided', choice: { command: 'north', reason: 'untried', why: 'test' } }, null),
        step('north', { truth: nameless(room), commands: ['north', 'take lamp'], options: [] }),
        createRng(1),
      );
    // Into a room not seen before: progress, and the explorer, with moves left that open something up, keeps the budget.
    const arrived = walked(lost, 2);
    expect(arrived.places).toEqual(['#1', '#2']);
    expect(arrived.stalledTurns).toBe(0);
    expect(deliberate(arrived, budgeted, createRng(1))).toMatchObject({ kind: 'decided', choice: { reason: 'untried' } });
    // Back into the first room: no progress.
    expect(walked(arrived, 1).stalledTurns).toBe(1);
    // A run begun before the patch counts no nameless room, as it was played: the stall grows and the oracle is asked.
    const before = walked({ ...lost, namesNamelessRooms: false }, 2);
    expect(before.stalledTurns).toBe(ORACLE_STALL_TURNS);
    expect(deliberate(before, budgeted, createRng(1)).kind).toBe('ask');
  });

  it('the full agent asks the oracle only on a turn where the selector would take some answer of it', () => {
    const valid = resolveEpisodeConfig({ game: 'test', policy: 'full', assist: 'valid' });
    const start = initialState(
      { ...startOf(), options: [], commands: ['north', 'take lamp'] },
      freshLearned(),
      1,
      initialMemory(freshLearned(), valid),
    );
    const trusting = (helped: number) => ({
      ...start,
      learned: {
        ...start.learned,
        reliability: { ...start.learned.reliability, recommendation: { tried: 1000, helped }, thought: { tried: 1000, helped } },
      },
    });
    // Advice that has never helped would be passed over whatever it said: the explorer moves without the call.
    const skipped = deliberate(trusting(0), valid, createRng(1));
    expect(skipped).toMatchObject({ kind: 'decided', choice: { reason: 'untried' } });
    expect(skipped.kind === 'decided' && skipped.choice.why).toMatch(/oracle not asked.*help 0% of the time/);
    // A run from before (its state without the flag) asks as it did.
    expect(deliberate({ ...trusting(0), asksOnlyWhenHeeded: false }, valid, createRng(1)).kind).toBe('ask');
    // Advice that always helps is asked for, and the draws made before asking decide whatever rng decide gets.
    const asked = deliberate(trusting(1000), valid, createRng(1));
    expect(asked).toMatchObject({ kind: 'ask', trust: { recommendation: true, other: true } });
    for (const seed of [1, 2, 3])
      expect(decide(trusting(1000), valid, createRng(seed), asked, answered({ recommended_action: 'take lamp' })).reason).toBe(
        'recommended',
      );
  });

  it('under valid, a followed recommendation counts as help only when it reaches a place or item no episode had reached', () => {
    const valid = resolveEpisodeConfig({ game: 'test', policy: 'full', assist: 'valid' });
    const start = { ...startOf(), options: [], commands: ['north', 'take lamp'] };
    const follow = (learned: ReturnType<typeof freshLearned>) => {
      const state = initialState(start, learned, 1, initialMemory(learned, valid));
      const sure = {
        ...state,
        learned: { ...state.learned, reliability: { ...state.learned.reliability, recommendation: { tried: 1000, helped: 1000 } } },
      };
      const asked = deliberate(sure, valid, createRng(1));
      const decision = decide(sure, valid, createRng(1), asked, answered({ recommended_action: 'north' }));
      expect(decision.reason).toBe('recommended');
      return learn(
        sure,
        valid,
        decision,
        step('north', { commands: ['south'], options: [], truth: { ...truth('Kitchen'), location: { id: 2, name: 'Kitchen' } } }),
        createRng(1),
      ).learned.reliability.recommendation;
    };
    expect(follow(freshLearned())).toEqual({ tried: 1001, helped: 1001 }); // the Kitchen, never reached before
    expect(follow({ ...freshLearned(), cells: ['2//0'] })).toEqual({ tried: 1001, helped: 1000 }); // an earlier episode stood there
  });

  it('a known reward is taken without the oracle', () => {
    const d = deliberate(stateOf(startOf([opt('north'), opt('take coin', { scoreDelta: 5 })])), config('full'), createRng(1));
    expect(d).toEqual({ kind: 'decided', choice: { command: 'take coin', reason: 'reward', why: 'the probe shows +5 points' } });
  });

  it('decides from the oracle answer, or plays oracle-free when the oracle is unreachable', () => {
    const state = stateOf();
    const d = deliberate(state, config('full'), createRng(1));
    let sure = state;
    for (let i = 0; i < 30; i++)
      sure = {
        ...sure,
        learned: { ...sure.learned, reliability: { ...sure.learned.reliability, recommendation: { tried: 30, helped: 30 } } },
      };
    const decision = decide(sure, config('full'), createRng(1), d, answered());
    expect(decision).toMatchObject({ command: 'open door', reason: 'recommended', fallback: false, recommendationProbe: true });
    expect(decide(state, config('full'), createRng(1), d, 'unreachable')).toMatchObject({ fallback: true, analysis: null });
    expect(() => decide(state, config('full'), createRng(1), d, null)).toThrow(/no answer/);
  });

  it('learns from the command the engine ran, not the one it was asked to run', () => {
    const state = stateOf();
    const decision = decide(
      state,
      config('full'),
      createRng(1),
      { kind: 'decided', choice: { command: 'north', reason: 'novel', why: 'test' } },
      null,
    );
    const next = learn(state, config('full'), decision, step('go north', { truth: truth('Kitchen', 5) }), createRng(1));
    expect(next.lastCommand).toBe('go north');
    expect(Object.keys(next.learned.dynamics.entries)).toEqual(['h-start|go north']);
    expect(next.learned.rewarding['h-start']).toEqual(['go north']);
    expect(next.tried).toEqual({ 'h-start|go north': 1 });
    expect(next.beliefs.actionHistory).toEqual(['go north']);
    expect(next.lastOutcome).toEqual({ scoreDelta: 5, newState: true, worldChanged: true });
    expect(next.turn).toBe(1);
  });
});

describe('menus', () => {
  it('remembers a command after which the game waited for a key, not the key that left, and tries it after everything else under valid', () => {
    const valid = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'valid' });
    const made = (from: AgentState, command: string, over: Partial<GameState>) =>
      learn(
        from,
        valid,
        decide(from, valid, createRng(1), { kind: 'decided', choice: { command, reason: 'untried', why: 'test' } }, null),
        step(command, { truth: truth('Hall'), options: [], ...over }),
        createRng(1),
      );
    const start = { ...stateOf(), commands: ['hints', 'sing'] };
    const inMenu = made(start, 'hints', { worldHash: 'h-menu', commands: ['q'], waitsForKey: true });
    expect(inMenu.menus).toEqual(['hints']);
    expect(inMenu.waitsForKey).toBe(true);
    const back = made(inMenu, 'q', { worldHash: 'h-back', commands: ['hints', 'sing'] });
    expect(back.menus).toEqual(['hints']);
    expect(back.waitsForKey).toBe(false);
    // Both untried from this new state, both of the same kind: the menu waits until "sing" is made.
    for (let seed = 1; seed <= 10; seed++)
      expect(oracleFreePolicy(policyContextOf(back, valid, createRng(seed)))).toMatchObject({ command: 'sing', reason: 'untried' });
    const sung = { ...back, tried: { ...back.tried, [triedKey('h-back', 'sing')]: 1 } };
    expect(oracleFreePolicy(policyContextOf(sung, valid, createRng(1)))).toMatchObject({
      command: 'hints',
      why: 'not yet tried from this state (only a menu is left)',
    });
    // Everything tried: the random pick leaves the menu out.
    const allTried = { ...sung, tried: { ...sung.tried, [triedKey('h-back', 'hints')]: 1 } };
    for (let seed = 1; seed <= 10; seed++)
      expect(oracleFreePolicy(policyContextOf(allTried, valid, createRng(seed)))).toMatchObject({ command: 'sing', reason: 'random' });
  });
});

describe('memory modules plug into the pipeline', () => {
  /** The stand-in module's activity: the runner only hands it to the workflow, never calls it. */
  const SUMMARISE = 'summarise' as MemoryActivity;
  /** A module that asks its activity for a summary every 2 turns and shows the last one. */
  const summaries = defineMemoryModule<{ text: string; asked: number }, { turn: number }, { summary: string }>({
    name: 'summary',
    schema: z.object({ text: z.string(), asked: z.number() }),
    initial: (inherited) => inherited ?? { text: '', asked: 0 },
    observe: (s) => s,
    activities: [SUMMARISE],
    due: (s, view) => (view.turn > 0 && view.turn % 2 === 0 ? { activity: SUMMARISE, request: { turn: view.turn } } : null),
    apply: (s, result) => ({ text: result.summary, asked: s.asked + 1 }),
    failed: (s) => ({ ...s, text: `${s.text} (stale)` }),
    files: (s) => ({ summary: s }),
    render: (s) => (s.text ? `SO FAR: ${s.text}` : ''),
    describe: (s) => s.text,
  });
  const modules = [...MEMORY_MODULES, summaries];

  it('is due, gets its activity result applied, and is rendered into the context', () => {
    let state: AgentState = initialState(startOf(), freshLearned(), 1, initialMemory(freshLearned(), config('full'), modules));
    const play = (command: string) => {
      const before = state;
      state = learn(
        before,
        config('full'),
        decide(before, config('full'), createRng(1), { kind: 'decided', choice: { command, reason: 'novel', why: 'test' } }, null),
        step(command),
        createRng(1),
        modules,
      );
      return turnView(state, before);
    };
    expect(dueWork(state.memory, play('north'), modules)).toEqual([]);
    const view = play('south');
    const work = dueWork(state.memory, view, modules);
    expect(work).toEqual([{ module: 'summary', activity: SUMMARISE, request: { turn: 2 } }]);
    const applied = applyWork(state.memory, work[0], { summary: 'went north and back' }, view, modules);
    state = { ...state, memory: applied.memory };
    expect(state.memory.summary).toEqual({ text: 'went north and back', asked: 1 });
    expect(applied.files).toEqual({ summary: { text: 'went north and back', asked: 1 } });
    expect(recall(state, modules).map((s) => s.text)).toContain('SO FAR: went north and back');
    // A failed activity keeps the last good state, as the module chooses to mark it.
    expect(workFailed(state.memory, work[0], view, modules).summary).toEqual({ text: 'went north and back (stale)', asked: 1 });
  });

  it('starts from what the previous episode of a campaign left', () => {
    const learned = { ...freshLearned(), memory: { summary: { text: 'old', asked: 3 } } };
    expect(initialMemory(learned, config('full'), modules)).toMatchObject({ summary: { text: 'old', asked: 3 }, map: { rooms: {} } });
  });
});

describe('the carried state', () => {
  it('is trimmed to its byte budget, oldest first, and deterministically', () => {
    let state = stateOf();
    const entries: Record<string, { count: number; rewardSum: number; next: Record<string, number> }> = {};
    for (let i = 0; i < 3000; i++)
      entries[`${String(i).padStart(12, '0')}|open the small wooden door ${i}`] = {
        count: 1,
        rewardSum: 0,
        next: { [String(i + 1).padStart(12, '0')]: 1 },
      };
    state = {
      ...state,
      visited: Array.from({ length: 3000 }, (_, i) => String(i).padStart(12, '0')),
      learned: { ...state.learned, dynamics: { entries } },
    };
    expect(jsonBytes(state)).toBeGreaterThan(MAX_CARRY_BYTES);
    const fitted = fitCarry(state);
    expect(jsonBytes(fitted)).toBeLessThanOrEqual(MAX_CARRY_BYTES);
    expect(fitted.visited[fitted.visited.length - 1]).toBe(state.visited[state.visited.length - 1]);
    expect(fitCarry(state)).toEqual(fitted);
    expect(fitCarry(stateOf())).toEqual(stateOf());
  });

  it('counts bytes as UTF-8', () => {
    expect(jsonBytes('é')).toBe(4);
    expect(jsonBytes({ a: 1 })).toBe(7);
  });
});
