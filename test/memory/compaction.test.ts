/**
 * The pure core of seed-001 compaction: each updater tool, the merge's conflict rules (the engine
 * wins), idempotent re-application, the ground-truth metrics and the renderer's budget.
 */
import { jsonSchemaFor } from '../../src/llm/json';
import { emptyWorldModel, WorldModel, WorldModelSchema } from '../../src/memory/compaction/models';
import { applyToolCalls, EngineFacts, withGroundTruth } from '../../src/memory/compaction/merge';
import { GroundTruthFacts, itemLocationsFromTree, scoreModel } from '../../src/memory/compaction/metrics';
import { cleanText, commandKey, nameKey, resolveItemName } from '../../src/memory/compaction/names';
import { renderWorldModel } from '../../src/memory/compaction/render';
import { COMPACTION_TOOLS, CompactionCallsSchema, ToolCall } from '../../src/memory/compaction/tools';
import { call, character, facts, item, location, quest, scene } from './fixtures';

function merge(calls: ToolCall[], engine: EngineFacts = facts(), model: WorldModel = emptyWorldModel()) {
  const result = applyToolCalls(model, calls, engine);
  // Every merge leaves a model its own schema accepts.
  expect(WorldModelSchema.safeParse(result.model).success).toBe(true);
  return result;
}

const findLocation = (model: WorldModel, name: string) => model.locations.find((entry) => nameKey(entry.name) === nameKey(name));
const findItem = (model: WorldModel, name: string) => model.items.find((entry) => nameKey(entry.name) === nameKey(name));
const findCharacter = (model: WorldModel, name: string) => model.characters.find((entry) => nameKey(entry.name) === nameKey(name));

describe('names', () => {
  test('keys ignore case, punctuation and articles', () => {
    expect(nameKey('The Brass Lantern!')).toBe('brass lantern');
    expect(nameKey('a  small-mailbox')).toBe('small mailbox');
    expect(nameKey('West of the House')).toBe(nameKey('west of house'));
    expect(nameKey('the')).toBe('');
  });

  test('movement commands share a key however they are typed', () => {
    expect(commandKey('n')).toBe('north');
    expect(commandKey('Go North')).toBe('north');
    expect(commandKey('NE')).toBe('northeast');
    expect(commandKey('climb the tree')).toBe('climb tree');
  });

  test('an item name resolves to the one engine name it refers to, never to one of two', () => {
    expect(resolveItemName('sword', ['brass lantern', 'elvish sword'])).toBe('elvish sword');
    expect(resolveItemName('The brass lantern (lit)', ['brass lantern', 'elvish sword'])).toBe('brass lantern');
    expect(resolveItemName('key', ['skeleton key', 'door key'])).toBeNull();
    expect(resolveItemName('lamp', ['brass lantern'])).toBeNull();
  });

  test('text is kept printable, quote-free and cut at a word boundary', () => {
    expect(cleanText('a "big"\n\tdoor\\é', 100)).toBe("a 'big' door");
    expect(cleanText('the quick brown fox jumps', 12)).toBe('the quick');
  });
});

describe('tools', () => {
  test('five updaters, each a flat object schema a grammar can be built from', () => {
    expect(COMPACTION_TOOLS.map((tool) => tool.name)).toEqual([
      'update_location',
      'update_item',
      'update_character',
      'update_quest',
      'record_scene',
    ]);
    for (const tool of COMPACTION_TOOLS) {
      expect(tool.description.length).toBeLessThan(160);
      const schema = jsonSchemaFor(tool.schema) as { type: string; required: string[]; properties: Record<string, unknown> };
      expect(schema.type).toBe('object');
      // Every field required: a grammar cannot leave one out, '' or [] says "nothing to say".
      expect(schema.required.sort()).toEqual(Object.keys(schema.properties).sort());
    }
    const batch = jsonSchemaFor(CompactionCallsSchema) as { properties: { calls: { items: { oneOf: unknown[] } } } };
    expect(batch.properties.calls.items.oneOf).toHaveLength(5);
  });
});

