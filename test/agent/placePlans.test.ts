/**
 * Plans by place, under `valid` (see agent/placePlans.ts): an earlier episode's scoring replayed by
 * room. The dynamics model plans over exact world states, so Zork I's later episodes walked the
 * first one's detours, 54 turns to 44 points, with half the episode left for anything new.
 */
import { createRng } from '../../src/agent/rng';
import { AgentState } from '../../src/agent/state';
import { decide, deliberate } from '../../src/agent/turn';
import { freshLearned, type LearnedState, type PayingVisit } from '../../src/agent/learned';
import { mergeLearned } from '../../src/agent/learnedMerge';
import { mergedMaps, nextOfVisit, type PlacePlanning, visitKey, withMappedMove, withPayingVisit } from '../../src/agent/placePlans';
import { placeStep } from '../../src/agent/placeStep';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { playedFrom, roomTruth, validStart } from './fixtures';

const valid = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'valid' });

const egg: PayingVisit = { room: 9, commands: ['take egg'], reward: 5, lit: [] };
const cellar: PayingVisit = {
  room: 3,
  commands: ['take brass lantern', 'turn on brass lantern', 'open trap door', 'down'],
  reward: 25,
  lit: ['brass lantern'],
};
/** West of House (1) -> north (2) -> up (9, the tree); West of House -> east (3, the living room, nearer). */
const map = { '1': { north: 2, east: 3 }, '2': { up: 9, south: 1 }, '9': { down: 2 }, '3': { west: 1 } };

describe('paying visits and the room map', () => {
  it('keeps visits in the order they were paid, a shorter visit taking the place of a longer one', () => {
    const long = { ...egg, commands: ['look', 'climb tree', 'take egg'] };
    const visits = withPayingVisit(withPayingVisit([], long), cellar);
    expect(visits.map(visitKey)).toEqual(['9|take egg', '3|down']);
    expect(withPayingVisit(visits, egg)).toEqual([egg, cellar]);
    expect(withPayingVisit([egg, cellar], long)).toEqual([egg, cellar]);
  });

  it('maps a move, the newer map winning where both have one', () => {
    expect(withMappedMove({}, 1, 'north', 2)).toEqual({ '1': { north: 2 } });
    expect(mergedMaps({ '1': { north: 2, east: 3 } }, { '1': { north: 4 } })).toEqual({ '1': { north: 4, east: 3 } });
  });

  it("a visit's next command: in order, offered now, not made since arriving, the paying one only with its light carried", () => {
    const listed = new Set(['take brass lantern', 'open trap door', 'down']);
    expect(nextOfVisit(cellar, listed, [], new Set())).toBe('take brass lantern');
    expect(nextOfVisit(cellar, listed, ['take brass lantern'], new Set())).toBe('open trap door');
    expect(nextOfVisit(cellar, listed, ['take brass lantern', 'open trap door'], new Set())).toBeNull();
    // Its light not lit: the list's offer to light it comes before the paying move.
    expect(nextOfVisit(cellar, new Set([...listed, 'light brass lantern']), ['take brass lantern', 'open trap door'], new Set())).toBe(
      'light brass lantern',
    );
    expect(nextOfVisit(cellar, listed, ['take brass lantern', 'open trap door'], new Set(['brass lantern']))).toBe('down');
  });
});

