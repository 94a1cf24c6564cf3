/**
 * Things lost, under `valid` (see agent/losses.ts). Inhumane's explorer dropped two things in the
 * desert ("It falls and is lost forever in the sands"), then made "drop all" there, lost its torch
 * and was eaten in the dark at turn 15. A command after which carried things are gone, and no
 * listed command names them again, is now not made again in its room, in this episode or a later
 * one.
 */
import { createRng } from '../../src/agent/rng';
import { AgentState, initialState } from '../../src/agent/state';
import { decide, deliberate } from '../../src/agent/turn';
import { freshLearned } from '../../src/agent/learned';
import { mergeLearned } from '../../src/agent/learnedMerge';
import { lossAt, lossShape, lostThings } from '../../src/agent/losses';
import { triedKey } from '../../src/agent/policyContext';
import { initialMemory } from '../../src/memory/runner';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { playedFrom, roomTruth } from './fixtures';

const valid = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'valid' });
const none = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'none' });

const torch = { id: 30, name: 'torch' };
const button = { id: 31, name: 'torch button' };
const shovel = { id: 32, name: 'shovel' };
const amulet = { id: 33, name: 'jeweled amulet' };

/** In the desert (room 7) with `carried`, the list offering `commands`. */
function desert(commands: string[], carried = [torch, button, shovel, amulet], mindsLosses = true): AgentState {
  const state = initialState(
    {
      observation: 'In the Desert\nAll you can see in any direction is sand and sunlight.',
      truth: { ...roomTruth(7, 'In the Desert'), inventory: carried },
      worldHash: 'h-desert',
      snapshot: 's0',
      options: [],
      commands,
      storyMd5: '0'.repeat(32),
      storyName: 'test',
      maxScore: 90,
    },
    freshLearned(),
    1,
    initialMemory(freshLearned(), valid),
  );
  return { ...state, mindsLosses };
}

/** What the explorer chooses from `state` with each of a few seeds. */
const choices = (state: AgentState) =>
  new Set(
    [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => decide(state, valid, createRng(seed), deliberate(state, valid, createRng(seed)), null).command),
  );

describe('lostThings', () => {
  it('a thing dropped where the list offers it back is not lost', () => {
    expect(lostThings([torch, shovel], [shovel], ['take torch', 'north'])).toEqual([]);
  });
  it('a thing gone that no listed command names is lost, by any word of its name', () => {
    expect(lostThings([torch, button, shovel], [torch], ['take torch', 'north'])).toEqual(['shovel']);
    expect(lostThings([amulet], [], ['wear amulet'])).toEqual([]);
    expect(lostThings([amulet], [], ['north'])).toEqual(['jeweled amulet']);
  });
  it('nothing is lost where there is no list to tell (the game ended, a menu), or it offers to take all', () => {
    expect(lostThings([torch], [], [])).toEqual([]);
    expect(lostThings([torch], [], ['take all', 'north'])).toEqual([]);
    expect(lostThings([torch], [], ['take all off table', 'north'])).toEqual([]);
  });
  it('a losing move is kept by its room and its shape, the carried things left out', () => {
    const carried = ['brass lantern', 'rope'];
    expect(lossShape(' Drop all ', carried)).toBe('drop $');
    expect(lossShape('drop two', carried)).toBe('drop $');
    expect(lossShape('put brass lantern in river', carried)).toBe('put $ in river');
    expect(lossAt(7, 'put all in river', carried)).toBe('7|put $ in river');
    expect(lossShape('put down rope', carried)).toBe('put down $');
  });
});

