/**
 * The order the explorer tries untried commands in under `valid`. What the last command made
 * possible goes first among the untried commands of its kind: the window opened, the player climbs
 * through it; the mailbox opened, the leaflet is taken. And a move made once in a room is spent
 * there: a find makes every world state new, and the ways out do not change with it.
 */
import { createRng } from '../../src/agent/rng';
import { wayBackAmong } from '../../src/agent/directions';
import { triedKey } from '../../src/agent/policy';
import { threatened, threatHeld } from '../../src/agent/fights';
import { AgentState, AgentStateSchema, initialState } from '../../src/agent/state';
import { perilous } from '../../src/agent/cellMemory';
import { spentIn } from '../../src/agent/spent';
import { decide, deliberate } from '../../src/agent/turn';
import { freshLearned } from '../../src/agent/learned';
import { initialMemory } from '../../src/memory/runner';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import type { GameState } from '../../src/schemas/game';
import type { SpentCommands } from '../../src/agent/cells';
import { playedFrom, roomTruth } from './fixtures';

const valid = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'valid' });

/** The ground truth of a room, and what is carried there. */
const truth = (id: number, name: string, carried: string[] = []) => ({
  ...roomTruth(id, name),
  inventory: carried.map((name, index) => ({ id: 100 + index, name })),
});

function behindHouse(): AgentState {
  return initialState(
    {
      observation: 'Behind the house. A small window is slightly ajar.',
      truth: truth(1, 'Behind House'),
      worldHash: 'h-closed',
      snapshot: 's0',
      options: [],
      commands: ['north', 'south', 'east', 'open window'],
      storyMd5: '0'.repeat(32),
      storyName: 'test',
      maxScore: 10,
    },
    freshLearned(),
    1,
    initialMemory(freshLearned(), valid),
  );
}

/** The explorer made `command` in Behind House (the fixture's room, whatever the state's). */
const played = (state: AgentState, command: string, next: Partial<GameState>): AgentState =>
  playedFrom(valid, state, command, { truth: truth(1, 'Behind House'), ...next });

/** What the explorer chooses from `state` with each of a few seeds. */
const choices = (state: AgentState) =>
  [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => decide(state, valid, createRng(seed), deliberate(state, valid, createRng(seed)), null).command);

describe('following up under valid', () => {
  const opened = () =>
    played(behindHouse(), 'open window', { worldHash: 'h-open', commands: ['north', 'south', 'east', 'west', 'close window'] });

  it('keeps what the last command made possible where it left the player, and tries it first among its kind', () => {
    const state = opened();
    expect(state.enabled).toEqual(['west', 'close window']);
    // "west" and the untried compass moves are one kind (going places); "close window" undoes and waits.
    expect(new Set(choices(state))).toEqual(new Set(['west']));
  });

  it('keeps nothing after a move: every command is new in another room, and none was made possible by it', () => {
    const state = played(opened(), 'west', {
      truth: truth(2, 'Kitchen'),
      worldHash: 'h-kitchen',
      commands: ['east', 'west', 'up', 'open sack'],
    });
    expect(state.enabled).toEqual([]);
  });

  it('a state carried from before (no flag) chooses as it did: among every untried command of the kind', () => {
    const { followsUp: _flag, enabled: _enabled, ...older } = opened();
    const carried = AgentStateSchema.parse({ ...older, enabled: ['west', 'close window'] });
    expect(carried.followsUp).toBe(false);
    const made = new Set(choices(carried));
    expect(made.size).toBeGreaterThan(1);
    for (const command of made) expect(['north', 'south', 'east', 'west']).toContain(command);
  });
});

