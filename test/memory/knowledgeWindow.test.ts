/** Seed 000's turn window: the quality gate branch by branch, the final override, the prompt formatter, and the window built from the engine's turns. */
import type { TurnView } from '../../src/memory';
import { LIMITS } from '../../src/memory/knowledge';
import type { DeathEvent, TurnWindow } from '../../src/memory/knowledge';
import {
  deathMessages,
  emptyWindow,
  extendWindow,
  formatTurnData,
  shouldUpdate,
  shouldUpdateAt,
  truncatedResponse,
} from '../../src/memory/knowledge/window';
import type { GroundTruthData } from '../../src/schemas/game';

type Action = TurnWindow['actions'][number];

const act = (turn: number, action: string, response: string, location = 'Hall'): Action => ({ turn, action, response, location });

/** A window of `actions` with no events unless given. */
const windowOf = (actions: Action[], events: Partial<Omit<TurnWindow, 'actions'>> = {}): TurnWindow => ({
  startTurn: actions[0]?.turn ?? 1,
  endTurn: actions[actions.length - 1]?.turn ?? 1,
  actions,
  deaths: [],
  scoreChanges: [],
  locationChanges: [],
  ...events,
});

/** `n` actions, all the same command with the same short response. */
const same = (n: number, action = 'wait', response = 'Time passes.') => Array.from({ length: n }, (_, i) => act(i + 1, action, response));

/** Distinct commands with distinct, long enough responses: the gate's "varied gameplay". */
const varied = (n: number) =>
  Array.from({ length: n }, (_, i) =>
    act(i + 1, `examine thing${i}`, `Thing number ${i} is an unremarkable object, carved from old grey stone long ago.`),
  );

const death = (over: Partial<DeathEvent> = {}): DeathEvent => ({
  turn: 3,
  reason: 'You have died',
  action: 'north',
  location: 'Cellar',
  messages: ['You are eaten by a grue.', 'You have died'],
  ...over,
});

