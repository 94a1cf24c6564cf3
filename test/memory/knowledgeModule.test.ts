/** The knowledge module through its interface: the gate in prepare, the work it asks for, how results and failures land, its files and its context. */
import type { ModuleWork, TurnView } from '../../src/memory';
import {
  knowledgeModule,
  KnowledgeState,
  UpdateResult,
  VerifyResult,
  WisdomResult,
  ItemAnswer,
  updateAt,
} from '../../src/memory/knowledge';
import { knowledgeBytes } from '../../src/memory/knowledge/layers';
import { emptyWindow } from '../../src/memory/knowledge/window';
import { applyVerdicts } from '../../src/memory/knowledge/verify';
import { EpisodeOptions, resolveEpisodeConfig } from '../../src/schemas/episode';
import type { GroundTruthData } from '../../src/schemas/game';

const MD5 = 'a'.repeat(32);
const m = knowledgeModule;

const truth = (room: string, score = 0, died = false): GroundTruthData => ({
  score,
  moves: 0,
  location: { id: 1, name: room },
  inventory: [],
  done: died,
  victory: false,
  died,
});

const config = (over: Partial<EpisodeOptions> = {}) => resolveEpisodeConfig({ game: 'zork1', policy: 'full', knowledgeEvery: 5, ...over });

/** A game in progress: the module's state and the view of the last turn. */
interface Game {
  state: KnowledgeState;
  view: TurnView;
}

function start(c = config(), inherited?: KnowledgeState, room = 'West of House'): Game {
  const view: TurnView = {
    turn: 0,
    command: null,
    before: null,
    truth: truth(room),
    observation: room,
    worldHash: 'h0',
    snapshot: 'snap:0',
    storyMd5: MD5,
    goal: 'unknown',
    ending: false,
  };
  return { state: m.observe(m.initial(inherited, c), view), view };
}

/** One turn: `command` leaves the player in `room` (the snapshot is named after the turn). */
function step(
  g: Game,
  command: string,
  room: string,
  observation = `You are in ${room}.`,
  over: { score?: number; died?: boolean } = {},
): Game {
  const turn = g.view.turn + 1;
  const view: TurnView = {
    ...g.view,
    turn,
    command,
    before: g.view.truth,
    truth: truth(room, over.score ?? g.view.truth.score, over.died ?? false),
    observation,
    worldHash: `h${turn}`,
    snapshot: `snap:${turn}`,
  };
  return { state: m.observe(g.state, view), view };
}

const play = (g: Game, turns: Array<[string, string, string?]>) =>
  turns.reduce((acc, [command, room, observation]) => step(acc, command, room, observation), g);

/** The workflow's maintenance: the gate runs first, then `due` is asked. */
const prepared = (g: Game, ending = false): Game => {
  const view = { ...g.view, ending };
  return { state: m.prepare!(g.state, view), view };
};

/** Zork's opening, five turns from West of House to the Living Room: four new locations, with the game's own words. */
const ROUTE: Array<[string, string, string]> = [
  ['north', 'North of House', 'You are facing the north side of a white house. There is no door here, and all the windows are boarded up.'],
  ['east', 'Behind House', 'You are behind the white house. In one corner of the house there is a small window which is slightly ajar.'],
  ['open window', 'Behind House', 'With great effort, you open the window far enough to allow entry.'],
  [
    'enter house',
    'Kitchen',
    'You are in the kitchen of the white house. On the table is an elongated brown sack, smelling of hot peppers.',
  ],
  [
    'west',
    'Living Room',
    'You are in the living room. There is a wooden door with strange gothic lettering to the west, and a large oriental rug in the center of the room.',
  ],
];

const answer = (over: Partial<ItemAnswer>): ItemAnswer => ({
  layer: 'IMPL',
  text: 'x',
  confidence: 0.9,
  keywords: [],
  room: '',
  verify_commands: [],
  verify_expect: '',
  replaces: '',
  ...over,
});