describe('a move made once in a room is spent there', () => {
  const made = { '1|west': 1, '1|take egg': 1, '1|open door': 3, '1|go around forest': 1, '2|north': 1 };

  const spentOf = (spent: SpentCommands) =>
    ['west', 'take egg', 'open door', 'go around forest', 'north'].filter((command) => spent.has(command));

  it('with the flag: the moves made there once, and any command made three times', () => {
    expect(spentOf(spentIn({ made, spendsMoves: true }, 1))).toEqual(['west', 'open door', 'go around forest']);
  });

  it('without it (a state carried from before): only what was made three times', () => {
    expect(spentOf(spentIn({ made, spendsMoves: false }, 1))).toEqual(['open door']);
  });
});

describe('a kind of two-thing command made three ways in a room is spent there', () => {
  const made = {
    '1|put card in toolkit': 1,
    '1|put key in pouch': 1,
    '1|put card in pouch': 1,
    '1|push key to pouch': 1,
    '2|give coin to man': 1,
  };

  it('with the flag: every "put _ in _" in that room, not another kind nor another room', () => {
    const spent = spentIn({ made, spendsPairs: true }, 1);
    expect(spent.has('put hat in toolkit')).toBe(true);
    expect(spent.has('push hat to toolkit')).toBe(false);
    expect(spent.has('turn on lamp')).toBe(false);
    expect(spentIn({ made, spendsPairs: true }, 2).has('give hat to man')).toBe(false);
  });

  it('without it (a state carried from before): none of them', () => {
    expect(spentIn({ made, spendsPairs: false }, 1).has('put hat in toolkit')).toBe(false);
  });

  it('the explorer leaves by a way it knows rather than put each thing in each other thing', () => {
    const things = ['put card in toolkit', 'put key in toolkit', 'put card in pouch', 'put key in pouch', 'put hat in pouch'];
    const console = { truth: truth(1, 'Console Room'), commands: ['west', ...things] };
    let state = played(behindHouse(), 'west', { truth: truth(2, 'Corridor'), worldHash: 'h-corridor', commands: ['east'] });
    state = played(state, 'east', { ...console, worldHash: 'h-console' });
    for (const [index, command] of things.slice(0, 3).entries()) state = played(state, command, { ...console, worldHash: `h-${index}` });
    // Every state is new after each thing moved: the two puts left are untried from it, as is "west".
    expect(new Set(choices(state))).toEqual(new Set(['west']));
  });
});

describe('idle commands and shuffles into a carried thing are spent wherever they were made', () => {
  const carried = ['brown sack', 'leaflet', 'brass lantern', 'glass bottle'];
  const made = {
    '1|wait': 1,
    '2|put leaflet in brown sack': 1,
    '2|take leaflet': 1,
    '3|put brass lantern in brown sack': 1,
    '3|put leaflet in mailbox': 1,
  };

  it('with the flag: in another room, waiting again and a third thing into the sack are spent, not a look, a move or a thing into what is not carried', () => {
    const spent = spentIn({ made, spendsAnywhere: true }, 4, carried);
    expect(spent.has('wait')).toBe(true);
    expect(spent.has('put glass bottle in brown sack')).toBe(true);
    expect(spent.has('put glass bottle in mailbox')).toBe(false);
    expect(spent.has('look')).toBe(false);
    expect(spent.has('north')).toBe(false);
    expect(spent.has('take leaflet')).toBe(false);
  });

  it('ways into different carried things count together', () => {
    const spent = spentIn({ made: { '2|put leaflet in nest': 1, '3|put nest in egg': 1 }, spendsAnywhere: true }, 4, [
      ...carried,
      'nest',
      'egg',
    ]);
    expect(spent.has('put glass bottle in brown sack')).toBe(true);
  });

  it('one way into a carried thing does not spend the kind', () => {
    const spent = spentIn({ made: { '2|put leaflet in brown sack': 1 }, spendsAnywhere: true }, 4, carried);
    expect(spent.has('put brass lantern in brown sack')).toBe(false);
  });

  it('without it (a state carried from before): none of them', () => {
    const spent = spentIn({ made, spendsAnywhere: false }, 4, carried);
    expect(spent.has('wait')).toBe(false);
    expect(spent.has('put glass bottle in brown sack')).toBe(false);
  });

  it('in a new room the explorer handles what is there rather than wait again or fill the sack again', () => {
    const holding = (id: number, name: string) => ({
      ...truth(id, name),
      inventory: carried.map((item, index) => ({ id: 100 + index, name: item })),
    });
    const room = (id: number, name: string, commands: string[]) => ({ truth: holding(id, name), worldHash: `h-${name}`, commands });
    const cellar = ['south', 'wait', 'put leaflet in brown sack', 'put brass lantern in brown sack'];
    let state = played(behindHouse(), 'west', room(2, 'Cellar', cellar));
    state = played(state, 'wait', { ...room(2, 'Cellar', cellar), worldHash: 'h-waited' });
    state = played(state, 'put leaflet in brown sack', { ...room(2, 'Cellar', cellar), worldHash: 'h-put-1' });
    state = played(state, 'put brass lantern in brown sack', { ...room(2, 'Cellar', cellar), worldHash: 'h-put-2' });
    state = played(state, 'south', room(3, 'Gallery', ['wait', 'put glass bottle in brown sack', 'turn painting']));
    expect(new Set(choices(state))).toEqual(new Set(['turn painting']));
  });
});