describe('shouldUpdate (seed 000 _should_update_knowledge)', () => {
  it('skips a window of fewer than 3 actions, even one with a death in it', () => {
    expect(shouldUpdate(windowOf(varied(2)))).toEqual({ update: false, reason: 'Too few actions (< 3)' });
    expect(shouldUpdate(windowOf(same(2), { deaths: [death()] }))).toEqual({ update: false, reason: 'Too few actions (< 3)' });
    expect(shouldUpdate(windowOf([]))).toEqual({ update: false, reason: 'Too few actions (< 3)' });
  });

  it('always processes deaths, however repetitive the actions', () => {
    // The seed's own test: three identical actions and one death.
    expect(shouldUpdate(windowOf(same(3, 'north', ''), { deaths: [death()] }))).toEqual({
      update: true,
      reason: 'Contains 1 death event(s)',
    });
    expect(shouldUpdate(windowOf(same(10), { deaths: [death(), death({ turn: 9 })] })).reason).toBe('Contains 2 death event(s)');
  });

  it('processes score changes, then location changes, before looking at variety', () => {
    const scored = windowOf(same(10), {
      scoreChanges: [
        { turn: 2, from: 0, to: 5 },
        { turn: 4, from: 5, to: 10 },
      ],
    });
    expect(shouldUpdate(scored)).toEqual({ update: true, reason: 'Score changed 2 times' });
    const moved = windowOf(same(10), { locationChanges: [{ turn: 2, from: 'Hall', to: 'Kitchen' }] });
    expect(shouldUpdate(moved)).toEqual({ update: true, reason: 'Discovered 1 new locations' });
    // Deaths come first, then score.
    expect(shouldUpdate({ ...scored, deaths: [death()] }).reason).toBe('Contains 1 death event(s)');
    expect(shouldUpdate({ ...moved, scoreChanges: scored.scoreChanges }).reason).toBe('Score changed 2 times');
  });

  it('skips a window with under 30% unique actions, saying how varied it was', () => {
    const actions = [...same(8), act(9, 'look', 'A long hall with a dusty floor.'), act(10, 'inventory', 'You are empty-handed.')];
    // 2 unique of 10 (wait ×8 is one).
    expect(shouldUpdate(windowOf([...same(8), act(9, 'look', 'A long hall.')]))).toEqual({
      update: false,
      reason: 'Too repetitive (22.2% unique actions)',
    });
    // 3 unique of 10 is exactly 30%: not too repetitive, so the next check decides.
    expect(shouldUpdate(windowOf(actions)).reason).not.toMatch(/repetitive/);
  });

  it('skips a window whose responses all start with the same 50 characters', () => {
    const prefix = 'You cannot go that way; the walls here are solid. ';
    expect(prefix).toHaveLength(50);
    const actions = ['north', 'south', 'east', 'west'].map((dir, i) => act(i + 1, dir, `${prefix}(tried ${dir})`));
    expect(shouldUpdate(windowOf(actions))).toEqual({ update: false, reason: 'No new information in responses' });
    // One response that differs within its first 50 characters is new information.
    actions[3] = act(4, 'west', `The door to the west is locked and will not budge at all, whatever you do.`);
    expect(shouldUpdate(windowOf(actions)).reason).not.toBe('No new information in responses');
  });

  it('skips a window whose responses total under 100 characters', () => {
    const short = [act(1, 'north', 'Blocked.'), act(2, 'south', 'Nothing.'), act(3, 'east', 'Dark.')];
    expect(shouldUpdate(windowOf(short))).toEqual({ update: false, reason: 'Responses too short/uninformative' });
    // Exactly 100 characters is enough.
    const hundred = [act(1, 'north', 'a'.repeat(40)), act(2, 'south', 'b'.repeat(30)), act(3, 'east', 'c'.repeat(30))];
    expect(shouldUpdate(windowOf(hundred))).toEqual({ update: true, reason: 'Varied gameplay (3 unique actions)' });
  });

  it('processes varied gameplay, counting its unique actions', () => {
    expect(shouldUpdate(windowOf(varied(4)))).toEqual({ update: true, reason: 'Varied gameplay (4 unique actions)' });
    expect(shouldUpdate(windowOf([...varied(4), ...varied(2).map((a) => ({ ...a, turn: a.turn + 4 }))])).reason).toBe(
      'Varied gameplay (4 unique actions)',
    );
  });
});

describe('shouldUpdateAt (the end-of-episode override)', () => {
  it('processes a final window with a death or 5+ actions that the gate would skip', () => {
    expect(shouldUpdateAt(windowOf(same(2), { deaths: [death()] }), true)).toEqual({
      update: true,
      reason: 'Final update with significant content',
    });
    expect(shouldUpdateAt(windowOf(same(5)), true)).toEqual({ update: true, reason: 'Final update with significant content' });
  });

  it('does not override a final window with neither, nor any window that is not final', () => {
    expect(shouldUpdateAt(windowOf(same(4)), true)).toEqual({ update: false, reason: 'Too repetitive (25.0% unique actions)' });
    expect(shouldUpdateAt(windowOf(same(2)), true)).toEqual({ update: false, reason: 'Too few actions (< 3)' });
    expect(shouldUpdateAt(windowOf(same(5)), false)).toEqual({ update: false, reason: 'Too repetitive (20.0% unique actions)' });
    expect(shouldUpdateAt(windowOf(same(2), { deaths: [death()] }), false).update).toBe(false);
  });

  it('keeps the gate reason when the gate already passes a final window', () => {
    expect(shouldUpdateAt(windowOf(varied(6)), true)).toEqual({ update: true, reason: 'Varied gameplay (6 unique actions)' });
  });
});

