/** Seed 002's layered items: merging an answer into the base, priority compression under the size limit, retrieval for the situation. */
import type { ItemAnswer, KnowledgeItem, TurnWindow } from '../../src/memory/knowledge';
import { screenFor } from '../../src/memory/knowledge/prompt';
import {
  CompressionStep,
  compress,
  itemBlock,
  knowledgeBytes,
  MergeContext,
  mergeItems,
  retrieve,
  Situation,
} from '../../src/memory/knowledge/layers';

const answer = (over: Partial<ItemAnswer> = {}): ItemAnswer => ({
  layer: 'IMPL',
  text: 'The brass lantern lies on the trophy case',
  confidence: 0.8,
  keywords: [],
  room: '',
  verify_commands: [],
  verify_expect: '',
  replaces: '',
  ...over,
});

const item = (id: string, layer: KnowledgeItem['layer'], text: string, over: Partial<KnowledgeItem> = {}): KnowledgeItem => ({
  id,
  layer,
  text,
  confidence: 0.9,
  source: 'observation',
  verification: null,
  keywords: [],
  dependencies: [],
  room: null,
  lastSeenTrue: 1,
  lastVerifiedTurn: null,
  ...over,
});

/** Zork's opening: West of House, round the back, in through the window, to the Living Room, and the rug moved. */
const ROUTE: Array<[string, string]> = [
  ['north', 'North of House'],
  ['east', 'Behind House'],
  ['open window', 'Behind House'],
  ['enter house', 'Kitchen'],
  ['west', 'Living Room'],
  ['move rug', 'Living Room'],
];

function routeWindow(): TurnWindow {
  const actions = ROUTE.map(([action, location], i) => ({ turn: i + 1, action, response: 'ok', location }));
  const locationChanges = actions.flatMap((a, i) => {
    const from = i === 0 ? 'West of House' : actions[i - 1].location;
    return from !== a.location ? [{ turn: a.turn, from, to: a.location }] : [];
  });
  return { startTurn: 1, endTurn: 6, actions, deaths: [], scoreChanges: [], locationChanges };
}

const context = (over: Partial<MergeContext> = {}): MergeContext => ({
  turn: 6,
  rooms: ['West of House', 'North of House', 'Behind House', 'Kitchen', 'Living Room'],
  window: routeWindow(),
  source: 'observation',
  ...over,
});

