/**
 * Merging the compaction model's tool calls into the world model, with the engine's ground truth
 * winning. A call is dropped whole (and reported with its reason) when:
 *   - its tool is unknown, or its arguments fail the tool's schema;
 *   - it names nothing (a name, title or room that is empty once cleaned);
 *   - update_location: the room is not one the player has visited (engine facts, or a room already
 *     in the model from an earlier episode), or an exit's destination differs from where the player
 *     was seen to go by that command from that room;
 *   - update_item: it claims 'carried' for something the inventory does not hold (a shorter name of
 *     exactly one carried object counts as that object), or places an object whose exact name is in
 *     the inventory in a room or inside something; 'room' names a room the player has not visited;
 *     'inside' names no container, or the item itself;
 *   - update_character: it puts the player somewhere other than the engine's current room;
 *   - record_scene: the span is inverted or ends after the current turn, starts at or before the
 *     floor of scenes dropped for space, overlaps a recorded scene, or repeats a recorded span with
 *     different text; or it has neither a summary nor a narrative.
 * Then `withGroundTruth` writes the facts over whatever was merged.
 *
 * Pure and deterministic; applying the same calls to the result again changes nothing
 * (a retried activity cannot duplicate an item or a scene), because:
 *   - every entry is found by its nameKey, so an update finds what it made before;
 *   - every field an update sets is set to a value from the call or the facts (turn stamps are the
 *     facts' turn), and lists (exits, features, state words) move what they touch to the newest end,
 *     so a second pass leaves them as the first did;
 *   - a scene is identified by its turn span and never added twice;
 *   - the caps drop entries by a rank of their own fields (./bounds.ts), so what a call brings back
 *     is dropped again.
 */
import { describeZodError } from '../../schemas/describe';
import { boundWorldModel, newest } from './bounds';
import { EngineFacts, exitKey, itemName, KnownFacts, knownFacts, roomName } from './facts';
import { Character, exitCommand, Item, ItemPlace, LIMITS, Location, PLAYER_NAME, Quest, WorldModel } from './models';
import { cleanText, nameKey, resolveItemName } from './names';
import {
  COMPACTION_TOOLS,
  CompactionToolName,
  RecordSceneArgs,
  ToolCall,
  UpdateCharacterArgs,
  UpdateItemArgs,
  UpdateLocationArgs,
  UpdateQuestArgs,
} from './tools';

export { EngineFactsSchema, ObservedExitSchema } from './facts';
export type { EngineFacts, ObservedExit } from './facts';

export interface Rejection {
  call: ToolCall;
  reason: string;
}

export interface MergeResult {
  model: WorldModel;
  /** Calls merged (a call that changed nothing because it was already merged counts too). */
  applied: number;
  rejected: Rejection[];
}

type Outcome = { model: WorldModel } | { reason: string };
const reject = (reason: string): Outcome => ({ reason });

/** Replace the entry with `key` (or add one): `update` gets the existing entry, if any. */
function upsert<T>(entries: readonly T[], keyOf: (entry: T) => string, key: string, update: (existing: T | undefined) => T): T[] {
  const index = entries.findIndex((entry) => keyOf(entry) === key);
  if (index < 0) return [...entries, update(undefined)];
  return entries.map((entry, position) => (position === index ? update(entry) : entry));
}

/** Move `value` to the newest end of a list, replacing whatever shares its `slot`. */
function touch<T>(list: readonly T[], value: T, slot: (entry: T) => string): T[] {
  return [...list.filter((entry) => slot(entry) !== slot(value)), value];
}

const locationKey = (location: Location) => nameKey(location.name);
const itemKey = (item: Item) => nameKey(item.name);
const characterKey = (character: Character) => nameKey(character.name);
const questKey = (quest: Quest) => nameKey(quest.title);

const quoted = (text: string) => `"${cleanText(text, 60)}"`;