const TRAP_DOOR = answer({
  text: 'The trap door is under the rug',
  confidence: 0.6,
  keywords: ['rug', 'trap door'],
  room: 'Living Room',
  verify_commands: ['move rug'],
  verify_expect: 'trap door',
});
const SACK = answer({
  text: 'The brown sack on the table holds garlic',
  confidence: 0.3,
  keywords: ['sack'],
  room: 'Kitchen',
  verify_commands: ['open sack'],
  verify_expect: 'garlic',
});
const WINDOW = answer({ text: 'The small window behind the house opens', confidence: 0.95, room: 'Behind House' });
const LIGHT = answer({ layer: 'PRINCIPLE', text: 'Dark places kill without a light', keywords: ['dark', 'lamp', 'house'] });
const OPEN = answer({ layer: 'INTERFACE', text: 'Open X works on windows and containers', keywords: ['open'] });
const READ = answer({ layer: 'META', text: 'Reading lettering and signs gives hints', keywords: ['read'] });

const updateResult = (items: ItemAnswer[], seconds = 2.5): UpdateResult => ({
  answer: { items },
  usage: { calls: 1, promptTokens: 900, completionTokens: 300 },
  seconds,
});
const wisdomResult = (texts: string[]): WisdomResult => ({
  answer: { insights: texts.map((text, i) => ({ layer: i % 2 ? 'META' : 'PRINCIPLE', text, keywords: [] })) },
  usage: { calls: 1, promptTokens: 500, completionTokens: 100 },
  seconds: 1,
});

/** The due work, which must exist and be of `activity`. */
function work(g: Game, activity: string): ModuleWork<unknown> {
  const w = m.due(g.state, g.view);
  expect(w?.activity).toBe(activity);
  return w!;
}

/** The route played, the gate passed, and the update applied with `items`. */
function updated(items: ItemAnswer[] = [TRAP_DOOR, WINDOW, LIGHT], c = config()): Game {
  const g = prepared(play(start(c), ROUTE));
  return { ...g, state: m.apply(g.state, updateResult(items), g.view, work(g, 'updateKnowledge')) };
}