describe('mergeItems', () => {
  it('adds new items with fresh ids from nextId', () => {
    const first = mergeItems(
      [],
      [
        answer({ text: 'The brass lantern lies on the trophy case' }),
        answer({ layer: 'META', text: 'Examining objects reveals hidden details' }),
      ],
      1,
      context(),
    );
    expect(first.items.map((i) => [i.id, i.layer])).toEqual([
      ['k1', 'IMPL'],
      ['k2', 'META'],
    ]);
    expect(first).toMatchObject({ nextId: 3, added: 2, merged: 0, ignored: 0 });
    expect(first.items[0]).toMatchObject({ source: 'observation', lastSeenTrue: 6, lastVerifiedTurn: null, dependencies: [] });
    const next = mergeItems(first.items, [answer({ layer: 'PRINCIPLE', text: 'Dark places kill without a light' })], 7, context());
    expect(next.items.map((i) => i.id)).toEqual(['k1', 'k2', 'k7']);
    expect(next.nextId).toBe(8);
    expect(mergeItems([], [answer({ layer: 'META', text: 'Wisdom lasts between episodes' })], 4, context(), 'w').items[0].id).toBe('w4');
  });

  it('updates the item an answer names in replaces, whatever its text says', () => {
    const base = [
      item('k1', 'IMPL', 'The leaflet is in the mailbox', { confidence: 0.9 }),
      item('k2', 'IMPL', 'The sword hangs above the trophy case'),
    ];
    const out = mergeItems(
      base,
      [answer({ text: 'A small window behind the house can be opened', confidence: 0.4, replaces: ' k1 ' })],
      3,
      context(),
    );
    expect(out).toMatchObject({ added: 0, merged: 1, nextId: 3 });
    expect(out.items.map((i) => [i.id, i.text, i.confidence])).toEqual([
      ['k1', 'A small window behind the house can be opened', 0.4],
      ['k2', 'The sword hangs above the trophy case', 0.9],
    ]);
    // An id that does not exist is no target: the item is new.
    expect(
      mergeItems(base, [answer({ text: 'A small window behind the house can be opened', replaces: 'k9' })], 3, context()).items.map(
        (i) => i.id,
      ),
    ).toEqual(['k1', 'k2', 'k3']);
  });

  it('merges a near-duplicate of the same layer instead of adding it, and keeps a verified fact verified while it is restated', () => {
    const base = [
      item('k1', 'IMPL', 'The brass lantern lies on the trophy case in the Living Room', {
        confidence: 0.9,
        source: 'engine-verified',
        keywords: ['lantern'],
      }),
    ];
    const restated = mergeItems(
      base,
      [answer({ text: 'A brass lantern lies on the trophy case, Living Room', confidence: 0.5, keywords: ['trophy case'] })],
      2,
      context(),
    );
    expect(restated).toMatchObject({ added: 0, merged: 1, nextId: 2 });
    // Saying the same thing: the higher confidence and the engine's word stand; keywords are pooled.
    expect(restated.items[0]).toMatchObject({
      id: 'k1',
      confidence: 0.9,
      source: 'engine-verified',
      keywords: ['trophy case', 'lantern'],
      lastSeenTrue: 6,
    });
    const reworded = mergeItems(
      base,
      [answer({ text: 'The brass lantern rests on the trophy case in the Living Room', confidence: 0.5 })],
      2,
      context(),
    );
    expect(reworded.items).toHaveLength(1);
    // A reworded fact is the model's new claim: its confidence and source replace the old ones.
    expect(reworded.items[0]).toMatchObject({
      id: 'k1',
      text: 'The brass lantern rests on the trophy case in the Living Room',
      confidence: 0.5,
      source: 'observation',
    });
    // The same words in another layer are another item.
    expect(
      mergeItems(base, [answer({ layer: 'PRINCIPLE', text: 'The brass lantern lies on the trophy case in the Living Room' })], 2, context())
        .items,
    ).toHaveLength(2);
  });

  it('adds nothing when the same answer is applied a second time', () => {
    const answers = [
      answer({ text: 'The trap door is under the rug', verify_commands: ['move rug'], verify_expect: 'trap door' }),
      answer({ layer: 'INTERFACE', text: 'N, S, E, W, U, D' }),
      answer({ layer: 'PRINCIPLE', text: 'Dark places kill without a light' }),
    ];
    const once = mergeItems([], answers, 1, context());
    const twice = mergeItems(once.items, answers, once.nextId, context());
    expect(twice).toMatchObject({ added: 0, merged: 3, nextId: once.nextId });
    expect(twice.items).toEqual(once.items);
  });

  describe('the room of an item', () => {
    const roomOf = (over: Partial<ItemAnswer>) => mergeItems([], [answer(over)], 1, context()).items[0].room;

    it('is the room the model names when the engine knows it, in the engine spelling', () => {
      expect(roomOf({ room: ' living room ' })).toBe('Living Room');
      // Any layer may be tied to a known room.
      expect(roomOf({ layer: 'PRINCIPLE', text: 'Treasures belong in the trophy case', room: 'Living Room' })).toBe('Living Room');
    });

    it('else, for IMPL, the room where its first verify command was played in the window', () => {
      expect(roomOf({ room: 'Narnia', verify_commands: ['move rug'], verify_expect: 'trap door' })).toBe('Living Room');
      expect(roomOf({ verify_commands: ['Enter House'], verify_expect: 'kitchen' })).toBe('Behind House');
      // A move is played where it started, not where it led (the window's first action included).
      expect(roomOf({ text: 'Going north leads on', verify_commands: ['north'], verify_expect: 'North of House' })).toBe('West of House');
      expect(roomOf({ text: 'Going west leads on', verify_commands: ['west'], verify_expect: 'Living Room' })).toBe('Kitchen');
    });

    it('else a room its text names, else none', () => {
      expect(roomOf({ text: 'A small window at Behind House can be opened', verify_commands: ['xyzzy'], verify_expect: 'window' })).toBe(
        'Behind House',
      );
      expect(roomOf({ text: 'Something happens somewhere' })).toBeNull();
      expect(roomOf({ room: 'Narnia', text: 'Something happens somewhere' })).toBeNull();
      // Only IMPL facts are tied to a room by these fallbacks.
      expect(roomOf({ layer: 'PRINCIPLE', text: 'The Kitchen is a safe place', verify_commands: ['move rug'] })).toBeNull();
    });
  });

  it('keeps a verification only for IMPL items with both commands and an expected effect', () => {
    const one = (over: Partial<ItemAnswer>) => mergeItems([], [answer(over)], 1, context()).items[0].verification;
    expect(one({ verify_commands: [' move   rug '], verify_expect: ' trap  door ' })).toEqual({
      commands: ['move rug'],
      expect: 'trap door',
    });
    expect(one({ verify_commands: ['move rug'], verify_expect: '' })).toBeNull();
    expect(one({ verify_commands: ['move rug'], verify_expect: 'none' })).toBeNull();
    expect(one({ verify_commands: [], verify_expect: 'trap door' })).toBeNull();
    expect(one({ verify_commands: [' '], verify_expect: 'trap door' })).toBeNull();
    expect(
      one({ layer: 'INTERFACE', text: 'Move X shifts furniture', verify_commands: ['move rug'], verify_expect: 'trap door' }),
    ).toBeNull();
  });

  it('clamps confidence to 0..1', () => {
    const out = mergeItems(
      [],
      [answer({ text: 'The rug is heavy', confidence: 1.7 }), answer({ text: 'The mailbox is empty', confidence: -0.2 })],
      1,
      context(),
    );
    expect(out.items.map((i) => i.confidence)).toEqual([1, 0]);
  });

  it('ignores placeholder text and placeholder keywords', () => {
    const out = mergeItems(
      [],
      ['none', 'N/A', '...', '  ---  ', 'unknown', 'a'].map((text) => answer({ text })),
      1,
      context(),
    );
    expect(out).toMatchObject({ items: [], added: 0, ignored: 6, nextId: 1 });
    const kept = mergeItems(
      [],
      [answer({ text: 'The trophy case holds treasures', keywords: ['none', ' Trophy Case ', 'n/a'] })],
      1,
      context(),
    ).items[0];
    expect(kept.keywords).toEqual(['trophy case']);
    // No keywords given: the text's content words stand in.
    expect(
      mergeItems([], [answer({ text: 'The trophy case holds treasures', keywords: ['none'] })], 1, context()).items[0].keywords,
    ).toEqual(['trophy', 'case', 'holds', 'treasures']);
  });
});