describe('minding losses', () => {
  const list = ['north', 'push button', 'drop two', 'drop all', 'drop torch'];

  it('learns the room and shape of a command that lost things, and not of a drop the list offers back', () => {
    const lost = playedFrom(valid, desert(list), 'drop two', {
      truth: { ...roomTruth(7, 'In the Desert'), inventory: [torch, amulet] },
      commands: ['north', 'push button', 'drop all', 'drop torch'],
    });
    expect(lost.learned.losingMoves).toEqual(['7|drop $']);
    const dropped = playedFrom(valid, desert(list), 'drop two', {
      truth: { ...roomTruth(7, 'In the Desert'), inventory: [torch, amulet] },
      commands: ['north', 'take shovel', 'take button', 'drop all'],
    });
    expect(dropped.learned.losingMoves).toBeUndefined();
  });

  it('makes no command of a losing shape again in that room, in this episode or a later one', () => {
    const lost = playedFrom(valid, desert(list), 'drop two', {
      truth: { ...roomTruth(7, 'In the Desert'), inventory: [torch, amulet] },
      commands: ['north', 'push button', 'drop all', 'drop torch'],
    });
    // Left here: the drops, and a risky kick that the explorer otherwise keeps for last.
    const left = ['drop all', 'drop torch', 'kick sand'];
    expect([...choices({ ...lost, commands: left })]).toEqual(['kick sand']);
    const later = desert(left, [torch, amulet]);
    expect(choices(later).has('kick sand')).toBe(false);
    const carried = { ...later, learned: mergeLearned(later.learned, freshLearned(), lost.learned) };
    expect([...choices(carried)]).toEqual(['kick sand']);
  });

  it('makes no risky command with the thing that lights the way, while others are left', () => {
    const lit = { ...desert(['throw amulet with torch', 'kick sand', 'north']), lightsFirst: true, lit: ['torch'] };
    const northTried = { ...lit, tried: { [triedKey(lit.worldHash, 'north')]: 1 } };
    expect(choices(northTried).has('throw amulet with torch')).toBe(false);
    expect(choices({ ...northTried, mindsLosses: false }).has('throw amulet with torch')).toBe(true);
  });

  it('remembers what left things somewhere, not what ate them', () => {
    const ate = playedFrom(valid, desert(['eat amulet', 'north']), 'eat amulet', {
      truth: { ...roomTruth(7, 'In the Desert'), inventory: [torch, button, shovel] },
      commands: ['north'],
    });
    expect(ate.learned.losingMoves).toBeUndefined();
    const river = playedFrom(valid, desert(['put all in river', 'north']), 'put all in river', {
      truth: { ...roomTruth(7, 'In the Desert'), inventory: [] },
      commands: ['north'],
    });
    expect(river.learned.losingMoves).toEqual(['7|put $ in river']);
    // A shape naming where the things went loses them wherever it is made: the river runs past other rooms.
    const elsewhere = { ...desert(['put torch in river', 'kick sand']), truth: { ...roomTruth(8, 'Beach'), inventory: [torch] } };
    expect([...choices({ ...elsewhere, learned: river.learned })]).toEqual(['kick sand']);
  });

  it('does not put the light out, and in the pitch dark lights it again though tried from there', () => {
    const lit = { ...desert(['extinguish torch', 'drop amulet']), lightsFirst: true, mindsPerils: true, lit: ['torch'] };
    expect([...choices(lit)]).toEqual(['drop amulet']);
    expect(choices({ ...lit, mindsLosses: false }).has('extinguish torch')).toBe(true);
    const dark = {
      ...desert(['turn on torch', 'east']),
      mindsPerils: true,
      lightsFirst: true,
      observation: 'It is pitch black. You are likely to be eaten by a grue.',
    };
    const triedOnce = { ...dark, tried: { [triedKey(dark.worldHash, 'turn on torch')]: 1 } };
    expect([...choices(triedOnce)]).toEqual(['turn on torch']);
    expect(choices({ ...triedOnce, mindsLosses: false }).has('east')).toBe(true);
  });

  it('is behind its patch: a state without it learns nothing of losses', () => {
    const before = playedFrom(valid, desert(list, undefined, false), 'drop two', {
      truth: { ...roomTruth(7, 'In the Desert'), inventory: [torch, amulet] },
      commands: ['north', 'push button', 'drop all', 'drop torch'],
    });
    expect(before.learned.losingMoves).toBeUndefined();
  });

  it('learns nothing under `none`, where no list tells a loss', () => {
    const typed = playedFrom(none, desert([]), 'drop two', { truth: { ...roomTruth(7, 'In the Desert'), inventory: [torch] } });
    expect(typed.learned.losingMoves).toBeUndefined();
  });
});
