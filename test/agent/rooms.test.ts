/**
 * Go-Explore's return over rooms, called directly: the map the probe draws, the walk to the
 * nearest room left with untried moves, and the turn pipeline keeping both as the episode goes.
 */
import { createRng } from '../../src/agent/rng';
import { refreshedExits, routeToOpen } from '../../src/agent/rooms';
import { knownMove, oracleFreePolicy, PolicyContext, triedKey } from '../../src/agent/policy';
import { initialState } from '../../src/agent/state';
import { decide, deliberate, learn } from '../../src/agent/turn';
import { learnedAfter } from '../../src/agent/records';
import { initialMemory } from '../../src/memory/runner';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { freshLearned } from '../../src/agent/learned';
import type { GameState } from '../../src/schemas/game';
import { opt, roomTruth, validStart } from './fixtures';

/** Hall (1) -- north --> Kitchen (2) -- east --> Pantry (3); Cellar (4) is down from the Hall. */
const EXITS = { 1: { north: 2, down: 4 }, 2: { south: 1, east: 3 }, 3: { west: 2 } };

describe('the room map', () => {
  it('holds the moves the probe says lead to another room, and not those that kill or end the game', () => {
    const options = [
      opt('north', { resultCell: '2//0' }),
      opt('take lamp', { resultCell: '1/9/0' }),
      opt('jump', { resultCell: '5//0', outcome: 'died' }),
      opt('down', { resultCell: '4//0' }),
    ];
    expect(refreshedExits(undefined, 1, options, false)).toEqual({ north: 2, down: 4 });
  });

  it('routes to the nearest open room, first move usable now, and nowhere when none is reachable', () => {
    const all = () => true;
    expect(routeToOpen(EXITS, 3, new Set([1]), all)).toEqual({ command: 'west', steps: 2, to: 1 });
    expect(routeToOpen(EXITS, 3, new Set([1, 2]), all)).toEqual({ command: 'west', steps: 1, to: 2 });
    expect(routeToOpen(EXITS, 1, new Set([1]), all)).toBeNull(); // the room it stands in is not a return
    expect(routeToOpen(EXITS, 3, new Set([1]), (command) => command !== 'west')).toBeNull();
    expect(routeToOpen(EXITS, 3, new Set([9]), all)).toBeNull();
  });
});

const context = (over: Partial<PolicyContext>): PolicyContext => ({
  assist: 'probe',
  options: [],
  commands: [],
  observation: '',
  worldHash: 'h-pantry',
  visited: new Set(['h-pantry', 'h-west', 'h-take jar']),
  cells: { here: '3//0', seen: new Set(['3//0', '2//0', '1//0']), seenBefore: new Set(), deadly: new Set(), visited: new Set() },
  learned: freshLearned(),
  rng: createRng(1),
  tried: {},
  rooms: { here: 3, exits: EXITS, open: new Set([1]) },
  ...over,
});

describe('returning', () => {
  it('walks back toward an open room when every move here is spent', () => {
    const spent = [opt('west', { resultCell: '2//0' }), opt('take jar', { resultCell: '3/7/0' })];
    expect(knownMove(context({ options: spent })).choice).toEqual({
      command: 'west',
      reason: 'return',
      why: 'back to a room with untried moves, 2 steps away',
    });
  });

  it('does not return while something here is still new, or with no open room', () => {
    const fresh = [opt('west', { resultCell: '2//0' }), opt('open jar', { resultCell: '3//0' })];
    expect(oracleFreePolicy(context({ options: fresh }))).toMatchObject({ command: 'open jar', reason: 'novel' });
    const spent = [opt('west', { resultCell: '2//0' })];
    expect(knownMove(context({ options: spent, rooms: { here: 3, exits: EXITS, open: new Set() } })).choice).toBeNull();
  });

  it('steps back out of something (a bed) when what is left to do inside it is spent, whether or not a room is open', () => {
    // In bed (object 8) in the Pantry (room 3): getting up, putting the jar down on the bed, and a
    // way out that leaves the jar behind. The room's own exits are not valid from the bed.
    const inBed = [
      opt('get up', { resultCell: '3/7/0', resultHash: 'h-pantry-standing' }),
      opt('roll out', { resultCell: '3//0', resultHash: 'h-rolled' }),
      opt('put jar on bed', { resultCell: '3@8//0' }),
    ];
    const cells = {
      ...context({}).cells,
      here: '3@8/7/0',
      seen: new Set(['3@8/7/0', '3@8//0', '3/7/0', '3//0']),
      doneHere: new Set(['put jar on bed']),
    };
    const out = { command: 'get up', reason: 'return', why: "out of here, back to where the room's exits are" };
    expect(knownMove(context({ options: inBed, cells })).choice).toEqual(out);
    expect(knownMove(context({ options: inBed, cells, rooms: { here: 3, exits: EXITS, open: new Set() } })).choice).toEqual(out);
    // Standing in the room, the same spent moves are no reason to "get out" of anything.
    expect(
      knownMove(
        context({
          options: [opt('put jar on bed', { resultCell: '3@8//0' })],
          cells: { ...cells, here: '3/7/0' },
          rooms: { here: 3, exits: EXITS, open: new Set() },
        }),
      ).choice,
    ).toBeNull();
  });

  it('gives a return up after a move was retried too often from the same state', () => {
    const spent = [opt('west', { resultCell: '2//0' })];
    expect(knownMove(context({ options: spent, tried: { [triedKey('h-pantry', 'west')]: 6 } })).choice).toBeNull();
  });
});

