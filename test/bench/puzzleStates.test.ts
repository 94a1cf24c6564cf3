import { basename } from 'node:path';
import {
  actionEffect,
  effect,
  loadPuzzleStates,
  NO_EFFECT,
  preparePuzzle,
  PreparedPuzzle,
  PuzzleState,
  storyFor,
} from '../../bench/puzzles';
import { GameSession } from '../../src/engine';
import { describeWithGame } from '../helpers';

const { states } = loadPuzzleStates();
const SHARED = '../shared/games/';

describe('bench/puzzle-states.json', () => {
  it('has at least 10 uniquely named states covering all four games', () => {
    expect(states.length).toBeGreaterThanOrEqual(10);
    expect(new Set(states.map((s) => s.name)).size).toBe(states.length);
    const count = (game: string) => states.filter((s) => s.game === game).length;
    expect({
      zork1: count(`${SHARED}zork1.z3`) >= 3,
      '905': count(`${SHARED}905.z5`) >= 2,
      lighthouse: count('lighthouse') >= 1,
      ferry: count('ferry') >= 1,
    }).toEqual({ zork1: true, '905': true, lighthouse: true, ferry: true });
  });
});

function checks(state: PuzzleState): void {
  let p: PreparedPuzzle;
  beforeAll(() => {
    p = preparePuzzle(state);
  });

  it('replays its prefix without the game ending', () => {
    const session = GameSession.fromFile(storyFor(state.game)!, { seed: 1 });
    for (const command of state.prefix) {
      const done = session.step(command).done;
      expect({ command, done }).toEqual({ command, done: false });
    }
    expect(p.observation).not.toBe('');
  });

  it('each useful command changes the world and matches a valid action', () => {
    const offered = new Set(p.validActions.map(actionEffect));
    for (const command of state.useful) {
      const e = effect(p.session, command);
      expect({ command, changes: e !== NO_EFFECT, offered: offered.has(e) }).toEqual({ command, changes: true, offered: true });
    }
  });

  it('is a real choice: other valid actions and the naive moves do not solve it', () => {
    expect(p.validActions.filter((v) => !p.usefulEffects.has(actionEffect(v))).length).toBeGreaterThan(0);
    for (const command of state.naive) {
      expect({ command, solves: p.usefulEffects.has(effect(p.session, command)) }).toEqual({ command, solves: false });
    }
  });
}

for (const state of states) {
  const title = `${state.name} (${state.kind}, ${state.game})`;
  if (state.game.startsWith(SHARED)) describeWithGame(basename(state.game), title, () => checks(state));
  else describe(title, () => checks(state));
}
