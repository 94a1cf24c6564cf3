/**
 * The updater tools the compaction model calls (seed 001's character, NPC, environment, quest,
 * item and scene/narrative updaters), one per part of the world model. Arguments are flat, every
 * field is required ('' or [] for "nothing to say") and lengths are capped: a 270M-parameter model
 * fills them under a JSON grammar, and a grammar cannot leave a field out. Each tool's description
 * is what that model reads, so it is short and concrete.
 */
import { z } from 'zod';
import { LIMITS, QuestStatusSchema } from './models';

/** What the compaction model is told it does (its system prompt; the free-text screen also checks answers against it). */
export const COMPACTION_SYSTEM_PROMPT =
  'You keep the record of a text adventure game. Read the NEW TURNS and call the tools to record what they show: ' +
  'rooms with their exits, items and where they are, characters, goals, and one summary ' +
  'of the scene. Record only what the turns say; skip what the record already holds.';

const text = (max: number) => z.string().max(max);

export const UpdateLocationArgsSchema = z.object({
  name: text(LIMITS.roomName).describe('the room name as the game prints it'),
  description: text(LIMITS.description).describe("one line: what the room is like, or ''"),
  exits: z
    .array(
      z.object({
        direction: text(LIMITS.command).describe('north, up, in...'),
        leads_to: text(LIMITS.roomName).describe("room it leads to, or '' if not yet taken"),
      }),
    )
    .max(LIMITS.exitsPerRoom),
  features: z.array(text(LIMITS.feature)).max(LIMITS.featuresPerRoom).describe('notable fixed things: door, altar, trophy case'),
});
export type UpdateLocationArgs = z.infer<typeof UpdateLocationArgsSchema>;

export const ItemWhereKindSchema = z.enum(['carried', 'room', 'inside', 'unknown']);

export const UpdateItemArgsSchema = z.object({
  name: text(LIMITS.itemName),
  where_kind: ItemWhereKindSchema.describe('carried: the player holds it; room: lying in a room; inside: in or on another object; unknown'),
  where: text(LIMITS.placeName).describe("the room name (room) or the other object's name (inside), else ''"),
  state: z.array(text(LIMITS.stateWord)).max(LIMITS.stateWordsPerItem).describe('single words: open, closed, lit, locked'),
});
export type UpdateItemArgs = z.infer<typeof UpdateItemArgsSchema>;

export const UpdateCharacterArgsSchema = z.object({
  name: text(LIMITS.characterName).describe("a person or creature; 'player' for yourself"),
  where: text(LIMITS.roomName).describe("room they were last seen in, or ''"),
  status: text(LIMITS.characterStatus).describe("e.g. asleep, wounded, dead, or ''"),
  attitude: text(LIMITS.attitude).describe("friendly, hostile, neutral, or ''"),
  wants: text(LIMITS.wants).describe("what they want, or ''"),
});
export type UpdateCharacterArgs = z.infer<typeof UpdateCharacterArgsSchema>;

export const UpdateQuestArgsSchema = z.object({
  title: text(LIMITS.questTitle).describe('the goal, e.g. open the grating'),
  status: QuestStatusSchema,
  blocked_by: text(LIMITS.blockedBy).describe("what stops it when blocked, else ''"),
});
export type UpdateQuestArgs = z.infer<typeof UpdateQuestArgsSchema>;

export const RecordSceneArgsSchema = z.object({
  from_turn: z.number().int().min(0),
  to_turn: z.number().int().min(0),
  summary: text(LIMITS.sceneSummary).describe('what happened in these turns'),
  outcome: text(LIMITS.sceneOutcome).describe("how it ended: found, lost, learned; or ''"),
  narrative: text(LIMITS.narrative).describe("the whole story so far in at most 3 sentences, or '' to keep it"),
});
export type RecordSceneArgs = z.infer<typeof RecordSceneArgsSchema>;

const tool = <Name extends string, Schema extends z.ZodObject>(name: Name, description: string, schema: Schema) => ({
  name,
  description,
  schema,
});

const UPDATE_LOCATION = tool(
  'update_location',
  'Record a room you have been in: a one-line description, its exits (direction and the room it leads to) and notable fixed things.',
  UpdateLocationArgsSchema,
);
const UPDATE_ITEM = tool(
  'update_item',
  'Record where an object is now (carried, in a room, inside another object) and its state words.',
  UpdateItemArgsSchema,
);
const UPDATE_CHARACTER = tool(
  'update_character',
  "Record a person or creature, or the player: where they are, their status, attitude and what they want. Use '' for unknown.",
  UpdateCharacterArgsSchema,
);
const UPDATE_QUEST = tool(
  'update_quest',
  'Record a goal or puzzle: its title, whether it is open, done or blocked, and what blocks it.',
  UpdateQuestArgsSchema,
);
const RECORD_SCENE = tool(
  'record_scene',
  'Summarise the turns from_turn to to_turn (what happened, how it ended) and rewrite the story so far.',
  RecordSceneArgsSchema,
);

export const COMPACTION_TOOLS = [UPDATE_LOCATION, UPDATE_ITEM, UPDATE_CHARACTER, UPDATE_QUEST, RECORD_SCENE] as const;

export type CompactionToolName = (typeof COMPACTION_TOOLS)[number]['name'];

/** One tool call as the LLM layer hands it over; arguments are checked by the merge, not here. */
export const ToolCallSchema = z.object({ tool: z.string(), arguments: z.unknown() });
export type ToolCall = z.infer<typeof ToolCallSchema>;

/** Most calls one compaction may make: five turns rarely change more than this. */
export const MAX_CALLS_PER_COMPACTION = 16;

/**
 * One structured answer holding a batch of calls, for a provider without a tools API (the local
 * model under a grammar): `{ calls: [{ tool: 'update_item', arguments: {...} }, ...] }`.
 */
const callOf = <Name extends string, Schema extends z.ZodObject>(updater: { name: Name; schema: Schema }) =>
  z.object({ tool: z.literal(updater.name), arguments: updater.schema });

export const CompactionCallsSchema = z.object({
  calls: z
    .array(
      z.discriminatedUnion('tool', [
        callOf(UPDATE_LOCATION),
        callOf(UPDATE_ITEM),
        callOf(UPDATE_CHARACTER),
        callOf(UPDATE_QUEST),
        callOf(RECORD_SCENE),
      ]),
    )
    .max(MAX_CALLS_PER_COMPACTION),
});
export type CompactionCalls = z.infer<typeof CompactionCallsSchema>;