describe('the explorer under valid, back in a room after a find', () => {
  it('takes the way it has not taken yet, not one it took before the world changed', () => {
    let state = behindHouse();
    state = played(state, 'north', { truth: truth(2, 'North of House'), worldHash: 'h-north', commands: ['south', 'take egg'] });
    state = played(state, 'take egg', { truth: truth(2, 'North of House'), worldHash: 'h-egg', commands: ['south', 'drop egg'] });
    // Carrying the egg makes every state new: "north" is untried from here, as are south and east.
    state = played(state, 'south', {
      truth: truth(1, 'Behind House'),
      worldHash: 'h-egg-back',
      commands: ['north', 'south', 'east', 'open window'],
    });
    expect(new Set(choices(state))).toEqual(new Set(['south', 'east', 'open window']));
  });
});

describe('a room where fifteen commands were made tires', () => {
  const made = {
    '1|take vial': 2,
    '1|drop vial': 2,
    '1|put paper in box': 2,
    '1|open box': 2,
    '1|wait': 2,
    '1|examine the desk': 2,
    '1|turn on lamp': 2,
    '1|north': 1,
    '2|take coin': 1,
  };

  it('with the flag: a command there of a verb used there that names only things named there is spent, in no other room', () => {
    const spent = spentIn({ made, tiresRooms: true }, 1);
    for (const command of ['take paper', 'drop vial', 'put vial in box', 'take all', 'wait', 'turn lamp off', 'drop e'])
      expect([command, spent.has(command)]).toEqual([command, true]);
    expect(spentIn({ made, tiresRooms: true }, 2).has('take paper')).toBe(false);
  });

  it('trying new pairings: things never named together there keep their try, a pairing made there does not', () => {
    const spent = spentIn({ made: { ...made, '1|give vial paper': 1 }, tiresRooms: true, triesNewPairings: true }, 1);
    for (const command of ['put vial in box', 'give paper desk', 'give box vial'])
      expect([command, spent.has(command)]).toEqual([command, false]);
    for (const command of ['put paper in box', 'give paper vial', 'put the paper in a box', 'take paper', 'drop vial', 'wait'])
      expect([command, spent.has(command)]).toEqual([command, true]);
  });

  it('with the flag: moves, commands naming a thing new there and verbs new there are not', () => {
    const spent = spentIn({ made, tiresRooms: true }, 1);
    for (const command of ['south', 'north', 'take statue', 'put gold coin in box', 'unlock desk with key', 'kiss vial', 'listen'])
      expect([command, spent.has(command)]).toEqual([command, false]);
  });

  it('fourteen commands made there do not tire it', () => {
    expect(spentIn({ made: { ...made, '1|wait': 1 }, tiresRooms: true }, 1).has('take paper')).toBe(false);
  });

  it('without the flag (a state carried from before): none of them', () => {
    expect(spentIn({ made, tiresRooms: false }, 1).has('take paper')).toBe(false);
  });

  it('the explorer walks on rather than take and drop its things one at a time', () => {
    const things = ['vial', 'paper', 'statue', 'lamp', 'coin', 'rope', 'key', 'book'];
    const handling = things.flatMap((thing) => [`take ${thing}`, `drop ${thing}`]);
    const room = { truth: truth(1, 'Library'), commands: ['south', ...handling] };
    let state = behindHouse();
    for (const [turn, command] of handling.slice(0, 15).entries())
      state = played(state, command, { ...room, worldHash: `h-library-${turn}` });
    // Each thing taken or dropped makes the state new, and each command was made once: "drop book"
    // stays untried from it, as "south" is, but names only things already handled here.
    expect(new Set(choices(state))).toEqual(new Set(['south']));
  });
});