describe('updaters', () => {
  test('update_location records a visited room: description, exits by their command key, features', () => {
    const { model, applied, rejected } = merge([
      location('behind house', {
        description: 'You are behind the white house. A window is slightly ajar.',
        exits: [
          { direction: 'w', leads_to: '' },
          { direction: 'go north', leads_to: 'north of the house' },
          { direction: 'in', leads_to: '' },
        ],
        features: ['small window', 'the Small Window'],
      }),
    ]);
    expect(rejected).toEqual([]);
    expect(applied).toBe(1);
    const behind = findLocation(model, 'Behind House')!;
    expect(behind.name).toBe('Behind House'); // the engine's spelling
    expect(behind.description).toBe('You are behind the white house. A window is slightly ajar.');
    // '' for west: the observed move fills it; the claimed room is spelled as the engine does.
    expect(behind.exits).toEqual({ west: 'Kitchen', north: 'North of House', in: '' });
    expect(behind.features).toEqual(['the Small Window']);
    expect(behind.lastVisitedTurn).toBe(10);
  });

  test("update_location: '' never erases a known destination, and an empty description keeps the old one", () => {
    const first = merge([location('Kitchen', { description: 'A kitchen.', exits: [{ direction: 'up', leads_to: 'Attic' }] })]).model;
    const second = merge([location('Kitchen', { exits: [{ direction: 'u', leads_to: '' }] })], facts(), first).model;
    expect(findLocation(second, 'Kitchen')!.exits.up).toBe('Attic');
    expect(findLocation(second, 'Kitchen')!.description).toBe('A kitchen.');
  });

  test('update_item records where an object is and its state; a new state word replaces its opposite', () => {
    const { model, rejected } = merge([
      item('small mailbox', 'room', 'west of house', ['closed']),
      item('leaflet', 'inside', 'small mailbox'),
      item('small mailbox', 'unknown', '', ['open']),
      item('bottle', 'inside', 'kitchen', ['full']),
    ]);
    expect(rejected).toEqual([]);
    expect(findItem(model, 'small mailbox')).toMatchObject({
      where: { kind: 'room', name: 'West of House' },
      state: ['open'],
      lastSeenTurn: 10,
    });
    expect(findItem(model, 'leaflet')!.where).toEqual({ kind: 'inside', name: 'small mailbox' });
    // "inside" a room is in that room.
    expect(findItem(model, 'bottle')!.where).toEqual({ kind: 'room', name: 'Kitchen' });
  });

  test("update_item: a carried claim is stored under the engine's name for the object", () => {
    const { model, rejected } = merge([item('sword', 'carried', '', ['glowing'])]);
    expect(rejected).toEqual([]);
    expect(findItem(model, 'sword')).toBeUndefined();
    expect(findItem(model, 'elvish sword')).toMatchObject({ where: { kind: 'carried' }, state: ['glowing'] });
  });

  test("update_character: NPCs keep what an update leaves ''; every name for the player is the player", () => {
    const first = merge([character('troll', { where: 'kitchen', status: 'awake', attitude: 'hostile', wants: 'to eat you' })]).model;
    const second = merge(
      [character('Troll', { status: 'wounded' }), character('yourself', { status: 'hungry', where: 'Kitchen' })],
      facts(),
      first,
    ).model;
    expect(findCharacter(second, 'troll')).toMatchObject({
      name: 'troll',
      where: 'Kitchen',
      status: 'wounded',
      attitude: 'hostile',
      wants: 'to eat you',
    });
    expect(findCharacter(second, 'player')).toMatchObject({ where: 'Kitchen', status: 'hungry' });
    expect(second.characters.filter((entry) => entry.name === 'player')).toHaveLength(1);
  });

  test('update_quest: a quest is found by its title; only a blocked quest has a blocker', () => {
    const blocked = merge([quest('Open the grating', 'open'), quest('open the Grating', 'blocked', 'it is locked')]).model;
    expect(blocked.quests).toEqual([{ title: 'Open the grating', status: 'blocked', blockedBy: 'it is locked', updatedTurn: 10 }]);
    const done = merge([quest('open the grating', 'done', 'ignored')], facts(), blocked).model;
    expect(done.quests).toEqual([{ title: 'Open the grating', status: 'done', blockedBy: '', updatedTurn: 10 }]);
  });

  test('record_scene appends a scene per turn span and rewrites the narrative', () => {
    const first = merge([scene(1, 5, 'Explored around the house.', { outcome: 'found a window', narrative: 'You circled the house.' })]);
    expect(first.model.scenes).toEqual([{ from: 1, to: 5, summary: 'Explored around the house.', outcome: 'found a window' }]);
    expect(first.model.narrative).toBe('You circled the house.');
    const second = merge(
      [scene(6, 10, 'Entered the kitchen.'), scene(0, 0, '', { narrative: 'You got into the house.' })],
      facts(),
      first.model,
    );
    expect(second.rejected).toEqual([]);
    expect(second.model.scenes.map((entry) => [entry.from, entry.to])).toEqual([
      [1, 5],
      [6, 10],
    ]);
    expect(second.model.narrative).toBe('You got into the house.');
  });

  test('record_scene refuses a span already told differently, an overlapping span and turns not yet played', () => {
    const base = merge([scene(1, 5, 'Explored around the house.')]).model;
    const { model, rejected } = merge(
      [scene(1, 5, 'Something else.'), scene(4, 8, 'Overlaps.'), scene(9, 12, 'The future.'), scene(1, 1, '', { narrative: '' })],
      facts(),
      base,
    );
    expect(rejected.map((entry) => entry.reason)).toEqual([
      'a scene for turns 1-5 is already recorded',
      'turns 4-8 overlap the scene for turns 1-5',
      'turns 9-12 are not a span of played turns (the game is at turn 10)',
      'the scene has neither a summary nor a narrative',
    ]);
    expect(model.scenes).toEqual(base.scenes);
  });
});

