/**
 * A light before the dark, under `valid` (see agent/lighting.ts). Zork I's explorer lit the lantern
 * on the living-room floor, left it there and went down into the dark cellar, where a grue ate it
 * (or, with the moves there learned deadly, it typed "again" for fifty turns), episode after
 * episode: a campaign of ten scored 35 at best. A thing lit is now taken before anything else, and
 * once a room has been dark, lighting goes first.
 */
import { createRng } from '../../src/agent/rng';
import { AgentState } from '../../src/agent/state';
import { decide, deliberate } from '../../src/agent/turn';
import { freshLearned } from '../../src/agent/learned';
import { lightingFirst, litBy, litThing } from '../../src/agent/lighting';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import type { GameState } from '../../src/schemas/game';
import { playedFrom, roomTruth, validStart } from './fixtures';

const valid = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'valid' });

function livingRoom(lightsFirst: boolean, commands: string[], darkRooms: string[] = []): AgentState {
  const living = {
    observation: 'Living Room. A battery-powered brass lantern is on the trophy case.',
    truth: { ...roomTruth(3, 'Living Room'), inventory: [{ id: 40, name: 'sword' }] },
    worldHash: 'h-living',
  };
  return { ...validStart(living, commands, { ...freshLearned(), darkRooms }), lightsFirst };
}

/** What the explorer chooses from `state` with each of a few seeds. */
const choices = (state: AgentState) =>
  new Set(
    [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => decide(state, valid, createRng(seed), deliberate(state, valid, createRng(seed)), null).command),
  );

const played = (state: AgentState, command: string, next: Partial<GameState>) => playedFrom(valid, state, command, next);

describe('what a command lights', () => {
  it.each([
    ['light brass lantern', 'brass lantern'],
    ['turn on brass lantern with sword', 'brass lantern'],
    ['switch on torch', 'torch'],
    ['activate lamp', 'lamp'],
    ['take lamp', null],
    ['turn off lamp', null],
  ])('%s', (command, thing) => expect(litBy(command)).toBe(thing));
});

describe('what a reply says was lit', () => {
  it.each([
    ['turn on brass lantern with sword', 'The brass lantern is now on.', 'brass lantern'],
    ['switch on lamp', 'You switch the brass lamp on.', 'lamp'],
    ['light torch', 'The torch is now lit.', 'torch'],
    ['turn on note', "You can't turn that on.", null],
    ['light lamp', 'This dangerous act would achieve little.', null],
    ['take lamp', 'Taken. The lamp is now on.', null],
  ])('%s: %s', (command, reply, thing) => expect(litThing(command, reply)).toBe(thing));
});

describe('lightingFirst', () => {
  const none = { darkKnown: false, lit: new Set<string>(), carried: new Set<string>(), triedToLight: new Set<string>() };
  it('takes a thing lit and left behind, by name, else by "take all"', () => {
    const lit = { ...none, lit: new Set(['brass lantern']) };
    expect(lightingFirst(['east', 'take brass lantern', 'take all'], lit)).toEqual(['take brass lantern']);
    expect(lightingFirst(['east', 'take all', 'push all'], lit)).toEqual(['take all']);
    expect(lightingFirst(['east', 'take all'], { ...lit, carried: new Set(['brass lantern']) })).toEqual([]);
  });
  it('lights things first once a dark room is known, and not before', () => {
    const commands = ['east', 'take brass lantern', 'light brass lantern', 'take sword'];
    expect(lightingFirst(commands, { ...none, darkKnown: true })).toEqual(['light brass lantern']);
    expect(lightingFirst(commands, none)).toEqual([]);
  });
  it('tries to light each thing first once an episode, lit or not', () => {
    const commands = ['east', 'turn on note', 'light brass lantern'];
    expect(lightingFirst(commands, { ...none, darkKnown: true, triedToLight: new Set(['note']) })).toEqual(['light brass lantern']);
  });
});

describe('a light before the dark, under valid', () => {
  const listed = ['east', 'take brass lantern', 'light brass lantern', 'push rug', 'open trophy case'];

  it('with the flag, a dark room known: the explorer lights the lantern first', () => {
    expect(choices(livingRoom(true, listed, ['7']))).toEqual(new Set(['light brass lantern']));
  });

  it('without the flag, or with no dark room known: any forward command, as before', () => {
    expect(choices(livingRoom(false, listed, ['7'])).size).toBeGreaterThan(1);
    expect(choices(livingRoom(true, listed)).size).toBeGreaterThan(1);
  });

  it('with the flag: the lantern lit on the floor is taken next (by "take all" where the list groups it so)', () => {
    const lit = played(livingRoom(true, listed), 'turn on brass lantern with sword', {
      observation: 'The brass lantern is now on.',
      commands: ['east', 'take all', 'push all', 'open trophy case', 'extinguish brass lantern'],
    });
    expect(choices(lit)).toEqual(new Set(['take all']));
  });

  it('with the flag: what the list offers to light and the reply refuses is not taken again and again', () => {
    const refused = played(livingRoom(true, listed), 'turn on note', {
      observation: "You can't turn that on.",
      commands: ['east', 'take all', 'push all'],
    });
    expect(choices(refused).size).toBeGreaterThan(1);
  });

  it('told of a way into the dark ("a staircase descending into darkness"), the explorer lights the lantern first, with heedsDarkAhead only', () => {
    const told = (heedsDarkAhead: boolean) =>
      played({ ...livingRoom(true, listed), heedsDarkAhead }, 'open trap door', {
        observation: 'The door reluctantly opens to reveal a rickety staircase descending into darkness.',
        commands: [...listed, 'down'],
      });
    expect(told(true).toldOfDark).toBe(true);
    expect(choices(told(true))).toEqual(new Set(['light brass lantern']));
    // Without it the way the reply opened goes first, as Zork I's explorer went down the trap door with the lantern left on the floor.
    expect(told(false).toldOfDark).toBe(false);
    expect(choices(told(false))).toEqual(new Set(['down']));
  });

  it('a reply about something else dark ("a dark wooden door") tells of no way into the dark', () => {
    const door = played({ ...livingRoom(true, listed), heedsDarkAhead: true }, 'east', {
      observation: 'A dark wooden door stands to the west, and the room is dark and quiet.',
      commands: listed,
    });
    expect(door.toldOfDark).toBe(false);
    expect(choices(door).size).toBeGreaterThan(1);
  });

  it('a reply that says the room is dark is learned for later episodes, with the flag only', () => {
    const step = { observation: 'You have moved into a dark place.', truth: roomTruth(7, 'Cellar') };
    expect(played(livingRoom(true, listed), 'down', step).learned.darkRooms).toEqual(['7']);
    expect(played(livingRoom(false, listed), 'down', step).learned.darkRooms).toEqual([]);
  });
});