describe('formatTurnData (seed 000 _format_turn_data_for_prompt)', () => {
  it('truncates a response over 300 characters to its first 250 plus a marker, and keeps one of 300 whole', () => {
    const long = 'a'.repeat(250) + 'b'.repeat(250);
    const text = formatTurnData(
      windowOf([act(1, 'look', long), act(2, 'read sign', 'c'.repeat(300)), act(3, 'read book', 'd'.repeat(301))]),
      'zork #1',
    );
    expect(text).toContain(`Turn 1: look\nResponse: ${'a'.repeat(250)}... [truncated]\n`);
    expect(text).not.toContain('ab');
    expect(text).not.toMatch(/bb/);
    expect(text).toContain(`Response: ${'c'.repeat(300)}\n`);
    expect(text).toContain(`Response: ${'d'.repeat(250)}... [truncated]`);
    expect(text).not.toContain('d'.repeat(251));
    // The seed's test: one 500-character response formats to well under 1000 characters.
    expect(formatTurnData(windowOf([act(1, 'look', 'A'.repeat(500))]), 'e').length).toBeLessThan(1000);
  });

  it('writes the header, the log and the events: deaths with action, location and messages, score and location changes', () => {
    const w = windowOf(
      [act(7, 'north', 'You walk north.', 'Kitchen'), act(8, 'down', 'It is dark.', 'Cellar'), act(9, 'east', 'You have died.', 'Forest')],
      {
        deaths: [death({ turn: 9, reason: 'eaten by a grue', action: 'east', location: 'Cellar' })],
        scoreChanges: [{ turn: 8, from: 0, to: 25 }],
        locationChanges: [
          { turn: 7, from: 'Hall', to: 'Kitchen' },
          { turn: 8, from: 'Kitchen', to: 'Cellar' },
        ],
      },
    );
    const lines = formatTurnData(w, 'zork1 #2').split('\n');
    expect(lines.slice(0, 5)).toEqual(['EPISODE: zork1 #2', 'TURNS: 7-9', 'TOTAL ACTIONS: 3', '', 'GAMEPLAY LOG:']);
    expect(lines).toEqual(expect.arrayContaining(['Turn 8: down', 'Response: It is dark.']));
    const events = lines.slice(lines.indexOf('EVENTS:'));
    expect(events).toEqual([
      'EVENTS:',
      'Deaths: 1',
      '  - Turn 9: eaten by a grue',
      '    Fatal action: east',
      '    Location: Cellar',
      '    Messages: You are eaten by a grue., You have died',
      '',
      'Score Changes: 1',
      '  - Turn 8: 0 → 25',
      '',
      'Location Changes: 2',
      '  - Turn 7: Hall → Kitchen',
      '  - Turn 8: Kitchen → Cellar',
    ]);
  });

  it('says there were no deaths, and "Unknown" for a death without action or location', () => {
    expect(
      formatTurnData(windowOf(varied(3)), 'e')
        .split('\n')
        .slice(-2),
    ).toEqual(['EVENTS:', 'Deaths: None']);
    const text = formatTurnData(windowOf(varied(3), { deaths: [death({ action: '', location: '', messages: [] })] }), 'e');
    expect(text).toContain('    Fatal action: Unknown\n    Location: Unknown');
    expect(text).not.toContain('Messages:');
  });

  it('keeps only the most recent maxActions actions, but every event', () => {
    const w = windowOf(varied(5), { deaths: [death({ turn: 1 })], scoreChanges: [{ turn: 2, from: 0, to: 5 }] });
    const text = formatTurnData(w, 'e', 2);
    expect(text).toContain('TOTAL ACTIONS: 5');
    expect(text).toContain('(the 3 earliest actions left out)');
    expect(text.match(/^Turn \d+:/gm)).toEqual(['Turn 4:', 'Turn 5:']);
    expect(text).toContain('  - Turn 1: You have died');
    expect(text).toContain('  - Turn 2: 0 → 5');
    expect(formatTurnData(w, 'e')).not.toContain('left out');
  });
});

// ── the window built from the engine's turns ──────────────────────────────────────────────

const truth = (room: string, score = 0, died = false): GroundTruthData => ({
  score,
  moves: 0,
  location: { id: 1, name: room },
  inventory: [],
  done: died,
  victory: false,
  died,
});

const view = (
  turn: number,
  command: string | null,
  before: GroundTruthData | null,
  now: GroundTruthData,
  observation = `You are in ${now.location.name}.`,
): TurnView => ({
  turn,
  command,
  before,
  truth: now,
  observation,
  worldHash: `h${turn}`,
  snapshot: `s${turn}`,
  storyMd5: '0'.repeat(32),
  goal: 'unknown',
  ending: false,
});

