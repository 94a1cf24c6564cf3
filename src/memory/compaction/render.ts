/**
 * The world model as a section of the LLM's context: compact text, most useful first. Each line
 * carries a priority; when the budget (about 4 characters a token) cannot hold everything, whole
 * lines are dropped from the least relevant up — a line is never cut, since half a room name
 * misleads more than a missing one.
 */
import { Item, Location, PLAYER_NAME, WorldModel } from './models';
import { nameKey } from './names';

export interface RenderOptions {
  /** The room the player is in. */
  here: string;
  budgetTokens: number;
}

export const CHARS_PER_TOKEN = 4;

/** Lower is more relevant. Other rooms come last, nearest in time first. */
const PRIORITY = { here: 0, exits: 1, carried: 2, nearby: 3, quests: 4, narrative: 5, people: 6, scene: 6, otherRooms: 7 } as const;

interface Line {
  text: string;
  priority: number;
}

const exitsText = (location: Location) =>
  Object.entries(location.exits)
    .map(([command, to]) => `${command} -> ${to || '?'}`)
    .join(', ');

const itemText = (item: Item) => (item.state.length ? `${item.name} (${item.state.join(', ')})` : item.name);

/** Items in this room or carried, and (to a few levels) what is inside them. */
function itemsAround(items: readonly Item[], hereKey: string): { carried: Item[]; nearby: Item[] } {
  const carried = items.filter((item) => item.where.kind === 'carried');
  const nearby = items.filter((item) => item.where.kind === 'room' && nameKey(item.where.name) === hereKey);
  const reachable = new Set([...carried, ...nearby].map((item) => nameKey(item.name)));
  for (let depth = 0; depth < 3; depth++) {
    for (const item of items) {
      if (item.where.kind !== 'inside' || reachable.has(nameKey(item.name)) || !reachable.has(nameKey(item.where.name))) continue;
      nearby.push(item);
      reachable.add(nameKey(item.name));
    }
  }
  return { carried, nearby };
}

function lines(model: WorldModel, here: string): Line[] {
  const hereKey = nameKey(here);
  const room = model.locations.find((location) => nameKey(location.name) === hereKey);
  const result: Line[] = [];
  const add = (priority: number, text: string) => result.push({ text, priority });

  if (here) add(PRIORITY.here, `HERE: ${room?.name ?? here}${room?.description ? ` - ${room.description}` : ''}`);
  if (room && Object.keys(room.exits).length) add(PRIORITY.exits, `EXITS: ${exitsText(room)}`);
  const { carried, nearby } = itemsAround(model.items, hereKey);
  if (carried.length) add(PRIORITY.carried, `CARRYING: ${carried.map(itemText).join(', ')}`);
  const player = model.characters.find((character) => character.name === PLAYER_NAME);
  if (player?.status) add(PRIORITY.carried, `YOU: ${player.status}`);
  if (room?.features.length) add(PRIORITY.nearby, `FEATURES: ${room.features.join(', ')}`);
  for (const item of nearby)
    add(PRIORITY.nearby, `NEARBY: ${itemText(item)}${item.where.kind === 'inside' ? ` (in ${item.where.name})` : ''}`);
  const others = model.characters.filter((character) => character.name !== PLAYER_NAME);
  for (const character of others.filter((other) => hereKey && nameKey(other.where) === hereKey)) {
    add(
      PRIORITY.nearby,
      `HERE TOO: ${character.name}${[character.status, character.attitude]
        .filter(Boolean)
        .map((word) => `, ${word}`)
        .join('')}${character.wants ? `; wants ${character.wants}` : ''}`,
    );
  }

  const quests = model.quests.filter((quest) => quest.status !== 'done').sort((left, right) => right.updatedTurn - left.updatedTurn);
  for (const quest of quests)
    add(
      PRIORITY.quests,
      `QUEST: ${quest.title}${quest.status === 'blocked' ? ` [blocked${quest.blockedBy ? `: ${quest.blockedBy}` : ''}]` : ''}`,
    );
  if (model.narrative) add(PRIORITY.narrative, `STORY: ${model.narrative}`);
  const lastScene = model.scenes[model.scenes.length - 1];
  if (lastScene)
    add(
      PRIORITY.scene,
      `LAST SCENE (turns ${lastScene.from}-${lastScene.to}): ${lastScene.summary}${lastScene.outcome ? ` -> ${lastScene.outcome}` : ''}`,
    );
  for (const character of others.filter((other) => !hereKey || nameKey(other.where) !== hereKey)) {
    const details = [
      character.where && `in ${character.where}`,
      character.status,
      character.attitude,
      character.wants && `wants ${character.wants}`,
    ].filter(Boolean);
    add(PRIORITY.people, `PERSON: ${character.name}${details.length ? ` (${details.join('; ')})` : ''}`);
  }

  const otherRooms = model.locations
    .filter((location) => nameKey(location.name) !== hereKey)
    .sort((left, right) => right.lastVisitedTurn - left.lastVisitedTurn);
  otherRooms.forEach((location, position) => {
    const exits = exitsText(location);
    const details = [location.description, exits && `exits ${exits}`].filter(Boolean).join('; ');
    // Each older room a little less relevant than the one before it.
    add(PRIORITY.otherRooms + position, `ROOM ${location.name}${details ? `: ${details}` : ''}`);
  });
  return result;
}

export function renderWorldModel(model: WorldModel, options: RenderOptions): string {
  const candidates = lines(model, options.here);
  let remaining = Math.max(0, Math.floor(options.budgetTokens * CHARS_PER_TOKEN));
  const kept = new Set<Line>();
  // Most relevant first; a line that does not fit is skipped, and a shorter, less relevant one may still fit.
  for (const line of [...candidates].sort((left, right) => left.priority - right.priority)) {
    const cost = line.text.length + (kept.size ? 1 : 0);
    if (cost > remaining) continue;
    kept.add(line);
    remaining -= cost;
  }
  return candidates
    .filter((line) => kept.has(line))
    .map((line) => line.text)
    .join('\n');
}