/** A room the player has been in, by its engine name (or the model's, for a room from an earlier episode). */
function knownRoom(name: string, model: WorldModel, facts: KnownFacts): string | null {
  const key = nameKey(name);
  if (!key) return null;
  return facts.rooms.get(key) ?? model.locations.find((location) => locationKey(location) === key)?.name ?? null;
}

const bareLocation = (name: string): Location => ({ name, description: '', exits: {}, features: [], lastVisitedTurn: 0 });

function withExit(location: Location, command: string, to: string): Location {
  // '' means "an exit, not yet taken": it never hides a destination already known.
  const destination = to || location.exits[command] || '';
  const entries = Object.entries(location.exits).filter(([known]) => known !== command);
  return { ...location, exits: Object.fromEntries([...entries, [command, destination]]) };
}

// ── update_location ─────────────────────────────────────────────────────────────────────────

function updateLocation(model: WorldModel, args: UpdateLocationArgs, facts: KnownFacts): Outcome {
  if (!nameKey(args.name)) return reject('the room has no name');
  const room = knownRoom(args.name, model, facts);
  if (!room) return reject(`${quoted(args.name)} is not a room the player has visited`);
  const exits: Array<[string, string]> = [];
  for (const exit of args.exits) {
    const command = exitCommand(exit.direction);
    if (!command) continue;
    const claimed = roomName(exit.leads_to);
    const observed = facts.exits.get(exitKey(room, command));
    if (observed && nameKey(claimed) && nameKey(claimed) !== nameKey(observed.to)) {
      return reject(`${command} from ${room} was seen to lead to ${observed.to}, not ${quoted(claimed)}`);
    }
    exits.push([command, observed?.to ?? knownRoom(claimed, model, facts) ?? claimed]);
  }
  const description = cleanText(args.description, LIMITS.description);
  const features = args.features.map((feature) => cleanText(feature, LIMITS.feature)).filter((feature) => nameKey(feature));
  const locations = upsert(model.locations, locationKey, nameKey(room), (existing) => {
    let location = existing ?? bareLocation(room);
    for (const [command, to] of exits) location = withExit(location, command, to);
    return {
      ...location,
      description: description || location.description,
      features: newest(
        features.reduce((list, feature) => touch(list, feature, nameKey), location.features),
        LIMITS.featuresPerRoom,
      ),
      exits: Object.fromEntries(newest(Object.entries(location.exits), LIMITS.exitsPerRoom)),
      lastVisitedTurn: Math.max(location.lastVisitedTurn, facts.turn),
    };
  });
  return { model: { ...model, locations } };
}

// ── update_item ─────────────────────────────────────────────────────────────────────────────

/** State words that answer the same question: a new one replaces its opposite. */
const STATE_SLOTS: Record<string, string> = {
  open: 'open',
  closed: 'open',
  shut: 'open',
  locked: 'locked',
  unlocked: 'locked',
  lit: 'lit',
  unlit: 'lit',
  dark: 'lit',
  on: 'on',
  off: 'on',
  full: 'full',
  empty: 'full',
  alive: 'alive',
  dead: 'alive',
  broken: 'broken',
  fixed: 'broken',
};
const stateSlot = (word: string) => STATE_SLOTS[word] ?? word;
const stateWord = (word: string) => nameKey(word).replace(/ /g, '-').slice(0, LIMITS.stateWord).replace(/-+$/, '');

function mergeState(state: readonly string[], words: readonly string[]): string[] {
  const cleaned = words.map(stateWord).filter(Boolean);
  return newest(
    cleaned.reduce((list, word) => touch(list, word, stateSlot), [...state]),
    LIMITS.stateWordsPerItem,
  );
}