describe('a tired room where a thing was given and another taken', () => {
  // snacktime's sitting room: the sock given to the pet and the can taken there, the can is
  // worth giving too (the game scores it), though "give" and both things were used there.
  const sittingRoom = (triesNewPairings: boolean): AgentState => ({
    ...behindHouse(),
    commands: ['south', 'give pet sock', 'give pet can', 'take can', 'push pet'],
    made: {
      '1|south': 1,
      '1|give pet sock': 1,
      '1|take can': 4,
      '1|push pet': 4,
      '1|take sock': 3,
      '1|drop can': 3,
    },
    tiresRooms: true,
    triesNewPairings,
  });

  it('the explorer gives the can: pet and can were never named together there', () => {
    expect(new Set(choices(sittingRoom(true)))).toEqual(new Set(['give pet can']));
  });

  it('without the flag (a state carried from before): the pairing is spent, and the explorer leaves', () => {
    expect(new Set(choices(sittingRoom(false)))).toEqual(new Set(['south']));
  });
});

describe('a tired room where everything is spent', () => {
  const handled = (tiresRooms: boolean): AgentState => ({
    ...behindHouse(),
    commands: ['south', 'take vial', 'take paper', 'drop vial'],
    made: { '1|south': 1, '1|take vial': 5, '1|drop vial': 5, '1|take paper': 4 },
    tiresRooms,
  });

  it('the explorer leaves by the way it knows rather than handle its things again', () => {
    expect(new Set(choices(handled(true)))).toEqual(new Set(['south']));
  });

  it('a room that is not tired: the spent move is one pick among the spent commands', () => {
    expect(new Set(choices(handled(false)))).toEqual(new Set(['south', 'take vial', 'take paper']));
  });
});

describe('a tired room where the explorer closed the door', () => {
  // 9:05's bedroom: the explorer opened the dresser, handled its things and closed the door to
  // the east in the tired room; "open door" was then spent ("open" used there, "door" named by
  // closing it), and the way east was never listed again.
  const bedroom = (undoingNamesNothing: boolean): AgentState => ({
    ...behindHouse(),
    commands: ['south', 'open door', 'open dresser', 'take clothing', 'take wallet', 'drop clothing'],
    made: { '1|south': 1, '1|open dresser': 3, '1|take clothing': 4, '1|drop clothing': 4, '1|take wallet': 3, '1|close door': 1 },
    tiresRooms: true,
    undoingNamesNothing,
  });

  it('with the flag: a thing named there only by undoing commands is not yet named, so its other commands keep their try', () => {
    const spent = spentIn(bedroom(true), 1);
    expect(spent.has('open door')).toBe(false);
    for (const command of ['take clothing', 'open dresser', 'drop wallet']) expect([command, spent.has(command)]).toEqual([command, true]);
  });

  it('with the flag: the explorer opens the door it closed', () => {
    expect(new Set(choices(bedroom(true)))).toEqual(new Set(['open door']));
  });

  it('without the flag (a state carried from before): "open door" is spent, and the explorer walks south', () => {
    expect(spentIn(bedroom(false), 1).has('open door')).toBe(true);
    expect(new Set(choices(bedroom(false)))).toEqual(new Set(['south']));
  });
});