describe('merge: the engine wins', () => {
  test('a claim that contradicts the facts is dropped, with the reason', () => {
    const { model, applied, rejected } = merge([
      item('brown sack', 'carried'),
      item('brass lantern', 'room', 'Kitchen'),
      location('Attic', { description: 'A dusty attic.' }),
      location('West of House', { exits: [{ direction: 'n', leads_to: 'Forest' }] }),
      item('garlic', 'room', 'Attic'),
      character('me', { where: 'Attic' }),
      item('leaflet', 'inside', 'leaflet'),
      call('update_item', { name: 'rope', where_kind: 'floor', where: '', state: [] }),
      call('update_item', { name: 'x'.repeat(200), where_kind: 'unknown', where: '', state: [] }),
      call('summon_dragon', {}),
      item('door', 'room', 'Kitchen'),
    ]);
    expect(rejected.map((entry) => entry.reason)).toEqual([
      '"brown sack" is not in the inventory (brass lantern, elvish sword)',
      'brass lantern is in the inventory, not in Kitchen',
      '"Attic" is not a room the player has visited',
      'north from West of House was seen to lead to North of House, not "Forest"',
      '"Attic" is not a room the player has visited',
      'the player is in Kitchen, not "Attic"',
      '"leaflet" cannot be inside itself',
      expect.stringMatching(/^arguments do not fit update_item: where_kind: /),
      expect.stringMatching(/^arguments do not fit update_item: name: /),
      'no tool is called "summon_dragon"',
    ]);
    // "door" is not the carried "door key" (no such thing here), nor a contradiction of the inventory.
    expect(applied).toBe(1);
    expect(findItem(model, 'door')!.where).toEqual({ kind: 'room', name: 'Kitchen' });
    expect(findLocation(model, 'Attic')).toBeUndefined();
    expect(findLocation(model, 'West of House')!.exits).toEqual({ north: 'North of House' });
  });

  test('an exact inventory name is not confused with a longer one', () => {
    const { rejected } = merge([item('door', 'room', 'Kitchen')], facts({ inventory: ['door key'] }));
    expect(rejected).toEqual([]);
  });

  test('ground truth: visited rooms, observed exits, carried items, the player and the score', () => {
    const before = merge(
      [item('garlic', 'carried'), item('sword', 'room', 'Kitchen')],
      facts({ inventory: ['garlic', 'elvish sword'] }),
    ).model;
    expect(findItem(before, 'garlic')!.where.kind).toBe('carried');
    // The garlic was eaten, the sword picked up, the lantern taken: the engine says so.
    const after = withGroundTruth(before, facts({ turn: 12, score: 15, location: 'Behind House', inventory: ['sword', 'brass lantern'] }));
    expect(after.locations.map((entry) => entry.name)).toEqual(['Behind House', 'Kitchen', 'North of House', 'West of House']);
    expect(findLocation(after, 'West of House')!.exits).toEqual({ north: 'North of House' });
    expect(findLocation(after, 'Behind House')!.lastVisitedTurn).toBe(12);
    expect(findItem(after, 'garlic')!.where).toEqual({ kind: 'unknown' });
    expect(findItem(after, 'sword')).toMatchObject({ where: { kind: 'carried' }, lastSeenTurn: 12 });
    expect(findItem(after, 'brass lantern')!.where).toEqual({ kind: 'carried' });
    expect(findCharacter(after, 'player')!.where).toBe('Behind House');
    expect(after.score).toBe(15);
    expect(after.turn).toBe(12);
  });

  test('a carried entry kept under a shorter name folds into the engine name', () => {
    const model: WorldModel = {
      ...emptyWorldModel(),
      items: [{ name: 'sword', where: { kind: 'carried' }, state: ['glowing'], lastSeenTurn: 3 }],
    };
    const after = withGroundTruth(model, facts());
    expect(after.items.map((entry) => entry.name).sort()).toEqual(['brass lantern', 'elvish sword']);
    expect(findItem(after, 'elvish sword')!.state).toEqual(['glowing']);
  });
});