describe('extendWindow', () => {
  it('records actions, and score, location and death events, from consecutive turns', () => {
    const hall = truth('Hall');
    const kitchen = truth('Kitchen');
    const scored = truth('Kitchen', 10);
    const dead = truth('Forest', 10, true);
    let w = emptyWindow(1);
    w = extendWindow(w, view(0, null, null, hall));
    expect(w).toEqual(emptyWindow(1));
    w = extendWindow(w, view(1, 'north', hall, kitchen));
    w = extendWindow(w, view(2, 'take coin', kitchen, scored, 'Taken.'));
    w = extendWindow(
      w,
      view(3, 'down', scored, dead, 'Oh no! You fell into the pit and died.\n\n****  You have died  ****\n\nYou are in a forest.'),
    );
    w = extendWindow(w, view(4, 'look', dead, dead, 'Forest. You are still dead.'));
    expect(w.startTurn).toBe(1);
    expect(w.endTurn).toBe(4);
    expect(w.actions.map((a) => [a.turn, a.action, a.location])).toEqual([
      [1, 'north', 'Kitchen'],
      [2, 'take coin', 'Kitchen'],
      [3, 'down', 'Forest'],
      [4, 'look', 'Forest'],
    ]);
    expect(w.locationChanges).toEqual([
      { turn: 1, from: 'Hall', to: 'Kitchen' },
      { turn: 3, from: 'Kitchen', to: 'Forest' },
    ]);
    expect(w.scoreChanges).toEqual([{ turn: 2, from: 0, to: 10 }]);
    // One death: turn 4 was already dead before it. The death happened where the fatal action was taken.
    expect(w.deaths).toEqual([
      {
        turn: 3,
        reason: 'You fell into the pit and died.',
        action: 'down',
        location: 'Kitchen',
        messages: ['You fell into the pit and died.', 'You have died'],
      },
    ]);
  });

  it('starts at the first action after an empty window, replaces a turn seen twice, and bounds responses and actions', () => {
    const hall = truth('Hall');
    let w = extendWindow(emptyWindow(11), view(12, 'wait', hall, hall));
    expect(w.startTurn).toBe(12);
    w = extendWindow(w, view(12, 'wait', hall, hall, 'x'.repeat(1000)));
    expect(w.actions).toHaveLength(1);
    expect(w.actions[0].response).toBe('x'.repeat(LIMITS.windowResponse));
    // Kept one past the formatter's 300, so its truncation still applies to what is kept.
    expect(truncatedResponse(w.actions[0].response)).toBe(`${'x'.repeat(250)}... [truncated]`);
    for (let t = 13; t < 80; t++) w = extendWindow(w, view(t, `cmd ${t}`, hall, hall));
    expect(w.actions).toHaveLength(LIMITS.windowActions);
    expect(w.actions[0].turn).toBe(80 - LIMITS.windowActions);
    expect(w.actions[LIMITS.windowActions - 1].turn).toBe(79);
  });
});

describe('deathMessages', () => {
  it("keeps the sentences of the game's death text that say what happened, without the asterisks", () => {
    const zork =
      "It is pitch black. You are likely to be eaten by a grue.\n\n****  You have died  ****\n\nNow, let's take a look here... Well, you probably deserve another chance.";
    expect(deathMessages(zork)).toEqual(['You are likely to be eaten by a grue.', 'You have died']);
  });

  it('keeps at most four messages of at most 160 characters, and none from a text without death words', () => {
    const many = Array.from({ length: 6 }, (_, i) => `Death number ${i} came ${'slowly '.repeat(40)}.`).join(' ');
    const messages = deathMessages(many);
    expect(messages).toHaveLength(4);
    expect(messages.every((m) => m.length <= 160 && m.startsWith('Death number'))).toBe(true);
    expect(deathMessages('You are in a forest. Birds sing.')).toEqual([]);
  });
});