describe('under attack', () => {
  const trollRoom = (fightsBack: boolean, observation: string): AgentState => ({
    ...behindHouse(),
    observation,
    truth: truth(5, 'The Troll Room'),
    commands: ['south', 'open brown sack', 'take garlic', 'kill troll with sword', 'attack troll with sword', 'throw sword at troll'],
    made: { '5|open brown sack': 1 },
    fightsBack,
  });
  const struck = "Opening the brown sack reveals a lunch, and a clove of garlic. The troll's axe barely misses your ear.";

  it('with the flag: the explorer fights back with what it carries, before anything else untried', () => {
    expect(new Set(choices(trollRoom(true, struck)))).toEqual(new Set(['kill troll with sword', 'attack troll with sword']));
  });

  it('with the flag: a fight goes on while the foe stands, though the reply tells of no blow to the player', () => {
    const fighting = {
      ...trollRoom(true, 'A quick stroke, but the troll is on guard. The axe sweeps past as you jump aside.'),
      lastCommand: 'attack troll with sword',
    };
    expect(new Set(choices(fighting))).toEqual(new Set(['kill troll with sword', 'attack troll with sword']));
  });

  it('with the flag: a fight not threatened stops after eight blows in the room (a fight picked as a last resort is no loop)', () => {
    const calm = 'The troll looks at you.';
    const after = (blows: number) => ({
      ...trollRoom(true, calm),
      lastCommand: 'attack troll with sword',
      made: { '5|open brown sack': 1, '5|attack troll with sword': blows },
    });
    expect(new Set(choices(after(7)))).toEqual(new Set(['kill troll with sword', 'attack troll with sword']));
    for (const command of choices(after(8))) expect(command).not.toMatch(/troll/);
  });

  // Zork I's campaign: episode 7 lost the fight to the dice, and every later episode left the
  // blow out (learned.deadlyMoves) and walked on under the axe, which killed them anyway.
  const lostBefore = (facesDanger: boolean): AgentState => {
    const state = trollRoom(true, struck);
    const deadlyMoves = ['5|attack troll with sword'];
    return { ...state, facesDanger, learned: { ...state.learned, deadlyMoves } };
  };

  it('with the flag: a threatened player fights back even with a blow that killed here in an earlier episode', () => {
    expect(new Set(choices(lostBefore(true)))).toEqual(new Set(['kill troll with sword', 'attack troll with sword']));
  });

  it('without it (a state carried from before): the blow that killed is left out while another fight is left', () => {
    expect(new Set(choices(lostBefore(false)))).toEqual(new Set(['kill troll with sword']));
  });

  // Episode 8 of the same campaign: the room told of the troll's axe, then its blows came in words
  // no cue reads, and the explorer typed "enter bloody axe" and "north" until it died.
  const struckUnread = 'The axe gets you right in the side. Ouch!';

  it('with the flag: a threat read in this room holds while the player stays, though the next reply tells it in other words', () => {
    const state = { ...trollRoom(true, struckUnread), facesDanger: true, threatenedIn: 5 };
    expect(new Set(choices(state))).toEqual(new Set(['kill troll with sword', 'attack troll with sword']));
  });

  it('with the flag: the threat held ends after eight blows in the room, or once the player has left', () => {
    const state = { ...trollRoom(true, struckUnread), facesDanger: true, threatenedIn: 5 };
    const blows = { '5|kill troll with sword': 3, '5|attack troll with sword': 5 };
    for (const command of choices({ ...state, made: { ...state.made, ...blows } })) expect(command).not.toMatch(/troll/);
    for (const command of choices({ ...state, threatenedIn: 4 })) expect(command).not.toMatch(/troll/);
  });

  it('keeps the room of a threat until the player leaves it', () => {
    expect(threatHeld(null, 5, 'A nasty-looking troll, brandishing a bloody axe, blocks all passages out of the room.')).toBe(5);
    expect(threatHeld(5, 5, struckUnread)).toBe(5);
    expect(threatHeld(5, 4, 'Cellar. You are in a dark and damp cellar.')).toBeNull();
    expect(threatHeld(null, 5, struckUnread)).toBeNull();
  });

  // Zork I's explorer at seed 4 reached the troll with no sword and typed "enter bloody axe" twice until it died.
  const unarmed = (facesDanger: boolean): AgentState => ({
    ...trollRoom(true, struck),
    commands: ['south', 'east', 'open brown sack', 'take garlic', 'enter bloody axe', 'throw garlic at troll'],
    facesDanger,
    arrivedBy: 'north',
  });

  it('with the flag: threatened with nothing to fight with, the player goes back the way it came', () => {
    expect(new Set(choices(unarmed(true)))).toEqual(new Set(['south']));
    expect(choices(unarmed(false))).toContain('open brown sack');
  });

  it('with the flag: goes back once from a state, and not when the way back is not offered', () => {
    const back = unarmed(true);
    expect(choices({ ...back, made: { ...back.made, '5|south': 1 }, tried: { [triedKey(back.worldHash, 'south')]: 1 } })).not.toContain(
      'south',
    );
    expect(choices({ ...back, arrivedBy: 'east' })).toContain('open brown sack');
  });

  it('with the flag: in the dark with nothing to light, the player goes back the way it came', () => {
    // Zork I's explorer at seed 3 climbed into the dark attic and walked north into the grue.
    const attic = (facesDanger: boolean): AgentState => ({
      ...behindHouse(),
      observation: 'You have moved into a dark place.\nIt is pitch black. You are likely to be eaten by a grue.',
      truth: truth(9, 'Darkness'),
      commands: ['north', 'd'],
      fightsBack: true,
      facesDanger,
      arrivedBy: 'up',
      lastCommand: 'up',
    });
    expect(new Set(choices(attic(true)))).toEqual(new Set(['d']));
    expect(choices(attic(false))).toContain('north');
    // snacktime's sleeping room is told "dark and quiet" and seen in full: no darkness to leave.
    const described = 'Sleeping Room\nMost of the time when you are in here it is dark and quiet because that is the best way to sleep.';
    expect(choices({ ...attic(true), observation: described })).toContain('north');
  });

  it('with the perils flag: in the pitch dark a light comes first, and the way back only when the last move brought the dark', () => {
    // Zork I's explorer at seed 4 put its lantern out in the cellar, and the way back led into the dark too.
    const cellar = (mindsPerils: boolean): AgentState => ({
      ...behindHouse(),
      observation: 'The brass lantern is now off.\nIt is now pitch black.',
      truth: truth(4, 'Cellar', ['brass lantern']),
      commands: ['north', 'south', 'turn on brass lantern', 'drop brass lantern'],
      fightsBack: true,
      facesDanger: true,
      arrivedBy: 'south',
      lastCommand: 'extinguish brass lantern',
      mindsPerils,
    });
    expect(new Set(choices(cellar(true)))).toEqual(new Set(['turn on brass lantern']));
    expect(new Set(choices(cellar(false)))).toEqual(new Set(['north']));
    const unlit = { ...cellar(true), commands: ['north', 'south', 'drop brass lantern'] };
    expect(choices(unlit)).toContain('south');
  });

  it('with the flag: learns where the threat was read and the move that came in, and forgets both on leaving', () => {
    const cellar = { ...behindHouse(), facesDanger: true, truth: truth(4, 'Cellar') };
    const entered = played(cellar, 'north', {
      truth: truth(5, 'The Troll Room'),
      observation: 'A nasty-looking troll, brandishing a bloody axe, blocks all passages out of the room.',
    });
    expect([entered.threatenedIn, entered.arrivedBy]).toEqual([5, 'north']);
    const struckThere = played(entered, 'take all', { truth: truth(5, 'The Troll Room'), observation: struckUnread });
    expect([struckThere.threatenedIn, struckThere.arrivedBy]).toEqual([5, 'north']);
    const left = played(struckThere, 'south', { truth: truth(4, 'Cellar'), observation: 'Cellar.' });
    expect([left.threatenedIn, left.arrivedBy]).toEqual([null, 'south']);
    const without = played({ ...cellar, facesDanger: false }, 'north', { truth: truth(5, 'The Troll Room'), observation: struck });
    expect([without.threatenedIn, without.arrivedBy]).toEqual([null, null]);
  });

  it('with the perils flag: a room left under a threat is no room to return to until something new is carried', () => {
    // Zork I's explorer at seed 4 went back from the troll with no sword, and its walk back to the
    // room's untried moves led straight in again.
    const troll = { ...unarmed(true), mindsPerils: true, truth: truth(5, 'The Troll Room', ['garlic']) };
    const cellar = played(troll, 'south', { truth: truth(4, 'Cellar', ['garlic']), observation: 'Cellar.' });
    expect(cellar.perils).toEqual([{ room: 5, carried: ['garlic'] }]);
    expect(perilous(cellar, 5)).toBe(true);
    const armed = { ...cellar, truth: truth(4, 'Cellar', ['garlic', 'sword']) };
    expect(perilous(armed, 5)).toBe(false);
    expect(played({ ...troll, mindsPerils: false }, 'south', { truth: truth(4, 'Cellar', ['garlic']) }).perils).toEqual([]);
    const calm = { ...troll, observation: 'The troll is dead.' };
    expect(played(calm, 'south', { truth: truth(4, 'Cellar', ['garlic']) }).perils).toEqual([]);
  });

  it('with the perils flag: the walk back to a room with untried moves leaves the peril out', () => {
    const cellar: AgentState = {
      ...behindHouse(),
      observation: 'Cellar.',
      truth: truth(4, 'Cellar', ['garlic']),
      commands: ['north', 'up'],
      made: { '4|north': 1, '4|up': 1 },
      done: ['4|north', '4|up'],
      exits: { 4: { north: 5, up: 3 }, 3: { down: 4 } },
      open: [5, 3],
      mindsPerils: true,
      perils: [{ room: 5, carried: ['garlic'] }],
    };
    expect(new Set(choices(cellar))).toEqual(new Set(['up']));
    expect(new Set(choices({ ...cellar, perils: [] }))).toEqual(new Set(['north']));
  });

  it('reads the way back among the commands as the list spells them', () => {
    expect(wayBackAmong('up', ['north', 'd'])).toBe('d');
    expect(wayBackAmong('go northwest', ['southeast', 'north'])).toBe('southeast');
    expect(wayBackAmong('up', ['north'])).toBeNull();
    expect(wayBackAmong('open door', ['north'])).toBeNull();
  });

  it('not attacked: fighting stays last', () => {
    const calm = trollRoom(true, 'Opening the brown sack reveals a lunch, and a clove of garlic.');
    for (const command of choices(calm)) expect(command).not.toMatch(/troll/);
  });

  it('without the flag (a state carried from before): fighting stays last', () => {
    for (const command of choices(trollRoom(false, struck))) expect(command).not.toMatch(/troll/);
  });

  it('reads an attack on the player or an armed foe in the reply, not a fight the player only sees', () => {
    for (const reply of [
      'A nasty-looking troll, brandishing a bloody axe, blocks all passages out of the room.',
      "The troll's axe barely misses your ear.",
      "The flat of the troll's axe hits you delicately on the head, knocking you out.",
      'The troll swings his axe, but it misses.',
      'The thief stabs nonchalantly with his stiletto and misses.',
      'The guard lunges at you!',
      'You are wounded.',
    ])
      expect([reply, threatened(reply)]).toEqual([reply, true]);
    for (const reply of ['A troll sleeps in the corner.', 'The knight hits the dragon.', 'You hit the wall.'])
      expect([reply, threatened(reply)]).toEqual([reply, false]);
  });
});
