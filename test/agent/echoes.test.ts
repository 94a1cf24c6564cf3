/**
 * Echoes, under `valid` (see agent/echoes.ts). Planetfall's explorer made "wear chronometer" ("You
 * are wearing the chronometer.") five times in 18 turns, in a new state each time; Zork I's tried
 * "look" on arriving in every room of the maze. A command answered as it was before, changing
 * nothing seen, is now spent for the episode wherever it is made.
 */
import { createRng } from '../../src/agent/rng';
import { AgentState, initialState } from '../../src/agent/state';
import { spentIn } from '../../src/agent/spent';
import { decide, deliberate } from '../../src/agent/turn';
import { freshLearned } from '../../src/agent/learned';
import { echoesAfter, firstLine, NO_ECHOES, type Seen } from '../../src/agent/echoes';
import { initialMemory } from '../../src/memory/runner';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { playedFrom, roomTruth } from './fixtures';

const valid = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'valid' });
const none = resolveEpisodeConfig({ game: 'test', policy: 'oracle-free', assist: 'none' });

const chronometer = { id: 40, name: 'chronometer' };
const uniform = { id: 41, name: 'patrol uniform' };

/** On deck `room` with the chronometer and the uniform, the list offering `commands`. */
function deck(room: number, commands: string[], spendsEchoes = true): AgentState {
  const state = initialState(
    {
      observation: `Deck ${room}\nThis is a featureless corridor.`,
      truth: { ...roomTruth(room, `Deck ${room}`), inventory: [chronometer, uniform] },
      worldHash: `h-deck-${room}`,
      snapshot: 's0',
      options: [],
      commands,
      storyMd5: '0'.repeat(32),
      storyName: 'test',
      maxScore: 80,
    },
    freshLearned(),
    1,
    initialMemory(freshLearned(), valid),
  );
  return { ...state, spendsEchoes };
}

/** `state` after `command`, answered with `reply`, nothing seen changed (a clock ticked: the state is new). */
const answered = (state: AgentState, command: string, reply: string) =>
  playedFrom(valid, state, command, { observation: reply, worldHash: `${state.worldHash}-${command}-${state.turn}` });

/** What the explorer chooses from `state` with each of a few seeds. */
const choices = (state: AgentState) =>
  new Set(
    [1, 2, 3, 4, 5, 6, 7, 8].map((seed) => decide(state, valid, createRng(seed), deliberate(state, valid, createRng(seed)), null).command),
  );

const seen = (room: number, carried = ['chronometer'], score = 0): Seen => ({ room, carried, score });

