/**
 * Keeping the world model inside its caps. What is dropped is chosen by a rank that depends only
 * on an entry's own fields (is it here / carried / the player, when it was last touched, its key),
 * never on the order entries arrived in. That is what keeps the merge idempotent at the caps: an
 * entry dropped once is dropped again when a retried compaction brings it back, because it ranks
 * exactly where it ranked the first time.
 */
import { Character, Item, LIMITS, Location, PLAYER_NAME, Quest, Scene, WorldModel } from './models';
import { nameKey } from './names';

type Compare<T> = (left: T, right: T) => number;

const byKey = (left: string, right: string) => (left < right ? -1 : left > right ? 1 : 0);
const firstIf = (left: boolean, right: boolean) => Number(right) - Number(left);
const newestFirst = (left: number, right: number) => right - left;

/** The `cap` best entries by `rank`, returned in key order (the stored order). */
function keepBest<T>(entries: readonly T[], cap: number, rank: Compare<T>, key: (entry: T) => string): T[] {
  return [...entries]
    .sort(rank)
    .slice(0, cap)
    .sort((left, right) => byKey(key(left), key(right)));
}

const locationKey = (location: Location) => nameKey(location.name);
const itemKey = (item: Item) => nameKey(item.name);
const characterKey = (character: Character) => nameKey(character.name);
const questKey = (quest: Quest) => nameKey(quest.title);

/** The room the player is in first, then the most recently visited. */
export const locationRank =
  (hereKey: string): Compare<Location> =>
  (left, right) =>
    firstIf(locationKey(left) === hereKey, locationKey(right) === hereKey) ||
    newestFirst(left.lastVisitedTurn, right.lastVisitedTurn) ||
    byKey(locationKey(left), locationKey(right));

const itemRank: Compare<Item> = (left, right) =>
  firstIf(left.where.kind === 'carried', right.where.kind === 'carried') ||
  newestFirst(left.lastSeenTurn, right.lastSeenTurn) ||
  byKey(itemKey(left), itemKey(right));

const characterRank: Compare<Character> = (left, right) =>
  firstIf(left.name === PLAYER_NAME, right.name === PLAYER_NAME) ||
  newestFirst(left.lastSeenTurn, right.lastSeenTurn) ||
  byKey(characterKey(left), characterKey(right));

const questRank: Compare<Quest> = (left, right) =>
  firstIf(left.status !== 'done', right.status !== 'done') ||
  newestFirst(left.updatedTurn, right.updatedTurn) ||
  byKey(questKey(left), questKey(right));

/** The newest `cap` of a list kept oldest-first (exits, features and state words grow at the end). */
export const newest = <T>(entries: readonly T[], cap: number): T[] => entries.slice(Math.max(0, entries.length - cap));

function newestExits(exits: Record<string, string>, cap: number): Record<string, string> {
  return Object.fromEntries(newest(Object.entries(exits), cap));
}

/**
 * Rooms beyond the first `detailedLocations` by rank lose their description and features, beyond
 * `locationsWithExits` their exits too: a far-away room is worth a name, not a paragraph.
 */
function boundLocations(locations: readonly Location[], hereKey: string): Location[] {
  const rank = locationRank(hereKey);
  const ranked = [...locations].sort(rank).slice(0, LIMITS.locations);
  const trimmed = ranked.map((location, position) => ({
    ...location,
    description: position < LIMITS.detailedLocations ? location.description : '',
    features: position < LIMITS.detailedLocations ? newest(location.features, LIMITS.featuresPerRoom) : [],
    exits: position < LIMITS.locationsWithExits ? newestExits(location.exits, LIMITS.exitsPerRoom) : {},
  }));
  return trimmed.sort((left, right) => byKey(locationKey(left), locationKey(right)));
}

/** The newest scenes; the floor rises past every scene dropped, so none of them can come back. */
function boundScenes(scenes: readonly Scene[], floor: number): { scenes: Scene[]; sceneFloor: number } {
  const oldestFirst = [...scenes].sort((left, right) => left.from - right.from);
  const dropped = oldestFirst.slice(0, Math.max(0, oldestFirst.length - LIMITS.scenes));
  return {
    scenes: newest(oldestFirst, LIMITS.scenes),
    sceneFloor: dropped.reduce((highest, scene) => Math.max(highest, scene.to), floor),
  };
}

/** The model within every cap of `LIMITS`; `here` is the room the player is in (always kept). */
export function boundWorldModel(model: WorldModel, here: string): WorldModel {
  const items = keepBest(model.items, LIMITS.items, itemRank, itemKey).map((item) => ({
    ...item,
    state: newest(item.state, LIMITS.stateWordsPerItem),
  }));
  return {
    ...model,
    locations: boundLocations(model.locations, nameKey(here)),
    items,
    characters: keepBest(model.characters, LIMITS.characters, characterRank, characterKey),
    quests: keepBest(model.quests, LIMITS.quests, questRank, questKey),
    ...boundScenes(model.scenes, model.sceneFloor),
  };
}