/** Where the call says the item is, or why that cannot be. */
function claimedPlace(name: string, args: UpdateItemArgs, model: WorldModel, facts: KnownFacts): ItemPlace | null | string {
  const where = cleanText(args.where, LIMITS.placeName);
  if (args.where_kind === 'unknown') return null;
  if (args.where_kind === 'carried') return { kind: 'carried' };
  const room = knownRoom(where, model, facts);
  if (args.where_kind === 'room') {
    if (!nameKey(where)) return "an item in a room needs the room's name";
    return room ? { kind: 'room', name: room } : `${quoted(where)} is not a room the player has visited`;
  }
  if (!nameKey(where)) return 'an item inside something needs the name of that thing';
  if (nameKey(where) === nameKey(name)) return `${quoted(name)} cannot be inside itself`;
  // A small model sometimes says "inside" for a room: a visited room's name is a room.
  return room ? { kind: 'room', name: room } : { kind: 'inside', name: where };
}

const describePlace = (place: ItemPlace) =>
  place.kind === 'carried' || place.kind === 'unknown' ? place.kind : `${place.kind === 'room' ? 'in' : 'inside'} ${place.name}`;

function updateItem(model: WorldModel, args: UpdateItemArgs, facts: KnownFacts): Outcome {
  const claimedName = itemName(args.name);
  if (!nameKey(claimedName)) return reject('the item has no name');
  const place = claimedPlace(claimedName, args, model, facts);
  if (typeof place === 'string') return reject(place);
  // Only an exact name contradicts the inventory: "door" is not the carried "door key".
  const carriedExactly = facts.inventory.find((carried) => nameKey(carried) === nameKey(claimedName));
  let name = claimedName;
  if (carriedExactly !== undefined) {
    if (place && place.kind !== 'carried') return reject(`${carriedExactly} is in the inventory, not ${describePlace(place)}`);
    name = carriedExactly;
  } else if (place?.kind === 'carried') {
    // "sword" carried is the engine's "elvish sword": stored under the engine's name.
    const carried = resolveItemName(claimedName, facts.inventory);
    if (carried === null) return reject(`${quoted(claimedName)} is not in the inventory (${facts.inventory.join(', ') || 'empty'})`);
    name = carried;
  }
  const items = upsert(model.items, itemKey, nameKey(name), (existing) => ({
    name: existing?.name ?? name,
    where: place ?? existing?.where ?? { kind: 'unknown' },
    state: mergeState(existing?.state ?? [], args.state),
    lastSeenTurn: Math.max(existing?.lastSeenTurn ?? 0, facts.turn),
  }));
  return { model: { ...model, items } };
}

// ── update_character ────────────────────────────────────────────────────────────────────────

const PLAYER_NAMES = new Set([PLAYER_NAME, 'you', 'yourself', 'me', 'myself', 'self', 'i', 'adventurer', 'hero']);
export const isPlayerName = (name: string) => PLAYER_NAMES.has(nameKey(name));

function updateCharacter(model: WorldModel, args: UpdateCharacterArgs, facts: KnownFacts): Outcome {
  const player = isPlayerName(args.name);
  const name = player ? PLAYER_NAME : cleanText(args.name, LIMITS.characterName);
  if (!nameKey(name)) return reject('the character has no name');
  const where = cleanText(args.where, LIMITS.roomName);
  if (player && nameKey(where) && facts.here && nameKey(where) !== nameKey(facts.here)) {
    return reject(`the player is in ${facts.here}, not ${quoted(where)}`);
  }
  const status = cleanText(args.status, LIMITS.characterStatus);
  const attitude = cleanText(args.attitude, LIMITS.attitude);
  const wants = cleanText(args.wants, LIMITS.wants);
  const characters = upsert(model.characters, characterKey, nameKey(name), (existing) => ({
    name: existing?.name ?? name,
    where: (nameKey(where) && (knownRoom(where, model, facts) ?? where)) || existing?.where || '',
    status: status || existing?.status || '',
    attitude: attitude || existing?.attitude || '',
    wants: wants || existing?.wants || '',
    lastSeenTurn: Math.max(existing?.lastSeenTurn ?? 0, facts.turn),
  }));
  return { model: { ...model, characters } };
}