// ── compression ──────────────────────────────────────────────────────────────────────────

const STEPS: CompressionStep[] = [
  'drop-low-confidence-impl',
  'merge-similar',
  'simplify-metadata',
  'compress-impl',
  'drop-impl',
  'drop-interface',
  'drop-principle',
];

const LONG_IMPL =
  'The trap door under the oriental rug in the Living Room opens onto a rickety staircase that descends into the dark Cellar below';

/** A base where every step of the seed's compression has something to do. */
const BASE: KnowledgeItem[] = [
  item('k1', 'META', 'Examining every object often reveals hidden details', { confidence: 1 }),
  item('k2', 'PRINCIPLE', 'Dark places kill an adventurer without a light source', { keywords: ['dark', 'light'] }),
  // A near twin of k2, less confident: merged into it.
  item('k3', 'PRINCIPLE', 'Dark places kill the adventurer lacking a light source', { confidence: 0.6, keywords: ['dark', 'light'] }),
  // Heavy metadata: simplified to three keywords and no dependencies.
  item('k4', 'INTERFACE', 'Put X in Y stores treasures inside a container', {
    keywords: ['put', 'container', 'treasure', 'store', 'verb', 'syntax'],
    dependencies: ['k2'],
  }),
  // Low-confidence IMPL: the first to go (a PRINCIPLE as unsure is not).
  item('k5', 'IMPL', 'The leaflet in the mailbox welcomes players to Zork', { confidence: 0.5 }),
  item('k6', 'IMPL', LONG_IMPL, { verification: { commands: ['move rug', 'open trap door'], expect: 'staircase' }, room: 'Living Room' }),
  item('k7', 'IMPL', 'The sword hangs above the trophy case', { confidence: 0.75 }),
  item('k8', 'PRINCIPLE', 'Unsure rules are still rules', { confidence: 0.3 }),
];