describe('merge is idempotent', () => {
  const batch = [
    location('Kitchen', {
      description: 'A kitchen with a table.',
      exits: [
        { direction: 'up', leads_to: 'Attic' },
        { direction: 'west', leads_to: 'Living Room' },
      ],
      features: ['table'],
    }),
    item('brown sack', 'room', 'Kitchen', ['closed']),
    item('brown sack', 'unknown', '', ['open']),
    item('garlic', 'inside', 'brown sack'),
    item('lantern', 'carried', '', ['lit']),
    character('troll', { where: 'North of House', attitude: 'hostile' }),
    quest('get into the house', 'done'),
    quest('light the attic', 'blocked', 'need light'),
    scene(6, 10, 'Got into the kitchen.', { outcome: 'inside', narrative: 'You entered the house by the window.' }),
    item('brown sack', 'carried'),
  ];

  test('the same calls twice give the same model as once: no second item, scene or exit', () => {
    const once = merge(batch);
    const twice = merge(batch, facts(), once.model);
    expect(twice.model).toEqual(once.model);
    expect(JSON.stringify(twice.model)).toBe(JSON.stringify(once.model));
    expect(once.model.scenes).toHaveLength(1);
    expect(once.model.items.filter((entry) => nameKey(entry.name) === 'brown sack')).toHaveLength(1);
    expect(once.applied).toBe(9);
    expect(twice.applied).toBe(9);
    // And ground truth written twice is written once.
    expect(withGroundTruth(once.model, facts())).toEqual(once.model);
  });
});