// ── update_quest ────────────────────────────────────────────────────────────────────────────

function updateQuest(model: WorldModel, args: UpdateQuestArgs, facts: KnownFacts): Outcome {
  const title = cleanText(args.title, LIMITS.questTitle);
  if (!nameKey(title)) return reject('the quest has no title');
  const blockedBy = cleanText(args.blocked_by, LIMITS.blockedBy);
  const quests = upsert(model.quests, questKey, nameKey(title), (existing) => ({
    title: existing?.title ?? title,
    status: args.status,
    blockedBy: args.status === 'blocked' ? blockedBy || (existing?.status === 'blocked' ? existing.blockedBy : '') : '',
    updatedTurn: Math.max(existing?.updatedTurn ?? 0, facts.turn),
  }));
  return { model: { ...model, quests } };
}

// ── record_scene ────────────────────────────────────────────────────────────────────────────

function recordScene(model: WorldModel, args: RecordSceneArgs, facts: KnownFacts): Outcome {
  const { from_turn: from, to_turn: to } = args;
  if (from > to || to > facts.turn) return reject(`turns ${from}-${to} are not a span of played turns (the game is at turn ${facts.turn})`);
  const summary = cleanText(args.summary, LIMITS.sceneSummary);
  const outcome = cleanText(args.outcome, LIMITS.sceneOutcome);
  const narrative = cleanText(args.narrative, LIMITS.narrative);
  if (!summary && !narrative) return reject('the scene has neither a summary nor a narrative');
  let scenes = model.scenes;
  if (summary) {
    if (from <= model.sceneFloor) return reject(`turns up to ${model.sceneFloor} were summarised already`);
    const same = scenes.find((scene) => scene.from === from && scene.to === to);
    if (same && (same.summary !== summary || same.outcome !== outcome))
      return reject(`a scene for turns ${from}-${to} is already recorded`);
    const overlapping = scenes.find((scene) => scene !== same && scene.from <= to && from <= scene.to);
    if (overlapping) return reject(`turns ${from}-${to} overlap the scene for turns ${overlapping.from}-${overlapping.to}`);
    if (!same) scenes = [...scenes, { from, to, summary, outcome }].sort((left, right) => left.from - right.from);
  }
  return { model: { ...model, scenes, narrative: narrative || model.narrative } };
}

// ── dispatch ────────────────────────────────────────────────────────────────────────────────

type Updater = (model: WorldModel, args: unknown, facts: KnownFacts) => Outcome;

function updater<Args>(name: CompactionToolName, apply: (model: WorldModel, args: Args, facts: KnownFacts) => Outcome): Updater {
  const schema = COMPACTION_TOOLS.find((tool) => tool.name === name)!.schema;
  return (model, args, facts) => {
    const parsed = schema.safeParse(args);
    if (!parsed.success) return reject(`arguments do not fit ${name}: ${describeZodError(parsed.error)}`);
    return apply(model, parsed.data as Args, facts);
  };
}

const UPDATERS: Record<CompactionToolName, Updater> = {
  update_location: updater('update_location', updateLocation),
  update_item: updater('update_item', updateItem),
  update_character: updater('update_character', updateCharacter),
  update_quest: updater('update_quest', updateQuest),
  record_scene: updater('record_scene', recordScene),
};

const isToolName = (tool: string): tool is CompactionToolName => Object.hasOwn(UPDATERS, tool);

/**
 * Merge `calls` in order (a later call about the same thing wins), drop each call that
 * contradicts the engine's facts or fails its schema (with the reason), then write the facts over
 * the result (`withGroundTruth`).
 */