describe('echoesAfter', () => {
  it('spends a command whose first line is the one it had the last time, anywhere; the news after it aside', () => {
    const once = echoesAfter(NO_ECHOES, {
      command: 'wear chronometer',
      reply: 'You are wearing the chronometer.',
      shown: 'Deck Nine',
      before: seen(9),
      after: seen(9),
      died: false,
    });
    expect(once.spent).toEqual([]);
    const twice = echoesAfter(once, {
      command: 'wear chronometer',
      reply: 'You are  wearing the chronometer.\nThe ambassador offers you a bit of celery.',
      shown: 'Gangway',
      before: seen(8),
      after: seen(8),
      died: false,
    });
    expect(twice.spent).toEqual(['wear chronometer']);
  });

  it('does not spend a command that changed what is held, where the player stands or the score, nor a move', () => {
    const step = { command: 'take limb', reply: 'Taken.', shown: '', before: seen(3, []), after: seen(3, ['limb']), died: false };
    const took = echoesAfter(echoesAfter(NO_ECHOES, step), step);
    expect(took.spent).toEqual([]);
    const scored = { ...step, before: seen(3, ['limb']), after: seen(3, ['limb'], 5) };
    expect(echoesAfter(echoesAfter(NO_ECHOES, scored), scored).spent).toEqual([]);
    const north = { ...step, command: 'north', reply: 'You can only go east.', before: seen(3), after: seen(3) };
    expect(echoesAfter(echoesAfter(NO_ECHOES, north), north).spent).toEqual([]);
  });

  it('forgets the last reply of a command that changed something, so a later one starts afresh', () => {
    const wore = echoesAfter(NO_ECHOES, { command: 'wear ring', reply: 'Done.', shown: '', before: seen(3), after: seen(3), died: false });
    const removed = echoesAfter(wore, {
      command: 'wear ring',
      reply: 'Done.',
      shown: '',
      before: seen(3),
      after: seen(3, []),
      died: false,
    });
    expect(removed.replies).toEqual({});
    expect(removed.spent).toEqual([]);
  });

  it('does not spend a command whose things another command handled since ("wear snorkel" after putting it away)', () => {
    const wear = { command: 'wear snorkel', reply: 'You put on the snorkel.', shown: '', before: seen(3), after: seen(3), died: false };
    const wore = echoesAfter(NO_ECHOES, wear);
    const putAway = echoesAfter(wore, { ...wear, command: 'put snorkel in raincoat', reply: 'Done.', after: seen(3, []) });
    const tookBack = echoesAfter(putAway, { ...wear, command: 'take snorkel', reply: 'Taken.', before: seen(3, []) });
    expect(echoesAfter(tookBack, wear).spent).toEqual([]);
    // Handling other things leaves the reply as it was.
    const other = echoesAfter(wore, { ...wear, command: 'examine raincoat', reply: 'A yellow raincoat.' });
    expect(echoesAfter(other, wear).spent).toEqual(['wear snorkel']);
  });

  it('spends a command naming nothing that shows again what was on screen ("look" on arriving), at once', () => {
    const shown = "You won't be able to get back up.\n\nMaze\nThis is part of a maze of twisty little passages, all alike.";
    const look = echoesAfter(NO_ECHOES, {
      command: 'look',
      reply: 'Maze\nThis is part of a maze of twisty little passages, all alike.',
      shown,
      before: seen(12),
      after: seen(12),
      died: false,
    });
    expect(look.spent).toEqual(['look']);
    // Lit at last, the look shows what the dark hid: not an echo.
    const lit = echoesAfter(NO_ECHOES, {
      command: 'look',
      reply: 'Cellar\nYou are in a dark and damp cellar.',
      shown: 'The brass lantern is now on.',
      before: seen(12),
      after: seen(12),
      died: false,
    });
    expect(lit.spent).toEqual([]);
  });

  it('reads the first line that is not blank, whitespace and case aside', () => {
    expect(firstLine('\n\n  You Already   have that.\n\nLightning arcs overhead.')).toBe('you already have that.');
  });
});

describe('spending echoes', () => {
  const list = ['wear chronometer', 'wear patrol uniform', 'up'];

  it('no longer makes an echoed command first in a new state elsewhere, while anything else is left', () => {
    const first = answered(deck(9, list), 'wear chronometer', 'You are wearing the chronometer.');
    const second = answered({ ...first, commands: list }, 'wear chronometer', 'You are wearing the chronometer.\nBlather glares at you.');
    expect(second.echoes.spent).toEqual(['wear chronometer']);
    const elsewhere = {
      ...second,
      truth: { ...second.truth, location: { id: 8, name: 'Gangway' } },
      worldHash: 'h-gangway',
      commands: list,
    };
    expect(spentIn(elsewhere, 8, ['chronometer']).has('wear chronometer')).toBe(true);
    expect(choices(elsewhere).has('wear chronometer')).toBe(false);
    // The code before it made it again in every new state.
    expect(choices({ ...elsewhere, spendsEchoes: false }).has('wear chronometer')).toBe(true);
  });

  it('is behind its patch: a state without it learns no echoes', () => {
    const first = answered(deck(9, list, false), 'wear chronometer', 'You are wearing the chronometer.');
    const second = answered({ ...first, commands: list }, 'wear chronometer', 'You are wearing the chronometer.');
    expect(second.echoes).toEqual(NO_ECHOES);
  });

  it('learns nothing under `none`, where typed commands have their own rule (idleTyped.ts)', () => {
    const state = deck(9, []);
    const first = playedFrom(none, state, 'wear chronometer', { observation: 'You are wearing the chronometer.' });
    const second = playedFrom(none, first, 'wear chronometer', { observation: 'You are wearing the chronometer.' });
    expect(second.echoes).toEqual(NO_ECHOES);
  });
});