describe('the turn pipeline keeps the map', () => {
  const truth = roomTruth;
  const config = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free' });

  it('maps each room it stands in, keeps rooms left with untried moves open, and returns to them', () => {
    const hall = [opt('north', { resultCell: '2//0' }), opt('open door', { resultCell: '1//0' })];
    let state = initialState(
      {
        observation: 'A hall.',
        truth: truth(1, 'Hall'),
        worldHash: 'h-start',
        snapshot: 's0',
        options: hall,
        commands: [],
        storyMd5: '0'.repeat(32),
        storyName: 'test',
        maxScore: 10,
      },
      freshLearned(),
      1,
      initialMemory(freshLearned(), config),
    );
    const play = (command: string, next: Partial<GameState>) => {
      const decision = decide(state, config, createRng(1), { kind: 'decided', choice: { command, reason: 'novel', why: 'test' } }, null);
      state = learn(
        state,
        config,
        decision,
        {
          command,
          observation: `You ${command}.`,
          snapshot: 's',
          commands: [],
          truth: truth(1, 'Hall'),
          worldHash: `h-${command}`,
          options: [],
          ...next,
        },
        createRng(1),
      );
    };
    // North into the Kitchen, whose only move leads back: the Hall still has its door to open.
    play('north', { truth: truth(2, 'Kitchen'), options: [opt('south', { resultCell: '1//0', resultHash: 'h-start' })] });
    expect(state.exits).toEqual({ 1: { north: 2 }, 2: { south: 1 } });
    expect(state.open).toEqual([1]);
    const d = deliberate(state, config, createRng(1));
    expect(d).toMatchObject({ kind: 'decided', choice: { command: 'south', reason: 'return' } });
    // Back in the Hall the door gets opened; with it the Hall has nothing new left.
    play('south', {
      truth: truth(1, 'Hall'),
      worldHash: 'h-start',
      options: hall.map((o) => (o.command === 'north' ? { ...o, resultHash: 'h-north' } : o)),
    });
    expect(state.open).toEqual([1]);
    play('open door', { truth: truth(1, 'Hall'), options: [opt('north', { resultCell: '2//0', resultHash: 'h-north' })] });
    expect(state.open).toEqual([]);
    expect(state.exits).toEqual({ 1: { north: 2 }, 2: { south: 1 } });
  });

  const start = (options: GameState['options'], learned = freshLearned()) =>
    initialState(
      {
        observation: 'A hall.',
        truth: truth(1, 'Hall'),
        worldHash: 'h-start',
        snapshot: 's0',
        options,
        commands: [],
        storyMd5: '0'.repeat(32),
        storyName: 'test',
        maxScore: 10,
      },
      learned,
      1,
      initialMemory(learned, config),
    );
  const step = (state: ReturnType<typeof start>, command: string, next: Partial<GameState>) => {
    const decision = decide(state, config, createRng(1), { kind: 'decided', choice: { command, reason: 'novel', why: 'test' } }, null);
    return learn(
      state,
      config,
      decision,
      {
        command,
        observation: `You ${command}.`,
        snapshot: 's',
        commands: [],
        truth: truth(1, 'Hall'),
        worldHash: `h-${command}`,
        options: [],
        ...next,
      },
      createRng(1),
    );
  };

  it('reopens every room after a breakthrough: a change new to the episode in a room it had left spent', () => {
    // Hall and Kitchen lead only to each other; both are left with nothing new to do.
    let state = start([opt('north', { resultCell: '2//0', resultHash: 'h-kitchen' })]);
    state = step(state, 'north', {
      truth: truth(2, 'Kitchen'),
      worldHash: 'h-kitchen',
      options: [opt('south', { resultCell: '1//0', resultHash: 'h-start' })],
    });
    expect(state.spent).toEqual([1]);
    state = step(state, 'south', {
      worldHash: 'h-start',
      options: [opt('north', { resultCell: '2//0', resultHash: 'h-kitchen' }), opt('pull lever', { resultCell: '1//0' })],
    });
    expect(state.spent).toEqual([1, 2]);
    expect(state.open).toEqual([1]); // the lever, seen only now
    expect(state.cells).toEqual(['1//0', '2//0']);
    // Pulling it changes the Hall, which was left spent: the Kitchen is worth a look again.
    state = step(state, 'pull lever', { options: [opt('north', { resultCell: '2//0', resultHash: 'h-kitchen-2' })] });
    expect(state.spent).toEqual([]);
    expect(state.open).toEqual([2, 1]); // the Kitchen again, and the Hall, whose way north is new once more
    expect(state.cells).toEqual(['1//0']);
    expect(deliberate(state, config, createRng(1))).toMatchObject({ kind: 'decided', choice: { command: 'north', reason: 'novel' } });
    expect(state.learned.cells).toEqual(['1//0', '2//0']); // nothing earlier episodes learn is forgotten
  });

  it('drops an exit the probe now shows staying in the room, and no longer walks back by it', () => {
    // In the Hall, "light lamp" once led to the Kitchen (something carried the player off while it ran).
    let state = start([opt('light lamp', { resultCell: '2//0', resultHash: 'h-kitchen' }), opt('north', { resultCell: '2//0' })]);
    expect(state.exits).toEqual({});
    state = step(state, 'take coin', { options: [opt('light lamp', { resultCell: '2//0' }), opt('north', { resultCell: '2//0' })] });
    expect(state.exits[1]).toEqual({ 'light lamp': 2, north: 2 });
    // Now the probe shows it staying in the Hall (the lamp lit, nothing more): it is no way to the Kitchen.
    const now = [opt('light lamp', { resultCell: '1//0', resultHash: 'h-lit' }), opt('north', { resultCell: '2//0' })];
    const after = step(state, 'wait', { worldHash: 'h-wait', options: now });
    expect(after.exits[1]).toEqual({ north: 2 });
    // Runs recorded before the change keep the old map.
    expect(step({ ...state, dropsStaleExits: false }, 'wait', { worldHash: 'h-wait', options: now }).exits[1]).toEqual({
      'light lamp': 2,
      north: 2,
    });
  });

  it('drops an exit the probe no longer shows where another move leaves the room, and keeps them all where none does', () => {
    let state = start([opt('north', { resultCell: '2//0' }), opt('south', { resultCell: '3//0' })]);
    state = step(state, 'take coin', { options: [opt('north', { resultCell: '2//0' }), opt('south', { resultCell: '3//0' })] });
    expect(state.exits[1]).toEqual({ north: 2, south: 3 });
    // The way south has closed: the probe shows only north, so the map keeps only north.
    const closed = step(state, 'wait', { worldHash: 'h-wait', options: [opt('north', { resultCell: '2//0' })] });
    expect(closed.exits[1]).toEqual({ north: 2 });
    // In bed, no move leaves the room: the room's exits are kept for when the player is out.
    const inBed = step(state, 'get in bed', {
      worldHash: 'h-bed',
      options: [opt('get out of bed', { resultCell: '1//0', resultHash: 'h-up' })],
    });
    expect(inBed.exits[1]).toEqual({ north: 2, south: 3 });
    // Runs recorded before the change keep the old map.
    expect(
      step({ ...state, dropsUnshownExits: false }, 'wait', { worldHash: 'h-wait', options: [opt('north', { resultCell: '2//0' })] })
        .exits[1],
    ).toEqual({
      north: 2,
      south: 3,
    });
  });

  it('without the probe (valid), maps the rooms by the moves made and returns to one with going or taking left untried', () => {
    const valid = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'valid' });
    let state = initialState(
      {
        observation: 'A hall.',
        truth: truth(1, 'Hall'),
        worldHash: 'h-hall',
        snapshot: 's0',
        options: [],
        commands: ['north', 'open door'],
        storyMd5: '0'.repeat(32),
        storyName: 'test',
        maxScore: 10,
      },
      freshLearned(),
      1,
      initialMemory(freshLearned(), valid),
    );
    const play = (command: string, next: Partial<GameState>) => {
      const decision = decide(state, valid, createRng(1), { kind: 'decided', choice: { command, reason: 'untried', why: 'test' } }, null);
      state = learn(
        state,
        valid,
        decision,
        {
          command,
          observation: `You ${command}.`,
          snapshot: 's',
          commands: [],
          truth: truth(1, 'Hall'),
          worldHash: `h-${command}`,
          options: [],
          ...next,
        },
        createRng(1),
      );
    };
    play('north', { truth: truth(2, 'Kitchen'), worldHash: 'h-kitchen', commands: ['south', 'east'] });
    expect(state.exits).toEqual({ 1: { north: 2 } });
    expect(state.open).toEqual([1, 2]); // the Hall's door is untried; so is everything in the Kitchen
    play('east', { truth: truth(3, 'Pantry'), worldHash: 'h-pantry', commands: ['west', 'jump', 'drop lamp'] });
    expect(state.exits).toEqual({ 1: { north: 2 }, 2: { east: 3 } });
    expect(state.open).toEqual([1, 2, 3]);
    play('west', { truth: truth(2, 'Kitchen'), worldHash: 'h-kitchen', commands: ['south', 'east'] });
    expect(state.open).toEqual([1, 2]); // the Pantry is left with only risky and undoing moves: not open
    play('south', { truth: truth(1, 'Hall'), worldHash: 'h-hall', commands: ['north', 'open door'] });
    expect(state.exits).toEqual({ 1: { north: 2 }, 2: { east: 3, south: 1 }, 3: { west: 2 } });
    expect(state.open).toEqual([1]);
    // Back in the Pantry with only jumping and dropping left: walk to the Hall's door first.
    state = { ...state, truth: truth(3, 'Pantry'), worldHash: 'h-pantry', commands: ['west', 'jump', 'drop lamp'] };
    expect(deliberate(state, valid, createRng(1))).toMatchObject({
      kind: 'decided',
      choice: { command: 'west', reason: 'return', why: 'back to a room with untried moves, 2 steps away' },
    });
    // With nowhere open, the explorer's order holds here: undoing, and jumping last.
    expect(deliberate({ ...state, open: [] }, valid, createRng(1))).toMatchObject({
      kind: 'decided',
      choice: { command: 'drop lamp', reason: 'untried' },
    });
  });

  it('without the probe, a command made three times in a room is spent there though a clock makes every state new', () => {
    const valid = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'valid' });
    const commands = ['take acorn', 'wave hand', 'jump'];
    let state = validStart({ observation: 'A court yard.', truth: truth(1, 'Court Yard'), worldHash: 'h-0' }, commands, freshLearned());
    // Each reply here is "Done." with nothing seen changed: spending echoes would spend both at
    // their second try (see echoes.test.ts); this is the count's own rule.
    state = { ...state, spendsEchoes: false };
    const chosen: string[] = [];
    for (let turn = 1; turn <= 5; turn++) {
      const decision = decide(state, valid, createRng(turn), deliberate(state, valid, createRng(turn)), null);
      chosen.push(decision.command);
      // Every turn a new world state (the acorns in the bucket, a clock), in the same room.
      state = learn(
        state,
        valid,
        decision,
        {
          command: decision.command,
          observation: 'Done.',
          snapshot: 's',
          commands,
          truth: truth(1, 'Court Yard'),
          worldHash: `h-${turn}`,
          options: [],
        },
        createRng(turn),
      );
    }
    // Taking first (it usually makes progress), three times; then the other move; jumping last.
    expect(chosen).toEqual(['take acorn', 'take acorn', 'take acorn', 'wave hand', 'wave hand']);
    expect(state.made).toEqual({ '1|take acorn': 3, '1|wave hand': 2 });
  });

  it('passes firsts on as the frontier, and drops the earlier ones this episode stood in again', () => {
    const learned = { ...freshLearned(), frontier: ['h-start', 'h-elsewhere'] };
    let state = start([opt('north', { resultCell: '2//0', resultHash: 'h-kitchen' })], learned);
    // The Kitchen is a first: the Hall's state it was found from joins the frontier.
    state = step(state, 'north', {
      truth: truth(2, 'Kitchen'),
      worldHash: 'h-kitchen',
      options: [opt('take knife', { resultCell: '2/7/0' })],
    });
    state = step(state, 'take knife', {
      truth: { ...truth(2, 'Kitchen'), inventory: [{ id: 7, name: 'knife' }] },
      worldHash: 'h-knife',
      options: [],
    });
    expect(state.discovered).toEqual(['h-start', 'h-kitchen']);
    expect(learnedAfter(state).frontier).toEqual(['h-elsewhere', 'h-start', 'h-kitchen']);
  });

  it('remembers the move that killed the player, by room, for the next episode', () => {
    let state = start([]);
    state = step(state, 'jump', { truth: { ...truth(1, 'Hall'), died: true, done: true }, worldHash: 'h-dead' });
    expect(learnedAfter(state).deadlyMoves).toEqual(['1|jump']);
  });

  it("learns a scene move by the probe's hash: the object tree stays put while a question is answered", () => {
    const question = [opt('no', { resultHash: 'h-no-1', scene: true }), opt('yes', { resultHash: 'h-yes-1', scene: true })];
    let state = start(question);
    state = step(state, 'no', { worldHash: 'h-start', options: [opt('no', { resultHash: 'h-no-2', scene: true })] });
    expect(state.worldHash).toBe('h-no-1');
    expect(Object.keys(state.learned.dynamics.entries)).toEqual(['h-start|no']);
    expect(state.learned.dynamics.entries['h-start|no'].next).toEqual({ 'h-no-1': 1 });
  });
});
