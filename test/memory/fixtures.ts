/** A small Zork-like world for the compaction tests: facts the engine would report, and call builders. */
import type { EngineFacts } from '../../src/memory/compaction/merge';
import type { ToolCall } from '../../src/memory/compaction/tools';

export const facts = (over: Partial<EngineFacts> = {}): EngineFacts => ({
  turn: 10,
  location: 'Kitchen',
  inventory: ['brass lantern', 'elvish sword'],
  score: 10,
  visitedRooms: ['West of House', 'North of House', 'Behind House', 'Kitchen'],
  exits: [
    { from: 'West of House', command: 'north', to: 'North of House' },
    { from: 'North of House', command: 'east', to: 'Behind House' },
    { from: 'Behind House', command: 'west', to: 'Kitchen' },
  ],
  ...over,
});

export const call = (tool: string, args: unknown): ToolCall => ({ tool, arguments: args });

export const location = (name: string, over: Record<string, unknown> = {}) =>
  call('update_location', { name, description: '', exits: [], features: [], ...over });

export const item = (name: string, whereKind: 'carried' | 'room' | 'inside' | 'unknown', where = '', state: string[] = []) =>
  call('update_item', { name, where_kind: whereKind, where, state });

export const character = (name: string, over: Record<string, unknown> = {}) =>
  call('update_character', { name, where: '', status: '', attitude: '', wants: '', ...over });

export const quest = (title: string, status: 'open' | 'done' | 'blocked', blockedBy = '') =>
  call('update_quest', { title, status, blocked_by: blockedBy });

export const scene = (from: number, to: number, summary: string, over: Record<string, unknown> = {}) =>
  call('record_scene', { from_turn: from, to_turn: to, summary, outcome: '', narrative: '', ...over });