export function applyToolCalls(model: WorldModel, calls: readonly ToolCall[], facts: EngineFacts): MergeResult {
  const known = knownFacts(facts);
  const rejected: Rejection[] = [];
  let merged = model;
  for (const call of calls) {
    const outcome = isToolName(call.tool)
      ? UPDATERS[call.tool](merged, call.arguments, known)
      : reject(`no tool is called ${quoted(String(call.tool))}`);
    if ('reason' in outcome) rejected.push({ call, reason: outcome.reason });
    else merged = outcome.model;
  }
  return { model: withGroundTruth(merged, facts), applied: calls.length - rejected.length, rejected };
}

// ── ground truth ────────────────────────────────────────────────────────────────────────────

function groundTruthLocations(locations: readonly Location[], facts: KnownFacts): Location[] {
  const byKey = new Map(locations.map((location) => [locationKey(location), location]));
  for (const [key, room] of facts.rooms) if (!byKey.has(key)) byKey.set(key, bareLocation(room));
  for (const exit of facts.exits.values()) {
    const from = byKey.get(nameKey(exit.from))!;
    byKey.set(nameKey(exit.from), withExit(from, exit.command, exit.to));
  }
  const hereKey = nameKey(facts.here);
  const here = byKey.get(hereKey);
  if (here) byKey.set(hereKey, { ...here, lastVisitedTurn: Math.max(here.lastVisitedTurn, facts.turn) });
  return [...byKey.values()];
}

/**
 * Carried items are what the inventory says: each is marked carried (an entry the model kept under
 * a shorter name of it, like "sword" for "elvish sword", is folded into the engine's name), and an
 * item marked carried that the inventory no longer holds becomes 'unknown' — the engine does not
 * say where it went, and a guess would be a claim nobody made.
 */
function groundTruthItems(items: readonly Item[], facts: KnownFacts): Item[] {
  const carriedBy = new Map<string, Item>();
  const others: Item[] = [];
  for (const item of items) {
    const engineName =
      facts.inventory.find((carried) => nameKey(carried) === itemKey(item)) ??
      (item.where.kind === 'carried' ? resolveItemName(item.name, facts.inventory) : null);
    if (engineName === null || engineName === undefined) {
      others.push(item.where.kind === 'carried' ? { ...item, where: { kind: 'unknown' } } : item);
      continue;
    }
    const key = nameKey(engineName);
    const folded = carriedBy.get(key);
    carriedBy.set(key, {
      name: engineName,
      where: { kind: 'carried' },
      state: folded ? mergeState(folded.state, item.state) : item.state,
      lastSeenTurn: Math.max(folded?.lastSeenTurn ?? 0, item.lastSeenTurn, facts.turn),
    });
  }
  for (const carried of facts.inventory) {
    if (!carriedBy.has(nameKey(carried)))
      carriedBy.set(nameKey(carried), { name: carried, where: { kind: 'carried' }, state: [], lastSeenTurn: facts.turn });
  }
  return [...others, ...carriedBy.values()];
}

function groundTruthPlayer(characters: readonly Character[], facts: KnownFacts): Character[] {
  return upsert(characters, characterKey, PLAYER_NAME, (existing) => ({
    name: PLAYER_NAME,
    where: facts.here || existing?.where || '',
    status: existing?.status ?? '',
    attitude: existing?.attitude ?? '',
    wants: existing?.wants ?? '',
    lastSeenTurn: Math.max(existing?.lastSeenTurn ?? 0, facts.turn),
  }));
}

/**
 * The engine's facts written over the model: every visited room exists, every observed exit is
 * recorded, carried items are marked carried (and items no longer carried are 'unknown'), the
 * player is where the engine says, the score is the engine's; then the caps are applied.
 */
export function withGroundTruth(model: WorldModel, facts: EngineFacts): WorldModel {
  const known = knownFacts(facts);
  const grounded: WorldModel = {
    ...model,
    turn: Math.max(model.turn, known.turn),
    score: known.score,
    locations: groundTruthLocations(model.locations, known),
    items: groundTruthItems(model.items, known),
    characters: groundTruthPlayer(model.characters, known),
  };
  return boundWorldModel(grounded, known.here);
}
