/**
 * The structured world model of seed 001 (its campaign data, here the story world of one
 * interactive-fiction episode): rooms, items, characters, quests, scenes and a running narrative.
 *
 * It lives in workflow state and travels through continue-as-new, so it is bounded: every string
 * has a length cap and every list an entry cap, and `LIMITS` is chosen so that the largest model
 * `boundWorldModel` (./bounds.ts) can leave stays under `MAX_MODEL_JSON_BYTES` (a unit test builds
 * that model). Stored
 * text is printable ASCII without quotes or backslashes, so a character is one JSON byte.
 *
 * Every collection is an array kept in `nameKey` order, with at most one entry per key: re-applying
 * an update finds the entry it made before instead of adding a second one.
 */
import { z } from 'zod';
import { commandKey, nameKey, SAFE_TEXT } from './names';

export const MAX_MODEL_JSON_BYTES = 16_000;

export const LIMITS = {
  roomName: 32,
  description: 100,
  command: 16,
  exitsPerRoom: 6,
  feature: 24,
  featuresPerRoom: 3,
  itemName: 32,
  placeName: 32,
  stateWord: 12,
  stateWordsPerItem: 4,
  characterName: 32,
  characterStatus: 40,
  attitude: 20,
  wants: 40,
  questTitle: 40,
  blockedBy: 40,
  sceneSummary: 120,
  sceneOutcome: 60,
  narrative: 400,
  /** Rooms kept; the most recently visited first. */
  locations: 30,
  /** Of those, how many keep their description and features (the rest are too far back to matter)... */
  detailedLocations: 6,
  /** ...and how many keep their exits (the map module keeps every observed exit anyway). */
  locationsWithExits: 10,
  items: 18,
  characters: 6,
  quests: 8,
  scenes: 6,
} as const;

/** An exit's stored command: its commandKey, cut to fit (the merge and the metrics both use this). */
export const exitCommand = (command: string): string => commandKey(command).slice(0, LIMITS.command).trim();

const text = (max: number) => z.string().max(max).regex(SAFE_TEXT, 'printable ASCII without quotes or backslashes');
const turn = z.number().int().min(0);

export const LocationSchema = z
  .object({
    name: text(LIMITS.roomName).min(1),
    /** One line: what the room is like, as last described. */
    description: text(LIMITS.description),
    /** Movement command (its `commandKey`) → the room it leads to ('' for seen but not yet taken). */
    exits: z.record(text(LIMITS.command).min(1), text(LIMITS.roomName)),
    /** Notable fixed things: doors, altars, a trophy case. */
    features: z.array(text(LIMITS.feature)).max(LIMITS.featuresPerRoom),
    /**
     * The latest turn the player is known to have been here: the engine's turn when it was the
     * current room, or the turn of the compaction that read it described (the player was there in
     * that window); 0 when only known as visited.
     */
    lastVisitedTurn: turn,
  })
  .refine((location) => Object.keys(location.exits).length <= LIMITS.exitsPerRoom, `a room keeps at most ${LIMITS.exitsPerRoom} exits`);
export type Location = z.infer<typeof LocationSchema>;

export const ItemPlaceSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('carried') }),
  z.object({ kind: z.literal('room'), name: text(LIMITS.placeName).min(1) }),
  /** In or on another item (a container or supporter), named. */
  z.object({ kind: z.literal('inside'), name: text(LIMITS.placeName).min(1) }),
  z.object({ kind: z.literal('unknown') }),
]);
export type ItemPlace = z.infer<typeof ItemPlaceSchema>;

export const ItemSchema = z.object({
  name: text(LIMITS.itemName).min(1),
  where: ItemPlaceSchema,
  /** Single lower-case words: open, closed, lit, locked... */
  state: z.array(text(LIMITS.stateWord).min(1)).max(LIMITS.stateWordsPerItem),
  lastSeenTurn: turn,
});
export type Item = z.infer<typeof ItemSchema>;

/** The player is the character named `PLAYER_NAME`; everyone else is an NPC. */
export const PLAYER_NAME = 'player';

export const CharacterSchema = z.object({
  name: text(LIMITS.characterName).min(1),
  /** Room last seen in ('' unknown); the engine's location for the player. */
  where: text(LIMITS.roomName),
  status: text(LIMITS.characterStatus),
  attitude: text(LIMITS.attitude),
  wants: text(LIMITS.wants),
  lastSeenTurn: turn,
});
export type Character = z.infer<typeof CharacterSchema>;

export const QuestStatusSchema = z.enum(['open', 'done', 'blocked']);
export type QuestStatus = z.infer<typeof QuestStatusSchema>;

export const QuestSchema = z.object({
  /** The quest's id is the nameKey of its title. */
  title: text(LIMITS.questTitle).min(1),
  status: QuestStatusSchema,
  /** What stands in the way ('' unless blocked). */
  blockedBy: text(LIMITS.blockedBy),
  updatedTurn: turn,
});
export type Quest = z.infer<typeof QuestSchema>;

export const SceneSchema = z.object({
  from: turn,
  to: turn,
  summary: text(LIMITS.sceneSummary).min(1),
  outcome: text(LIMITS.sceneOutcome),
});
export type Scene = z.infer<typeof SceneSchema>;

const uniqueBy = <T>(entries: readonly T[], key: (entry: T) => string) => new Set(entries.map(key)).size === entries.length;

export const WorldModelSchema = z
  .object({
    /** The engine's turn the model was last merged at. */
    turn,
    /** The engine's score then (ground truth; no tool can set it). */
    score: z.number().int(),
    narrative: text(LIMITS.narrative),
    locations: z.array(LocationSchema).max(LIMITS.locations),
    items: z.array(ItemSchema).max(LIMITS.items),
    characters: z.array(CharacterSchema).max(LIMITS.characters),
    quests: z.array(QuestSchema).max(LIMITS.quests),
    /** Oldest first, spans never overlapping. */
    scenes: z.array(SceneSchema).max(LIMITS.scenes),
    /**
     * Scenes ending at or before this turn were dropped for space (-1: none): a new scene must start
     * after it, so a retried compaction cannot bring a dropped span back.
     */
    sceneFloor: z.number().int().min(-1),
  })
  .refine((model) => uniqueBy(model.locations, (location) => nameKey(location.name)), 'two locations share a name')
  .refine((model) => uniqueBy(model.items, (item) => nameKey(item.name)), 'two items share a name')
  .refine((model) => uniqueBy(model.characters, (character) => nameKey(character.name)), 'two characters share a name')
  .refine((model) => uniqueBy(model.quests, (quest) => nameKey(quest.title)), 'two quests share a title')
  .refine((model) => model.scenes.every((scene) => scene.from <= scene.to), 'a scene ends before it starts');
export type WorldModel = z.infer<typeof WorldModelSchema>;

export function emptyWorldModel(): WorldModel {
  return { turn: 0, score: 0, narrative: '', locations: [], items: [], characters: [], quests: [], scenes: [], sceneFloor: -1 };
}