describe('the knowledge module', () => {
  it('is idle for a policy without an LLM or with knowledgeEvery 0', () => {
    for (const c of [config({ policy: 'oracle-free' }), config({ knowledgeEvery: 0 })]) {
      const g = prepared(play(start(c), [...ROUTE, ...ROUTE]), true);
      expect(g.state.settings.every).toBe(0);
      expect(g.state.window.actions).toEqual([]);
      expect(g.state.updates).toEqual([]);
      expect(m.due(g.state, g.view)).toBeNull();
      expect(m.files!(g.state)).toEqual({});
      expect(m.render(g.state, g.view, 200)).toBe('');
    }
  });

  it('waits for `every` turns, then records a window the gate skips, with its reason, and clears it', () => {
    let g = play(
      start(),
      Array.from({ length: 4 }, (): [string, string] => ['wait', 'West of House']),
    );
    expect(prepared(g).state).toBe(g.state);
    g = prepared(step(g, 'wait', 'West of House', 'Time passes.'));
    expect(g.state.updates).toEqual([
      {
        turn: 5,
        seconds: 0,
        turnsProcessed: 5,
        size: 0,
        calls: 0,
        skipped: true,
        reason: 'Too repetitive (20.0% unique actions)',
        added: 0,
        merged: 0,
        ignored: 0,
        compressed: 0,
      },
    ]);
    expect(updateAt(g.state, 5)).toEqual(g.state.updates[0]);
    expect(g.state.window).toEqual(emptyWindow(6));
    expect(g.state.pending).toBeNull();
    expect(g.state.stats).toMatchObject({ skipped: 1, updates: 0, calls: 0 });
    expect(m.due(g.state, g.view)).toBeNull();
    // The next window starts at the next action and is decided `every` turns later.
    g = play(g, ROUTE.slice(0, 4));
    expect(g.state.window.startTurn).toBe(6);
    expect(prepared(g).state.updates).toHaveLength(1);
    expect(prepared(step(g, 'west', 'Living Room')).state.pending).toEqual({ reason: 'Discovered 4 new locations', final: false });
  });

  it('makes a window the gate accepts due as one updateKnowledge call with the window and the existing items', () => {
    const g = prepared(play(start(), ROUTE));
    expect(g.state.pending).toEqual({ reason: 'Discovered 4 new locations', final: false });
    expect(work(g, 'updateKnowledge').request).toEqual({
      game: 'zork1',
      episode: 0,
      window: g.state.window,
      existing: [],
      wisdom: [],
      final: false,
      seed: 5,
    });
    expect(g.state.window.actions.map((a) => a.action)).toEqual(ROUTE.map(([c]) => c));
    // The pending update stays due (a retry asks for the same work) and the gate does not run again.
    expect(prepared(g).state).toBe(g.state);

    const after = updated();
    const next = prepared(
      play(after, [
        ['move rug', 'Living Room'],
        ['open trap door', 'Living Room'],
        ['east', 'Kitchen'],
        ['west', 'Living Room'],
        ['east', 'Kitchen'],
      ]),
    );
    const request = work(next, 'updateKnowledge').request as { existing: unknown; window: { startTurn: number } };
    expect(request.existing).toEqual(after.state.items);
    expect(request.window.startTurn).toBe(6);
  });

  it('merges an update, records seed 000 metrics, and clears the window', () => {
    const g = prepared(play(start(), ROUTE));
    const w = work(g, 'updateKnowledge');
    const state = m.apply(g.state, updateResult([TRAP_DOOR, WINDOW, LIGHT]), g.view, w);
    expect(state.items.map((i) => [i.id, i.layer, i.text, i.room])).toEqual([
      ['k1', 'IMPL', 'The trap door is under the rug', 'Living Room'],
      ['k2', 'IMPL', 'The small window behind the house opens', 'Behind House'],
      ['k3', 'PRINCIPLE', 'Dark places kill without a light', null],
    ]);
    expect(state.updates).toEqual([
      {
        turn: 5,
        seconds: 2.5,
        turnsProcessed: 5,
        size: knowledgeBytes(state.items),
        calls: 1,
        skipped: false,
        reason: 'Discovered 4 new locations',
        added: 3,
        merged: 0,
        ignored: 0,
        compressed: 0,
      },
    ]);
    expect(state.stats).toMatchObject({ updates: 1, skipped: 0, failures: 0, calls: 1, promptTokens: 900, completionTokens: 300 });
    expect(state.window).toEqual(emptyWindow(6));
    expect(state.pending).toBeNull();
    expect(state.nextId).toBe(4);
    // Applying the same result to the same state again gives the same state.
    expect(m.apply(g.state, updateResult([TRAP_DOOR, WINDOW, LIGHT]), g.view, w)).toEqual(state);
  });

  it('compresses an update to the size limit and counts what it removed', () => {
    // Eight unrelated facts (no shared words, so none merges with another), about 230 characters each, each naming the sack the turns showed.
    const word = (i: number, j: number) => `q${String.fromCharCode(97 + i)}${String.fromCharCode(97 + j)}zz`;
    const many = Array.from({ length: 8 }, (_, i) =>
      answer({
        text: Array.from({ length: 38 }, (__, j) => word(i, j % 26) + (j >= 26 ? 'y' : '')).join(' '),
        keywords: ['sack'],
        confidence: 0.5 + i * 0.05,
      }),
    );
    const g = updated([READ, ...many], config({ knowledgeKb: 1 }));
    const last = g.state.updates[0];
    expect(last.size).toBeLessThanOrEqual(1024);
    expect(last.size).toBe(knowledgeBytes(g.state.items));
    expect(last.added).toBe(9);
    expect(last.compressed).toBe(9 - g.state.items.length);
    expect(last.compressed).toBeGreaterThan(0);
    expect(g.state.items.map((i) => i.layer)).toContain('META');
  });

  it('after an update, asks the engine to check unsure IMPL facts of rooms it has a snapshot of', () => {
    const g = updated([TRAP_DOOR, WINDOW, LIGHT, SACK]);
    const w = work(g, 'verifyKnowledge');
    // Least confident first; each from the snapshot of its room's first visit. The confident window fact is not checked.
    expect(w.request).toEqual({
      game: 'zork1',
      storyMd5: MD5,
      checks: [
        { id: 'k4', snapshot: 'snap:4', verification: { commands: ['open sack'], expect: 'garlic' } },
        { id: 'k1', snapshot: 'snap:5', verification: { commands: ['move rug'], expect: 'trap door' } },
      ],
    });
  });

  it('marks a passed fact engine-verified and halves the confidence of a failed one', () => {
    const g = updated([TRAP_DOOR, WINDOW, LIGHT, SACK]);
    const result: VerifyResult = {
      results: [
        {
          id: 'k1',
          passed: true,
          response: 'With a great effort, the rug is moved to one side of the room, revealing the dusty cover of a closed trap door.',
        },
        { id: 'k4', passed: false, response: "You can't see any sack here!" },
      ],
    };
    const state = m.apply(g.state, result, g.view, work(g, 'verifyKnowledge'));
    const byId = Object.fromEntries(state.items.map((i) => [i.id, i]));
    expect(byId.k1).toMatchObject({ source: 'engine-verified', confidence: 0.8, lastSeenTrue: 5, lastVerifiedTurn: 5 });
    expect(byId.k4).toMatchObject({ source: 'observation', confidence: 0.15, lastVerifiedTurn: 5 });
    expect(byId.k2).toEqual(g.state.items[1]);
    expect(state.stats).toMatchObject({ verified: 1, refuted: 1 });
    // Checked facts are not checked again this turn, nor before `verifyAfter` (20) turns have passed.
    expect(m.due(state, g.view)).toBeNull();
    expect(m.due(state, { ...g.view, turn: 24 })).toBeNull();
    expect((m.due(state, { ...g.view, turn: 25 })?.request as { checks: Array<{ id: string }> }).checks.map((c) => c.id)).toEqual([
      'k4',
      'k1',
    ]);
  });

  it('applyVerdicts: passed raises to at least 0.8 and keeps a higher confidence, failed multiplies by 0.5, others untouched', () => {
    const g = updated([TRAP_DOOR, WINDOW, LIGHT, SACK]);
    const out = applyVerdicts(
      g.state.items,
      {
        results: [
          { id: 'k2', passed: true, response: '' },
          { id: 'k1', passed: false, response: '' },
        ],
      },
      9,
    );
    expect(out).toMatchObject({ verified: 1, refuted: 1 });
    expect(out.items.map((i) => [i.id, i.confidence, i.source, i.lastVerifiedTurn])).toEqual([
      ['k1', 0.3, 'observation', 9],
      ['k2', 0.95, 'engine-verified', 9],
      ['k3', 0.9, 'observation', null],
      ['k4', 0.3, 'observation', null],
    ]);
  });

  it('a failed check is not asked for again this turn', () => {
    const g = updated([TRAP_DOOR, SACK]);
    const state = m.failed!(g.state, g.view, work(g, 'verifyKnowledge'));
    expect(state.items.map((i) => i.confidence)).toEqual(g.state.items.map((i) => i.confidence));
    expect(state.items.map((i) => i.lastVerifiedTurn)).toEqual([5, 5]);
    expect(state.stats.failures).toBe(1);
    expect(m.due(state, g.view)).toBeNull();
  });

  it('at the end: the final override, then checks, then the wisdom synthesis once', () => {
    let g = play(
      updated([WINDOW, LIGHT]),
      Array.from({ length: 5 }, (): [string, string, string] => [
        'wait',
        'Living Room',
        'Time passes. A large oriental rug lies in the center of the room.',
      ]),
    );
    expect(prepared(g).state.pending).toBeNull();
    expect(m.due(g.state, g.view)).toBeNull();
    g = prepared(g, true);
    expect(g.state.pending).toEqual({ reason: 'Final update with significant content', final: true });
    let w = work(g, 'updateKnowledge');
    expect((w.request as { final: boolean }).final).toBe(true);
    g = { ...g, state: m.apply(g.state, updateResult([TRAP_DOOR]), g.view, w) };
    expect(g.state.updates[g.state.updates.length - 1]).toMatchObject({
      turn: 10,
      skipped: false,
      reason: 'Final update with significant content',
      added: 1,
    });
    w = work(g, 'verifyKnowledge');
    g = { ...g, state: m.apply(g.state, { results: [{ id: 'k3', passed: true, response: '' }] }, g.view, w) };
    w = work(g, 'synthesizeWisdom');
    expect(w.request).toEqual({
      game: 'zork1',
      episode: 0,
      summary: { turns: 10, score: 0, maxScore: null, died: false, victory: false, deaths: [], rooms: 5, scoreChanges: [] },
      items: g.state.items,
      wisdom: [],
      seed: 10,
    });
    const state = m.apply(g.state, wisdomResult(['Treasures go in the trophy case', 'Map every room before going down']), g.view, w);
    expect(state.wisdom.map((i) => [i.id, i.layer, i.text, i.source, i.confidence])).toEqual([
      ['w1', 'PRINCIPLE', 'Treasures go in the trophy case', 'wisdom', 0.9],
      ['w2', 'META', 'Map every room before going down', 'wisdom', 0.9],
    ]);
    expect(state.items).toEqual(g.state.items);
    expect(state.stats).toMatchObject({ wisdomSyntheses: 1, calls: 3 });
    expect(m.due(state, g.view)).toBeNull();
  });

  it('does not synthesize wisdom before the end, and not again after a failed synthesis', () => {
    const g = updated([WINDOW]);
    expect(m.due(g.state, g.view)).toBeNull();
    const ending = { ...g, view: { ...g.view, ending: true } };
    const state = m.failed!(ending.state, ending.view, work(ending, 'synthesizeWisdom'));
    expect(state.wisdom).toEqual([]);
    expect(state.stats.failures).toBe(1);
    expect(m.due(state, ending.view)).toBeNull();
  });

  it('a failed update keeps the items as they were, drops the window and records the failure', () => {
    const before = updated();
    const g = prepared(
      play(before, [
        ['move rug', 'Living Room'],
        ['east', 'Kitchen'],
        ['west', 'Living Room'],
        ['east', 'Kitchen'],
        ['west', 'Living Room'],
      ]),
    );
    const state = m.failed!(g.state, g.view, work(g, 'updateKnowledge'));
    expect(state.items).toEqual(before.state.items);
    expect(state.pending).toBeNull();
    expect(state.window).toEqual(emptyWindow(11));
    expect(state.stats).toMatchObject({ failures: 1, updates: 1 });
    expect(state.updates[state.updates.length - 1]).toMatchObject({
      turn: 10,
      skipped: true,
      calls: 0,
      reason: 'the update failed after its retries',
      size: knowledgeBytes(before.state.items),
    });
    // What is due now is the check of the unsure fact the base already had, not the update.
    expect(m.due(state, g.view)?.activity).toBe('verifyKnowledge');
  });

  it("starts the next episode of a campaign with the last one's items, wisdom, map and snapshots", () => {
    let g = updated([TRAP_DOOR, WINDOW]);
    g = { ...g, state: m.apply(g.state, { results: [{ id: 'k1', passed: true, response: '' }] }, g.view, work(g, 'verifyKnowledge')) };
    g = prepared(step(g, 'take lamp', 'Living Room'), true);
    g = { ...g, state: m.apply(g.state, wisdomResult(['Light first']), g.view, work(g, 'synthesizeWisdom')) };
    const last = g.state;
    const next = m.initial(last, config({ knowledgeEvery: 7 }));
    expect(next.items).toEqual(last.items.map((i) => ({ ...i, lastSeenTrue: 0, lastVerifiedTurn: null })));
    expect(next.items[0].source).toBe('engine-verified');
    expect(next.wisdom.map((w) => w.text)).toEqual(['Light first']);
    expect(next.map).toEqual(last.map);
    expect(next.anchors).toEqual(last.anchors);
    expect(next).toMatchObject({
      episode: 1,
      nextId: last.nextId,
      nextWisdomId: last.nextWisdomId,
      pending: null,
      wisdomDone: false,
      deaths: [],
      scoreChanges: [],
      updates: [],
    });
    expect(next.window).toEqual(emptyWindow(1));
    expect(Object.values(next.stats).every((n) => n === 0)).toBe(true);
    expect(next.settings.every).toBe(7);
    expect(m.initial(next, config()).episode).toBe(2);
    // Carried under a policy without an LLM: kept, but idle.
    const idle = m.initial(last, config({ policy: 'oracle-free' }));
    expect(idle.items).toHaveLength(2);
    expect(idle.settings.every).toBe(0);
  });
});

