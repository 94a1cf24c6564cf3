/**
 * Go-Explore's return across episodes by room, under `valid` (see agent/returns.ts): the rooms
 * where an earlier episode made a first are walked back to over the room map, not reached by
 * replaying its world states (Zork I's later episodes walked 36 steps of the first one's detours,
 * the dam's buttons among them, to stand where it had stood). And a mapped move the list does not
 * offer where the player stands is out of the plans' map for the episode (Zork I's chimney).
 */
import { AgentState } from '../../src/agent/state';
import { cellMemory } from '../../src/agent/cellMemory';
import { createRng } from '../../src/agent/rng';
import { deliberate } from '../../src/agent/turn';
import { freshLearned, type LearnedState } from '../../src/agent/learned';
import { mergeLearned } from '../../src/agent/learnedMerge';
import { learnedAfter } from '../../src/agent/records';
import { triedKey } from '../../src/agent/policyContext';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { playedFrom, roomTruth, validStart } from './fixtures';

const valid = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'valid' });

/**
 * Earlier episodes' map: the Cellar (3) north to the Troll Room (4), east to the Passage (5), east
 * to the Round Room (6); the Cellar south to the Chasm (7), east to the Gallery (8), north to the
 * Studio (10), up the chimney to the Kitchen (11).
 */
const map = {
  '3': { north: 4, south: 7 },
  '4': { east: 5, south: 3 },
  '5': { east: 6, west: 4 },
  '7': { east: 8, north: 3 },
  '8': { north: 10, west: 7 },
  '10': { up: 11, south: 8 },
};

function inCellar(returnsToFrontierRooms: boolean, learned: LearnedState): AgentState {
  const cellar = { observation: 'Cellar. You are in a dark and damp cellar.', truth: roomTruth(3, 'Cellar'), worldHash: 'h-cellar' };
  const state = validStart(cellar, ['north', 'south'], learned);
  // Both ways out were taken from here already this episode, the Chasm left with moves untried.
  const tried = { [triedKey('h-cellar', 'north')]: 1, [triedKey('h-cellar', 'south')]: 1 };
  return { ...state, tried, open: [7], exits: { '3': { north: 4, south: 7 } }, returnsToFrontierRooms };
}

describe('returns to frontier rooms under valid', () => {
  const learned: LearnedState = { ...freshLearned(), roomMap: map, frontierRooms: [6] };

  it('with the flag, walks the room map toward the room an earlier episode made a first in', () => {
    expect(deliberate(inCellar(true, learned), valid, createRng(1))).toMatchObject({
      kind: 'decided',
      choice: { command: 'north', reason: 'return', why: 'back to where an earlier episode found something new, 3 steps away' },
    });
  });

  it('without it, walks back to the nearest room this episode left open, as before', () => {
    expect(deliberate(inCellar(false, learned), valid, createRng(1))).toMatchObject({
      kind: 'decided',
      choice: { command: 'south', reason: 'return', why: 'back to a room with untried moves, 1 step away' },
    });
  });

  it('no longer walks to a frontier room once this episode has made a command there', () => {
    const state = inCellar(true, learned);
    expect(cellMemory({ ...state, done: ['6|look'] }).frontierRooms).toEqual(new Set());
    expect(cellMemory(state).frontierRooms).toEqual(new Set([6]));
  });

  it('records the room of a first and passes the frontier on: earlier rooms not acted in again, then its own', () => {
    const start = inCellar(true, { ...freshLearned(), frontierRooms: [4, 8] });
    const troll = playedFrom(valid, start, 'north', { truth: roomTruth(4, 'Troll Room'), commands: ['east', 'south'] });
    expect(troll.discoveredRooms).toEqual([4]);
    const passage = playedFrom(valid, troll, 'east', { truth: roomTruth(5, 'East-West Passage'), commands: ['west'] });
    expect(passage.discoveredRooms).toEqual([4, 5]);
    // Room 4 was acted in (east from it): it leaves the carried frontier; 8 stays, then this episode's finds.
    expect(learnedAfter(passage).frontierRooms).toEqual([8, 4, 5]);
    const unpatched = playedFrom(valid, inCellar(false, freshLearned()), 'north', { truth: roomTruth(4, 'Troll Room') });
    expect(unpatched.discoveredRooms).toEqual([]);
    expect(learnedAfter(unpatched).frontierRooms).toBeUndefined();
  });

  it('merges the frontier rooms of episodes played side by side', () => {
    const merged = mergeLearned({ ...freshLearned(), frontierRooms: [4] }, freshLearned(), { ...freshLearned(), frontierRooms: [8, 4] });
    expect(merged.frontierRooms).toEqual([4, 8]);
  });

  it('leaves a mapped move the list does not offer where the player stands out of the plans for the episode', () => {
    const gallery = { ...inCellar(true, learned), truth: roomTruth(8, 'Gallery'), worldHash: 'h-gallery', commands: ['north', 'west'] };
    const studio = playedFrom(valid, gallery, 'north', { truth: roomTruth(10, 'Studio'), commands: ['south'] });
    expect(studio.closedMoves).toEqual({ '10': ['up'] });
    expect(cellMemory(studio).placePlans?.exits['10']).toEqual({ south: 8 });
    // Offered again when the player stands there again, it is a way again.
    const again = playedFrom(valid, studio, 'look', { truth: roomTruth(10, 'Studio'), commands: ['south', 'up'] });
    expect(again.closedMoves).toEqual({ '10': [] });
    expect(cellMemory(again).placePlans?.exits['10']).toEqual({ up: 11, south: 8 });
    const unpatched = playedFrom(valid, { ...gallery, returnsToFrontierRooms: false }, 'north', {
      truth: roomTruth(10, 'Studio'),
      commands: ['south'],
    });
    expect(cellMemory(unpatched).placePlans?.exits['10']).toEqual({ up: 11, south: 8 });
  });
});