/** The base after each step, as the seed describes the step. */
const AFTER: KnowledgeItem[][] = (() => {
  const s1 = BASE.filter((i) => i.id !== 'k5');
  const s2 = s1.filter((i) => i.id !== 'k3');
  const s3 = s2.map((i) => ({ ...i, keywords: i.keywords.slice(0, 3), dependencies: [] }));
  const s4 = s3.map((i) => (i.id === 'k6' ? { ...i, text: `${LONG_IMPL.slice(0, 97)}...` } : i));
  const s5 = s4.filter((i) => i.layer !== 'IMPL');
  const s6 = s5.filter((i) => i.layer !== 'INTERFACE');
  const s7 = s6.filter((i) => i.layer !== 'PRINCIPLE');
  return [BASE, s1, s2, s3, s4, s5, s6, s7];
})();

describe('compress (seed 002 priority compression)', () => {
  it('leaves a base within the limit untouched', () => {
    expect(compress(BASE, knowledgeBytes(BASE))).toEqual({ items: BASE, steps: [], removed: 0 });
  });

  it.each([1, 2, 3, 4, 5, 6, 7])('runs the first %i step(s) in the seed order when only they are needed', (k) => {
    const limit = knowledgeBytes(AFTER[k]);
    // Each step is needed: the base before it is over the limit.
    expect(knowledgeBytes(AFTER[k - 1])).toBeGreaterThan(limit);
    const out = compress(BASE, limit);
    expect(out.steps).toEqual(STEPS.slice(0, k));
    expect(out.items).toEqual(AFTER[k]);
    expect(out.removed).toBe(BASE.length - AFTER[k].length);
  });

  it('drops the least valuable item of a layer first, and only as many as needed', () => {
    const s4 = AFTER[4];
    // Dropping the 0.75 sword fact is enough; the 0.9 trap door fact stays.
    const out = compress(BASE, knowledgeBytes(s4.filter((i) => i.id !== 'k7')));
    expect(out.steps).toEqual(STEPS.slice(0, 5));
    expect(out.items.map((i) => i.id)).toEqual(['k1', 'k2', 'k4', 'k6', 'k8']);
    // Among PRINCIPLE items, the unsure k8 goes before k2.
    const principles = compress(BASE, knowledgeBytes(AFTER[6].filter((i) => i.id !== 'k8')));
    expect(principles.items.map((i) => i.id)).toEqual(['k1', 'k2']);
  });

  it('never drops META: under a tiny limit every META item stays and everything else goes', () => {
    const metas = [BASE[0], item('k9', 'META', 'Reading signs and leaflets gives hints', { confidence: 0.2 })];
    const out = compress([...BASE, metas[1]], 10);
    expect(out.steps).toEqual(STEPS);
    expect(out.items).toEqual(metas);
    expect(knowledgeBytes(out.items)).toBeGreaterThan(10);
  });
});

// ── retrieval and size ───────────────────────────────────────────────────────────────────

