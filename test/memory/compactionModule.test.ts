/** The compaction module's own rules: when it is due, what it asks, how a result and a failure land. */
import { compactionModule, CompactionState } from '../../src/memory/compaction';
import type { TurnView } from '../../src/memory';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import type { GroundTruthData } from '../../src/schemas/game';

const truth = (room: string, score = 0, inventory: string[] = []): GroundTruthData => ({
  score,
  moves: 0,
  location: { id: 1, name: room },
  inventory: inventory.map((name, i) => ({ id: 100 + i, name })),
  done: false,
  victory: false,
  died: false,
});

const config = (over = {}) => resolveEpisodeConfig({ game: 'test', policy: 'full', ...over });

/** Plays `rooms` as consecutive turns, one room per turn, from a start room 'Hall'. */
function play(state: CompactionState, rooms: string[], first = 1, score = 0): { state: CompactionState; view: TurnView } {
  let previous = truth('Hall', score);
  let view: TurnView = {
    turn: 0,
    command: null,
    before: null,
    truth: previous,
    observation: '',
    worldHash: 'h',
    snapshot: 's',
    storyMd5: '0'.repeat(32),
    goal: 'unknown',
    ending: false,
  };
  rooms.forEach((room, i) => {
    const now = truth(room, score);
    view = {
      turn: first + i,
      command: `go ${room}`,
      before: previous,
      truth: now,
      observation: `You are in ${room}.`,
      worldHash: `h${i}`,
      snapshot: 's',
      storyMd5: '0'.repeat(32),
      goal: 'unknown',
      ending: false,
    };
    state = compactionModule.observe(state, view);
    previous = now;
  });
  return { state, view };
}

describe('the compaction module', () => {
  it('is idle for a policy without an LLM or with compactEvery 0', () => {
    for (const c of [config({ policy: 'oracle-free' }), config({ compactEvery: 0 })]) {
      const { state, view } = play(compactionModule.initial(undefined, c), ['Hall', 'Hall', 'Hall', 'Hall', 'Hall', 'Hall']);
      expect(compactionModule.due(state, view)).toBeNull();
      expect(compactionModule.render(state, view, 450)).toBe('');
      expect(state.pending).toEqual([]);
    }
  });

  it('is due every N turns with the turns since the last compaction, and a result clears them', () => {
    let { state, view } = play(compactionModule.initial(undefined, config()), ['Hall', 'Kitchen', 'Hall', 'Kitchen']);
    expect(compactionModule.due(state, view)).toBeNull();
    ({ state, view } = play(state, ['Attic'], 5));
    const work = compactionModule.due(state, view)!;
    expect(work.activity).toBe('compact');
    const request = work.request;
    expect(request.turns.map((t) => t.turn)).toEqual([1, 2, 3, 4, 5]);
    expect(request.facts).toMatchObject({ turn: 5, location: 'Attic' });
    const result = {
      calls: [
        { tool: 'update_location', arguments: { name: 'Attic', description: 'dusty', exits: [], features: [] } },
        { tool: 'record_scene', arguments: { from_turn: 77, to_turn: 99, summary: 'went up', outcome: '', narrative: '' } },
        { tool: 'update_item', arguments: { name: 'lamp', where_kind: 'carried', where: '', state: [] } },
      ],
      invalid: [{ tool: 'update_quest', error: 'status: Invalid option' }],
      usage: { calls: 1, promptTokens: 10, completionTokens: 10 },
    };
    const applied = compactionModule.apply(state, result, view, work);
    expect(applied.pending).toEqual([]);
    // The scene covers the turns read, whatever turn numbers the model wrote.
    expect(applied.model.scenes.map((s) => [s.from, s.to])).toEqual([[1, 5]]);
    // The engine says nothing is carried: the lamp claim is rejected.
    expect(applied.stats).toMatchObject({ compactions: 1, lastCompactedTurn: 5, rejectedUpdates: 1, invalidCalls: 1, calls: 4 });
    expect(compactionModule.apply(state, result, view, work).model).toEqual(applied.model);
    expect(compactionModule.due(applied, view)).toBeNull();
  });

  it('with the smart trigger, a new room or a score change makes it due early', () => {
    const smart = compactionModule.initial(undefined, config({ compactSmart: true }));
    const { state, view } = play(smart, ['Kitchen']);
    expect(compactionModule.due(state, view)?.request.turns).toHaveLength(1);
    const plain = play(compactionModule.initial(undefined, config()), ['Kitchen']);
    expect(compactionModule.due(plain.state, plain.view)).toBeNull();
  });

  it('after a failure keeps its model and pending turns, and waits N turns before trying again', () => {
    let { state, view } = play(compactionModule.initial(undefined, config()), ['Hall', 'Hall', 'Hall', 'Hall', 'Hall']);
    state = compactionModule.failed!(state, view, compactionModule.due(state, { ...view, ending: true })!);
    expect(state.stats.failures).toBe(1);
    expect(state.pending).toHaveLength(5);
    ({ state, view } = play(state, ['Hall'], 6));
    expect(compactionModule.due(state, view)).toBeNull();
    ({ state, view } = play(state, ['Hall', 'Hall', 'Hall', 'Hall'], 7));
    expect(compactionModule.due(state, view)?.request.turns).toHaveLength(10);
    // The episode's end is always a last chance.
    expect(
      compactionModule.due(compactionModule.failed!(state, view, compactionModule.due(state, { ...view, ending: true })!), {
        ...view,
        ending: true,
      }),
    ).not.toBeNull();
  });

  it('keeps a bounded number of raw turns when compactions keep failing', () => {
    const { state } = play(
      compactionModule.initial(undefined, config()),
      Array.from({ length: 50 }, () => 'Hall'),
    );
    expect(state.pending).toHaveLength(20);
    expect(state.stats.droppedTurns).toBe(30);
  });

  it('renders the model and the raw turns not yet compacted within its budget, and carries the model to the next episode', () => {
    const { state, view } = play(compactionModule.initial(undefined, config()), ['Kitchen', 'Attic']);
    const text = compactionModule.render(state, view, 120);
    expect(text.length).toBeLessThanOrEqual(120 * 4 + 40);
    expect(text).toMatch(/NOT YET COMPACTED:\n\[1\] > go Kitchen/);
    const next = compactionModule.initial(state, config());
    expect(next.model).toEqual(state.model);
    expect(next.pending).toEqual([]);
    expect(next.stats.compactions).toBe(0);
  });
});
