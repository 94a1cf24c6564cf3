/**
 * The world model stays bounded — entry caps, string caps, at most MAX_MODEL_JSON_BYTES of JSON —
 * whatever a model calls, and the merge stays idempotent even when the caps are dropping entries.
 */
import { createRng, Rng } from '../../src/agent/rng';
import { boundWorldModel } from '../../src/memory/compaction/bounds';
import { emptyWorldModel, LIMITS, MAX_MODEL_JSON_BYTES, WorldModel, WorldModelSchema } from '../../src/memory/compaction/models';
import { applyToolCalls, EngineFacts } from '../../src/memory/compaction/merge';
import { renderWorldModel } from '../../src/memory/compaction/render';
import { ToolCall } from '../../src/memory/compaction/tools';
import { character, item, location, quest, scene } from './fixtures';

const jsonBytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/** A string of exactly `length` characters, with the noise a model produces (quotes, backslashes, non-ASCII). */
function noisy(rng: Rng, length: number): string {
  const alphabet = 'abcdefghijklmnopqrstuvwxyz ABCDEFGHIJ"\\é\n-.,!0123456789';
  let text = '';
  for (let i = 0; i < length; i++) text += alphabet[rng.int(alphabet.length)];
  return text;
}

const ROOMS = Array.from({ length: 80 }, (_, i) => `Room ${i} ${'of the long corridor'.slice(0, i % 21)}`);
const THINGS = Array.from({ length: 60 }, (_, i) => `thing ${i}`);
const PEOPLE = Array.from({ length: 15 }, (_, i) => `person ${i}`);
const GOALS = Array.from({ length: 20 }, (_, i) => `goal ${i}`);
const DIRECTIONS = ['n', 's', 'e', 'w', 'up', 'down', 'ne', 'sw', 'in', 'out', 'climb tree', 'enter window'];

/** Either a plausible name or noise of a random length up to (and past) the cap. */
function nameOrNoise(rng: Rng, names: readonly string[], cap: number): string {
  return rng.next() < 0.8 ? rng.pick(names) : noisy(rng, rng.int(cap + 5));
}

function randomCall(rng: Rng, engine: EngineFacts): ToolCall {
  const visited = engine.visitedRooms;
  switch (rng.int(5)) {
    case 0:
      return location(rng.next() < 0.9 ? rng.pick(visited) : rng.pick(ROOMS), {
        description: noisy(rng, rng.int(LIMITS.description + 1)),
        exits: Array.from({ length: rng.int(LIMITS.exitsPerRoom + 1) }, () => ({
          direction: rng.pick(DIRECTIONS),
          leads_to: rng.next() < 0.2 ? '' : rng.pick(ROOMS),
        })),
        features: Array.from({ length: rng.int(LIMITS.featuresPerRoom + 1) }, () => noisy(rng, rng.int(LIMITS.feature + 1))),
      });
    case 1: {
      const kind = rng.pick(['carried', 'room', 'inside', 'unknown'] as const);
      const name =
        kind === 'carried' && engine.inventory.length && rng.next() < 0.7
          ? rng.pick(engine.inventory)
          : nameOrNoise(rng, THINGS, LIMITS.itemName);
      const where = kind === 'room' ? rng.pick(visited) : kind === 'inside' ? rng.pick(THINGS) : '';
      return item(
        name,
        kind,
        where,
        Array.from({ length: rng.int(LIMITS.stateWordsPerItem + 1) }, () =>
          rng.pick(['open', 'closed', 'lit', 'unlit', 'locked', 'unlocked', 'wet', 'broken', noisy(rng, LIMITS.stateWord)]),
        ),
      );
    }
    case 2:
      return character(rng.next() < 0.1 ? 'you' : nameOrNoise(rng, PEOPLE, LIMITS.characterName), {
        where: rng.next() < 0.5 ? rng.pick(visited) : '',
        status: noisy(rng, rng.int(LIMITS.characterStatus + 1)),
        attitude: noisy(rng, rng.int(LIMITS.attitude + 1)),
        wants: noisy(rng, rng.int(LIMITS.wants + 1)),
      });
    case 3:
      return quest(
        nameOrNoise(rng, GOALS, LIMITS.questTitle),
        rng.pick(['open', 'done', 'blocked'] as const),
        noisy(rng, rng.int(LIMITS.blockedBy + 1)),
      );
    default: {
      const to = Math.max(0, engine.turn - rng.int(3));
      const from = Math.max(0, to - rng.int(6));
      return scene(from, to, noisy(rng, 1 + rng.int(LIMITS.sceneSummary)), {
        outcome: noisy(rng, rng.int(LIMITS.sceneOutcome + 1)),
        narrative: noisy(rng, rng.int(LIMITS.narrative + 1)),
      });
    }
  }
}

function checkBounds(model: WorldModel): void {
  const parsed = WorldModelSchema.safeParse(model);
  if (!parsed.success) throw new Error(parsed.error.message);
  expect(model.locations.length).toBeLessThanOrEqual(LIMITS.locations);
  expect(model.items.length).toBeLessThanOrEqual(LIMITS.items);
  expect(model.characters.length).toBeLessThanOrEqual(LIMITS.characters);
  expect(model.quests.length).toBeLessThanOrEqual(LIMITS.quests);
  expect(model.scenes.length).toBeLessThanOrEqual(LIMITS.scenes);
  expect(jsonBytes(model)).toBeLessThanOrEqual(MAX_MODEL_JSON_BYTES);
}