describe('metrics', () => {
  const truth: GroundTruthFacts = {
    rooms: ['West of House', 'North of House', 'Behind House', 'Kitchen'],
    exits: [
      { from: 'West of House', command: 'north', to: 'North of House' },
      { from: 'North of House', command: 'east', to: 'Behind House' },
      { from: 'Behind House', command: 'west', to: 'Kitchen' },
    ],
    itemLocations: { 'small mailbox': 'West of House', leaflet: 'small mailbox', 'brown sack': 'Kitchen', 'glass bottle': 'Kitchen' },
    inventory: ['brass lantern'],
  };
  const room = (name: string, exits: Record<string, string> = {}) => ({ name, description: '', exits, features: [], lastVisitedTurn: 1 });
  const model: WorldModel = {
    ...emptyWorldModel(),
    locations: [
      room('West of House', { north: 'North of House', south: 'South of House' }), // exits: confirmed, unverifiable
      room('kitchen', { up: '' }), // '' claims nothing
      room('Attic'), // never visited: contradicted
      room('Behind the House', { w: 'Living Room' }), // the exit is contradicted
    ],
    items: [
      { name: 'Brass Lantern', where: { kind: 'carried' }, state: [], lastSeenTurn: 1 }, // confirmed
      { name: 'leaflet', where: { kind: 'inside', name: 'the Small Mailbox' }, state: [], lastSeenTurn: 1 }, // confirmed
      { name: 'brown sack', where: { kind: 'carried' }, state: [], lastSeenTurn: 1 }, // contradicted: not in the inventory
      { name: 'glass bottle', where: { kind: 'room', name: 'Kitchen' }, state: [], lastSeenTurn: 1 }, // confirmed
      { name: 'garlic', where: { kind: 'room', name: 'Kitchen' }, state: [], lastSeenTurn: 1 }, // unverifiable
      { name: 'rope', where: { kind: 'unknown' }, state: [], lastSeenTurn: 1 }, // no claim
    ],
  };

  test('claims, precision, recall and hallucination rate on a hand-made model', () => {
    const score = scoreModel(model, truth);
    expect(score.byKind.room).toEqual({ claims: 4, confirmed: 3, contradicted: 1, unverifiable: 0, truthFacts: 4, held: 3 });
    expect(score.byKind.exit).toEqual({ claims: 3, confirmed: 1, contradicted: 1, unverifiable: 1, truthFacts: 3, held: 1 });
    expect(score.byKind.item).toEqual({ claims: 5, confirmed: 3, contradicted: 1, unverifiable: 1, truthFacts: 5, held: 3 });
    expect(score).toMatchObject({ claims: 12, confirmed: 7, contradicted: 3, unverifiable: 2, truthFacts: 12, held: 7 });
    expect(score.precision).toBeCloseTo(0.7);
    expect(score.recall).toBeCloseTo(7 / 12);
    expect(score.hallucinationRate).toBeCloseTo(0.25);
    expect(score.contradictions).toEqual(['visited Attic', 'west from Behind the House leads to Living Room', 'brown sack is carried']);
  });

  test('an empty model claims nothing: precision 1, recall 0, no hallucination', () => {
    expect(scoreModel(emptyWorldModel(), truth)).toMatchObject({ claims: 0, precision: 1, recall: 0, hallucinationRate: 0 });
  });

  test('a model merged from the engine alone is fully confirmed', () => {
    const grounded = withGroundTruth(emptyWorldModel(), facts({ inventory: ['brass lantern'] }));
    const score = scoreModel(grounded, { ...truth, itemLocations: {} });
    expect(score).toMatchObject({ contradicted: 0, precision: 1 });
    expect(score.byKind.room.held).toBe(4);
    expect(score.byKind.exit.held).toBe(3);
  });

  test('item locations from the object tree: seen places only, ambiguous names left out', () => {
    const tree = [
      { id: 1, name: 'Rooms', parent: 0 },
      { id: 2, name: 'West of House', parent: 1 },
      { id: 3, name: 'small mailbox', parent: 2 },
      { id: 4, name: 'leaflet', parent: 3 },
      { id: 5, name: 'cretin', parent: 6 },
      { id: 6, name: 'Kitchen', parent: 1 },
      { id: 7, name: 'brass lantern', parent: 5 },
      { id: 8, name: 'brown sack', parent: 6 },
      { id: 9, name: 'garlic', parent: 8 },
      { id: 10, name: 'Attic', parent: 1 },
      { id: 11, name: 'rope', parent: 10 },
      { id: 12, name: 'door', parent: 2 },
      { id: 13, name: 'door', parent: 6 },
    ];
    const options = { playerId: 5, visitedRooms: ['West of House', 'Kitchen'] };
    expect(itemLocationsFromTree(tree, options)).toEqual({
      'small mailbox': 'West of House',
      leaflet: 'small mailbox',
      'brass lantern': 'carried',
      'brown sack': 'Kitchen',
      garlic: 'brown sack',
    });
    expect(itemLocationsFromTree(tree, { ...options, seen: ['Leaflet', 'the brass lantern'] })).toEqual({
      leaflet: 'small mailbox',
      'brass lantern': 'carried',
    });
  });
});