describe('retrieve', () => {
  const situation: Situation = {
    room: 'Living Room',
    inventory: ['brass lantern'],
    observation: 'You are in the living room. There is a trophy case and a large oriental rug. It is getting dark.',
    goal: 'examine the rug',
  };
  const items = [
    item('k1', 'IMPL', 'The mailbox holds a leaflet', { room: 'West of House', keywords: ['mailbox', 'leaflet'] }),
    item('k2', 'IMPL', 'A sword hangs above the trophy case', { confidence: 1, keywords: ['sword'] }),
    item('k3', 'IMPL', 'A nailed door blocks the west', { room: 'Living Room' }),
    item('k4', 'IMPL', 'The trap door is under the rug', { confidence: 0.5, room: 'Living Room', keywords: ['rug', 'trap door'] }),
    item('k5', 'INTERFACE', 'Open X works on windows', { keywords: ['window'] }),
    item('k6', 'INTERFACE', 'Move X shifts heavy furniture', { keywords: ['rug'] }),
    item('k7', 'PRINCIPLE', 'Places without light kill', { keywords: ['dark', 'light'] }),
    item('k8', 'META', 'Looking closely at objects reveals hidden details', { keywords: ['examine'] }),
  ];

  it('returns only the items matching the situation, highest layer first, more relevant first within a layer', () => {
    expect(retrieve(items, situation).map((i) => i.id)).toEqual(['k8', 'k7', 'k6', 'k4', 'k3', 'k2']);
  });

  it('matches by keyword, by text, or by room alone', () => {
    const only = (i: KnowledgeItem, s: Partial<Situation> = {}) =>
      retrieve([i], { room: 'Attic', inventory: [], observation: '', goal: '', ...s }).length;
    const rug = item('k1', 'IMPL', 'The trap door is under it', { keywords: ['rug'], room: 'Living Room' });
    expect(only(rug)).toBe(0);
    expect(only(rug, { observation: 'A rug.' })).toBe(1);
    expect(only(rug, { inventory: ['trap door'] })).toBe(1);
    expect(only(rug, { room: 'Living Room' })).toBe(1);
    expect(only(rug, { goal: 'lift the trap door' })).toBe(1);
  });

  it('ranks equally relevant items of a layer by confidence', () => {
    const a = item('k1', 'IMPL', 'The rug is heavy', { confidence: 0.4 });
    const b = item('k2', 'IMPL', 'The rug is oriental', { confidence: 0.9 });
    expect(retrieve([a, b], { room: 'Attic', inventory: [], observation: 'rug', goal: '' }).map((i) => i.id)).toEqual(['k2', 'k1']);
  });
});

describe('knowledgeBytes', () => {
  it('is the UTF-8 size of each item block as the knowledge base writes it, plus its separator', () => {
    const a = item('k1', 'IMPL', 'North → North of House, café', {
      keywords: ['north'],
      room: 'West of House',
      verification: { commands: ['north'], expect: 'North of House' },
    });
    const b = item('k2', 'META', 'Read everything');
    expect(knowledgeBytes([])).toBe(0);
    expect(knowledgeBytes([a])).toBe(Buffer.byteLength(itemBlock(a), 'utf8') + 2);
    expect(knowledgeBytes([a])).toBeGreaterThan(itemBlock(a).length + 2);
    expect(knowledgeBytes([a, b])).toBe(knowledgeBytes([a]) + knowledgeBytes([b]));
    expect(itemBlock(a)).toBe(
      [
        '[IMPL] North → North of House, café',
        'metadata:',
        '  confidence: 0.90',
        '  source: observation',
        '  verification: north → "North of House"',
        '  keywords: [north]',
        '  room: West of House',
      ].join('\n'),
    );
  });
});

describe('the screen an answered item must pass (screenFor)', () => {
  const window: TurnWindow = {
    startTurn: 1,
    endTurn: 2,
    actions: [
      { turn: 1, action: 'open mailbox', response: 'Opening the small mailbox reveals a leaflet.', location: 'West of House' },
      { turn: 2, action: 'north', response: 'You are facing the north side of a white house.', location: 'North of House' },
    ],
    deaths: [],
    scoreChanges: [],
    locationChanges: [],
  };
  const accept = screenFor(window);
  const item = (over: Partial<ItemAnswer>): ItemAnswer => ({
    layer: 'IMPL',
    text: 'x',
    confidence: 0.5,
    keywords: [],
    room: '',
    verify_commands: [],
    verify_expect: '',
    replaces: '',
    ...over,
  });

  it('keeps an item that names what the turns showed, in its text or its keywords', () => {
    expect(accept(item({ text: 'The mailbox at West of House holds a leaflet' }))).toBe(true);
    expect(accept(item({ layer: 'META', text: 'Containers often hold papers', keywords: ['mailbox'] }))).toBe(true);
  });

  it('drops an item that names nothing the game said', () => {
    expect(accept(item({ text: 'The dragon guards the golden hoard' }))).toBe(false);
  });

  it("drops a copy of the prompt's own guide, even when it shares a word with the turns", () => {
    // gemma3-270m's answers when it has nothing to say, from eval:knowledge.
    expect(accept(item({ layer: 'META', text: 'How to learn this game', keywords: ['mailbox'] }))).toBe(false);
    expect(accept(item({ text: 'a concrete fact', keywords: ['leaflet'] }))).toBe(false);
    expect(accept(item({ layer: 'PRINCIPLE', text: 'a stable rule of the world', keywords: ['house'] }))).toBe(false);
  });
});