describe('bounds', () => {
  test('500 random updates: caps hold, the JSON stays under budget, every merge is idempotent', () => {
    const rng = createRng(1234);
    let model = emptyWorldModel();
    let engine: EngineFacts = { turn: 0, location: ROOMS[0], inventory: [], score: 0, visitedRooms: [ROOMS[0]], exits: [] };
    let updates = 0;
    let largest = 0;
    while (updates < 500) {
      // The player wanders: a new room now and then, objects picked up and dropped.
      const next = rng.next() < 0.8 ? rng.pick(ROOMS) : engine.location;
      engine = {
        turn: engine.turn + 1 + rng.int(5),
        location: next,
        inventory: rng.next() < 0.3 ? THINGS.filter(() => rng.next() < 0.1) : engine.inventory,
        score: engine.score + rng.int(2),
        visitedRooms: engine.visitedRooms.includes(next) ? engine.visitedRooms : [...engine.visitedRooms, next],
        exits:
          next === engine.location
            ? engine.exits
            : [...engine.exits, { from: engine.location, command: rng.pick(DIRECTIONS), to: next }].slice(-150),
      };
      const calls = Array.from({ length: 1 + rng.int(12) }, () => randomCall(rng, engine));
      updates += calls.length;
      const once = applyToolCalls(model, calls, engine);
      checkBounds(once.model);
      const twice = applyToolCalls(once.model, calls, engine);
      expect(JSON.stringify(twice.model)).toBe(JSON.stringify(once.model));
      expect(renderWorldModel(once.model, { here: engine.location, budgetTokens: 150 }).length).toBeLessThanOrEqual(600);
      largest = Math.max(largest, jsonBytes(once.model));
      model = once.model;
    }
    // The caps were reached, so the test exercised the dropping.
    expect(engine.visitedRooms.length).toBeGreaterThan(LIMITS.locations);
    expect(model.locations).toHaveLength(LIMITS.locations);
    expect(model.items.length).toBeGreaterThan(LIMITS.items / 2);
    expect(largest).toBeGreaterThan(MAX_MODEL_JSON_BYTES / 4);
  });

  test('the largest model the caps allow is under the byte budget', () => {
    const full = (length: number, seed: string) => seed.repeat(Math.ceil(length / seed.length)).slice(0, length);
    const overfull: WorldModel = {
      turn: 999_999,
      score: -999_999,
      narrative: full(LIMITS.narrative, 'n'),
      locations: Array.from({ length: LIMITS.locations + 10 }, (_, i) => ({
        name: full(LIMITS.roomName - 3, 'r') + String(i).padStart(3, '0'),
        description: full(LIMITS.description, 'd'),
        exits: Object.fromEntries(
          Array.from({ length: LIMITS.exitsPerRoom }, (_, exit) => [full(LIMITS.command - 1, 'c') + exit, full(LIMITS.roomName, 't')]),
        ),
        features: Array.from({ length: LIMITS.featuresPerRoom }, () => full(LIMITS.feature, 'f')),
        lastVisitedTurn: 999_999 - i,
      })),
      items: Array.from({ length: LIMITS.items + 10 }, (_, i) => ({
        name: full(LIMITS.itemName - 3, 'i') + String(i).padStart(3, '0'),
        where: { kind: 'inside' as const, name: full(LIMITS.placeName, 'p') },
        state: Array.from({ length: LIMITS.stateWordsPerItem }, (_, word) => full(LIMITS.stateWord - 1, 's') + word),
        lastSeenTurn: 999_999,
      })),
      characters: Array.from({ length: LIMITS.characters + 3 }, (_, i) => ({
        name: full(LIMITS.characterName - 3, 'c') + String(i).padStart(3, '0'),
        where: full(LIMITS.roomName, 'w'),
        status: full(LIMITS.characterStatus, 's'),
        attitude: full(LIMITS.attitude, 'a'),
        wants: full(LIMITS.wants, 'w'),
        lastSeenTurn: 999_999,
      })),
      quests: Array.from({ length: LIMITS.quests + 3 }, (_, i) => ({
        title: full(LIMITS.questTitle - 3, 'q') + String(i).padStart(3, '0'),
        status: 'blocked' as const,
        blockedBy: full(LIMITS.blockedBy, 'b'),
        updatedTurn: 999_999,
      })),
      scenes: Array.from({ length: LIMITS.scenes + 3 }, (_, i) => ({
        from: 999_000 + i * 10,
        to: 999_000 + i * 10 + 9,
        summary: full(LIMITS.sceneSummary, 's'),
        outcome: full(LIMITS.sceneOutcome, 'o'),
      })),
      sceneFloor: 998_999,
    };
    const bounded = boundWorldModel(overfull, overfull.locations[0].name);
    checkBounds(bounded);
    // The budget is not wildly generous either: the caps are what keep it.
    expect(jsonBytes(bounded)).toBeGreaterThan(MAX_MODEL_JSON_BYTES * 0.75);
  });
});
