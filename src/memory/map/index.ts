/**
 * The map: rooms the player has been in and where each move out of them led, straight from the
 * engine's ground truth (no LLM, so nothing to verify). It is carried from episode to episode,
 * and tells the oracle which exits from here lead somewhere already known.
 */
import { z } from 'zod';
import { defineMemoryModule } from '../module';

export const MAX_ROOMS = 200;
export const MAX_EXITS_PER_ROOM = 12;

export const MapStateSchema = z.object({
  /** room name -> command -> room it led to */
  rooms: z.record(z.string(), z.record(z.string(), z.string())),
});
export type MapState = z.infer<typeof MapStateSchema>;

function withRoom(map: MapState, room: string): MapState {
  if (!room || map.rooms[room]) return map;
  const rooms = { ...map.rooms, [room]: {} };
  const names = Object.keys(rooms);
  for (let i = 0; i < names.length - MAX_ROOMS; i++) delete rooms[names[i]];
  return { rooms };
}

export function recordExit(map: MapState, from: string, command: string, to: string): MapState {
  const withBoth = withRoom(withRoom(map, from), to);
  const exits = withBoth.rooms[from];
  if (!exits || exits[command] === to) return withBoth;
  const next = { ...exits, [command]: to };
  const commands = Object.keys(next);
  for (let i = 0; i < commands.length - MAX_EXITS_PER_ROOM; i++) delete next[commands[i]];
  return { rooms: { ...withBoth.rooms, [from]: next } };
}

export const mapModule = defineMemoryModule<MapState, never, never>({
  name: 'map',
  schema: MapStateSchema,
  initial: (inherited) => inherited ?? { rooms: {} },
  observe(map, view) {
    const here = view.truth.location.name;
    const there = view.before?.location.name;
    if (view.command && there && here && there !== here) return recordExit(map, there, view.command, here);
    return withRoom(map, here);
  },
  activities: [],
  due: () => null,
  apply: (map) => map,
  describe(map) {
    const rooms = Object.entries(map.rooms);
    if (!rooms.length) return 'no rooms yet';
    return rooms
      .map(
        ([room, exits]) =>
          `${room}: ${
            Object.entries(exits)
              .map(([command, to]) => `${command} -> ${to}`)
              .join('; ') || 'no exits taken'
          }`,
      )
      .join('\n');
  },
  render(map, view, budgetTokens) {
    const exits = Object.entries(map.rooms[view.truth.location.name] ?? {});
    if (!exits.length) return '';
    const line = `KNOWN EXITS: ${exits.map(([command, room]) => `${command} -> ${room}`).join('; ')}`;
    return line.length <= budgetTokens * 4 ? line : `${line.slice(0, budgetTokens * 4 - 5)} ...`;
  },
});