describe('render', () => {
  const world = merge(
    [
      location('Kitchen', { description: 'A kitchen with a table.', exits: [{ direction: 'up', leads_to: '' }], features: ['table'] }),
      location('West of House', { description: 'An open field west of a white house.' }),
      item('brown sack', 'room', 'Kitchen', ['closed']),
      item('garlic', 'inside', 'brown sack'),
      item('brass lantern', 'carried', '', ['lit']),
      item('leaflet', 'room', 'West of House'),
      character('troll', { where: 'North of House', attitude: 'hostile' }),
      quest('open the grating', 'blocked', 'it is locked'),
      quest('get into the house', 'done'),
      scene(6, 10, 'Got into the kitchen.', { outcome: 'inside', narrative: 'You entered the house by the window.' }),
    ],
    facts({ exits: [...facts().exits, { from: 'Kitchen', command: 'east', to: 'Behind House' }] }),
  ).model;

  test('the current room and its exits first, then what is carried and nearby, quests, the story, other rooms', () => {
    const text = renderWorldModel(world, { here: 'Kitchen', budgetTokens: 1000 });
    expect(text.split('\n')).toEqual([
      'HERE: Kitchen - A kitchen with a table.',
      'EXITS: up -> ?, east -> Behind House',
      'CARRYING: brass lantern (lit), elvish sword',
      'FEATURES: table',
      'NEARBY: brown sack (closed)',
      'NEARBY: garlic (in brown sack)',
      'QUEST: open the grating [blocked: it is locked]',
      'STORY: You entered the house by the window.',
      'LAST SCENE (turns 6-10): Got into the kitchen. -> inside',
      'PERSON: troll (in North of House; hostile)',
      'ROOM West of House: An open field west of a white house.; exits north -> North of House',
      'ROOM Behind House: exits west -> Kitchen',
      'ROOM North of House: exits east -> Behind House',
    ]);
  });

  test('within every budget, whole lines only, the least relevant dropped first', () => {
    const full = renderWorldModel(world, { here: 'Kitchen', budgetTokens: 1000 }).split('\n');
    for (let budget = 0; budget <= 150; budget++) {
      const text = renderWorldModel(world, { here: 'Kitchen', budgetTokens: budget });
      expect(text.length).toBeLessThanOrEqual(budget * 4);
      const shown = text ? text.split('\n') : [];
      for (const line of shown) expect(full).toContain(line);
    }
    const tight = renderWorldModel(world, { here: 'Kitchen', budgetTokens: 30 }).split('\n');
    expect(tight[0]).toBe('HERE: Kitchen - A kitchen with a table.');
    expect(tight.some((line) => line.startsWith('ROOM '))).toBe(false);
  });

  test('a room the model has not described yet is still named', () => {
    expect(renderWorldModel(emptyWorldModel(), { here: 'Cellar', budgetTokens: 50 })).toBe('HERE: Cellar');
  });
});