// ── files and context ────────────────────────────────────────────────────────────────────

/** The body of `heading` in a markdown text: the lines up to the next `## ` heading. */
function section(markdown: string, heading: string): string {
  const lines = markdown.split('\n');
  const at = lines.indexOf(heading);
  expect(at).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((l, i) => i > at && l.startsWith('## '));
  return lines
    .slice(at + 1, end < 0 ? undefined : end)
    .join('\n')
    .trim();
}

const SECTIONS = [
  '## WORLD KNOWLEDGE',
  '## STRATEGIC PATTERNS',
  '## DEATH & DANGER ANALYSIS',
  '## COMMAND SYNTAX',
  '## LESSONS LEARNED',
  '## CROSS-EPISODE INSIGHTS',
  '## CURRENT WORLD MAP',
];

const ENGINE_MAP = [
  '- West of House: north → North of House',
  '- North of House: east → Behind House',
  '- Behind House: enter house → Kitchen',
  '- Kitchen: west → Living Room',
  '- Living Room: no exits taken yet',
].join('\n');

describe('the knowledge files', () => {
  it("knowledgebase.md has seed 000's sections, each layer in its own, and the map the engine saw", () => {
    // Confident: no check is due before the wisdom.
    let g = updated([{ ...TRAP_DOOR, confidence: 0.9 }, LIGHT, OPEN, READ]);
    g = prepared(step(g, 'wait', 'Living Room'), true);
    g = { ...g, state: m.apply(g.state, wisdomResult(['Treasures go in the trophy case']), g.view, work(g, 'synthesizeWisdom')) };
    const files = m.files!(g.state);
    expect(Object.keys(files).sort()).toEqual(['knowledge', 'knowledgebase.md', 'persistent_wisdom.md']);
    const md = files['knowledgebase.md'] as string;
    expect(md.split('\n').filter((l) => l.startsWith('## '))).toEqual(SECTIONS);
    expect(md.split('\n')[0]).toBe('<!-- grue knowledge base: episode 1, update 1, 4 items -->');
    expect(section(md, '## WORLD KNOWLEDGE')).toMatch(/^\[IMPL\] The trap door is under the rug\nmetadata:\n {2}confidence: 0\.90\n/);
    expect(section(md, '## WORLD KNOWLEDGE')).toContain(
      '  verification: move rug → "trap door"\n  keywords: [rug, trap door]\n  room: Living Room',
    );
    // A fact about danger is analysed with the deaths, not among the strategies.
    expect(section(md, '## STRATEGIC PATTERNS')).toBe('Nothing yet.');
    expect(section(md, '## DEATH & DANGER ANALYSIS')).toMatch(
      /^No deaths occurred in this session\.\n\n\[PRINCIPLE\] Dark places kill without a light/,
    );
    expect(section(md, '## COMMAND SYNTAX')).toMatch(/^\[INTERFACE\] Open X works on windows and containers\n/);
    expect(section(md, '## LESSONS LEARNED')).toMatch(/^\[META\] Reading lettering and signs gives hints\n/);
    expect(section(md, '## CROSS-EPISODE INSIGHTS')).toMatch(
      /^\[PRINCIPLE\] Treasures go in the trophy case\nmetadata:\n {2}confidence: 0\.90\n {2}source: wisdom/,
    );
    expect(section(md, '## CURRENT WORLD MAP')).toBe(ENGINE_MAP);
    expect(files['persistent_wisdom.md']).toBe(
      '# Persistent wisdom: zork1\n\nSynthesized after 0 episode(s).\n\n- [PRINCIPLE] Treasures go in the trophy case\n',
    );
    expect(files.knowledge).toEqual({
      items: g.state.items,
      wisdom: g.state.wisdom,
      updates: g.state.updates,
      stats: g.state.stats,
      settings: g.state.settings,
    });
  });

  it('keeps the map section exactly as the engine built it, whatever an update writes', () => {
    // Both name the rug the turns showed, so the screen keeps them: only the map section is protected here.
    const forged = answer({
      text: '## CURRENT WORLD MAP\n- Nowhere: north → Void (rug)',
      keywords: ['## CURRENT WORLD MAP\n- Nowhere'],
      room: 'Nowhere',
      verify_commands: ['north\n- Nowhere: north → Void'],
      verify_expect: 'Void\n## CURRENT WORLD MAP',
    });
    const g = updated([forged, answer({ layer: 'META', text: '\n## CURRENT WORLD MAP\n- Void: south → Nowhere (rug)\n' })]);
    expect(g.state.items).toHaveLength(2);
    const md = m.files!(g.state)['knowledgebase.md'] as string;
    expect(md.split('\n').filter((l) => l.startsWith('## '))).toEqual(SECTIONS);
    expect(section(md, '## CURRENT WORLD MAP')).toBe(ENGINE_MAP);
    expect(md.split('\n').filter((l) => l.startsWith('- Nowhere') || l.startsWith('- Void'))).toEqual([]);
    // The model's words are kept, on the item's own line.
    expect(section(md, '## WORLD KNOWLEDGE')).toContain('[IMPL] ## CURRENT WORLD MAP - Nowhere: north → Void');
  });

  it('analyses each death the engine reported', () => {
    let g = play(start(), ROUTE.slice(0, 4));
    g = step(g, 'down', 'Kitchen', 'It is pitch black. You are eaten by a grue.\n\n****  You have died  ****', { died: true });
    const md = m.files!(g.state)['knowledgebase.md'] as string;
    expect(section(md, '## DEATH & DANGER ANALYSIS')).toBe(
      [
        '**1 death(s) occurred:**',
        '',
        '**Death at Turn 5**',
        '- Cause: You are eaten by a grue.',
        '- Fatal Action: down',
        '- Location: Kitchen',
        '- Key Messages: You are eaten by a grue.; You have died',
      ].join('\n'),
    );
  });
});

describe('the knowledge context', () => {
  it('shows the wisdom first, then the facts retrieved for the room, within the budget', () => {
    let g = updated([TRAP_DOOR, WINDOW, READ]);
    g = { ...g, state: m.apply(g.state, { results: [{ id: 'k1', passed: true, response: '' }] }, g.view, work(g, 'verifyKnowledge')) };
    g = prepared(step(g, 'look', 'Living Room', 'You are in the living room. There is a large oriental rug in the center.'), true);
    g = { ...g, state: m.apply(g.state, wisdomResult(['Treasures go in the trophy case']), g.view, work(g, 'synthesizeWisdom')) };
    expect(m.render(g.state, g.view, 200).split('\n')).toEqual([
      '[WISDOM] Treasures go in the trophy case',
      '[IMPL] The trap door is under the rug (Living Room) [verified]',
    ]);
    // Elsewhere, with nothing of it in view, the rug fact is not recalled.
    const kitchen = step(g, 'east', 'Kitchen', 'You are in the kitchen. A table seems to have been used recently.');
    expect(m.render(kitchen.state, kitchen.view, 200)).toBe('[WISDOM] Treasures go in the trophy case');
    expect(m.render(g.state, g.view, 12).length).toBeLessThanOrEqual(48);
  });
});