describe('placeStep', () => {
  const planning = (pending: PayingVisit[], lit: string[] = []): PlacePlanning => ({
    pending,
    visit: [],
    lit: new Set(lit),
    exits: map,
    madeHere: () => 0,
  });
  const everything = () => true;

  it('walks to the first visit paid before, not the nearest (the trap door shuts behind the player)', () => {
    expect(placeStep(planning([egg, cellar]), 1, new Set(['north', 'east']), everything)?.command).toBe('north');
    expect(placeStep(planning([cellar, egg]), 1, new Set(['north', 'east']), everything)?.command).toBe('east');
  });

  it("in a visit's room, makes its next command", () => {
    expect(placeStep(planning([egg]), 9, new Set(['take egg', 'down']), everything)).toEqual({
      command: 'take egg',
      why: 'where an earlier episode scored +5',
    });
  });

  it('does not walk to a visit whose light is neither carried nor taken there', () => {
    const gallery: PayingVisit = { room: 9, commands: ['take painting'], reward: 4, lit: ['brass lantern'] };
    expect(placeStep(planning([gallery]), 1, new Set(['north']), everything)).toBeNull();
    expect(placeStep(planning([gallery], ['brass lantern']), 1, new Set(['north']), everything)?.command).toBe('north');
  });

  it('does not route by a move made too often here this episode, nor one the list does not offer', () => {
    expect(placeStep({ ...planning([egg]), madeHere: () => 6 }, 1, new Set(['north']), everything)).toBeNull();
    expect(placeStep(planning([egg]), 1, new Set(['north']), (command) => command !== 'north')).toBeNull();
  });
});

function westOfHouse(plansByPlace: boolean, learned: LearnedState): AgentState {
  const west = {
    observation: 'West of House. You are standing in an open field west of a white house.',
    truth: roomTruth(1, 'West of House'),
    worldHash: 'h-west',
  };
  return { ...validStart(west, ['north', 'east', 'open small mailbox', 'south'], learned), plansByPlace };
}

const choices = (state: AgentState) =>
  new Set([1, 2, 3, 4, 5, 6].map((seed) => decide(state, valid, createRng(seed), deliberate(state, valid, createRng(seed)), null).command));

describe('plans by place under valid', () => {
  const learned = { ...freshLearned(), payingVisits: [egg, cellar], roomMap: map };

  it('with the flag, an episode walks to where an earlier one scored first', () => {
    expect(choices(westOfHouse(true, learned))).toEqual(new Set(['north']));
  });

  it('without it, the untried commands are chosen as before', () => {
    expect(choices(westOfHouse(false, learned)).size).toBeGreaterThan(1);
  });

  it('learns a move that changed rooms and a visit that scored, with the flag only', () => {
    const start = westOfHouse(true, freshLearned());
    const north = playedFrom(valid, start, 'north', { truth: roomTruth(2, 'North of House'), commands: ['up', 'south'] });
    expect(north.learned.roomMap).toEqual({ '1': { north: 2 } });
    expect(north.visit).toEqual([]);
    const looked = playedFrom(valid, north, 'examine tree', { truth: roomTruth(2, 'North of House'), commands: ['up', 'south'] });
    expect(looked.visit).toEqual(['examine tree']);
    const scored = playedFrom(valid, looked, 'take egg', { truth: { ...roomTruth(2, 'North of House'), score: 5 }, commands: ['up'] });
    expect(scored.learned.payingVisits).toEqual([{ room: 2, commands: ['examine tree', 'take egg'], reward: 5, lit: [] }]);
    const unpatched = playedFrom(valid, westOfHouse(false, freshLearned()), 'north', { truth: roomTruth(2, 'North of House') });
    expect(unpatched.learned.roomMap).toBeUndefined();
  });

  it('gives up a visit whose room offers none of its commands, and merges what episodes learned', () => {
    const there = playedFrom(valid, westOfHouse(true, learned), 'east', { truth: roomTruth(3, 'Living Room'), commands: ['west'] });
    expect(there.plansGivenUp).toEqual(['3|down']);
    const finished = { ...freshLearned(), payingVisits: [cellar], roomMap: { '3': { west: 1 } } };
    const merged = mergeLearned({ ...freshLearned(), payingVisits: [egg], roomMap: { '1': { north: 2 } } }, freshLearned(), finished);
    expect(merged.payingVisits).toEqual([egg, cellar]);
    expect(merged.roomMap).toEqual({ '1': { north: 2 }, '3': { west: 1 } });
  });
});
