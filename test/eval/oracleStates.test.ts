/**
 * eval/oracle-states.json: enough states, mostly from games grue did not write, and each label
 * checked by the engine (no model): the prefix replays, and each labelled command changes the
 * world and is one of the state's valid actions, so a model choosing among them can get it right.
 */
import { basename } from 'node:path';
import { actionEffect, effect, LabelledState, NO_EFFECT, preparePuzzle, PreparedPuzzle } from '../../bench/puzzles';
import { NINE05_ROUTE, ZORK_ROUTE } from '../../bench/routes';
import { gameName, loadOracleStates } from '../../eval/oracleStates';
import { describeWithGame } from '../helpers';

const { states } = loadOracleStates();
const SHARED = '../shared/games/';

describe('eval/oracle-states.json', () => {
  it('has at least 60 distinct states, at least half of them from Zork I and 9:05', () => {
    expect(states.length).toBeGreaterThanOrEqual(60);
    expect(new Set(states.map((s) => JSON.stringify([s.game, s.prefix]))).size).toBe(states.length);
    const external = states.filter((s) => ['zork1', '905'].includes(gameName(s.game)));
    expect(external.length * 2).toBeGreaterThanOrEqual(states.length);
    expect(new Set(external.map((s) => gameName(s.game)))).toEqual(new Set(['zork1', '905']));
  });

  it('labels Zork I and 9:05 states with the next step of their route', () => {
    const routes: Record<string, string[]> = { zork1: ZORK_ROUTE, '905': NINE05_ROUTE };
    for (const s of states.filter((x) => routes[gameName(x.game)])) {
      const route = routes[gameName(s.game)];
      expect(s.prefix).toEqual(route.slice(0, s.prefix.length));
      // 'get all from table' is one route step that the label spells out as its single actions.
      if (route[s.prefix.length] !== 'get all from table') expect(s.useful).toEqual([route[s.prefix.length]]);
    }
  });
});

function checks(state: LabelledState): void {
  let p: PreparedPuzzle;
  beforeAll(() => {
    p = preparePuzzle(state);
  });

  it('each labelled command changes the world and is one of the valid actions', () => {
    const offered = new Set(p.validActions.map(actionEffect));
    for (const command of state.useful) {
      const e = effect(p.session, command);
      expect({ command, changes: e !== NO_EFFECT, offered: offered.has(e) }).toEqual({ command, changes: true, offered: true });
    }
    expect(p.usefulCommands.size).toBeGreaterThan(0);
  });

  it('is a choice: some valid action does not make the progress', () => {
    expect(p.validActions.some((v) => !p.usefulCommands.has(v.command))).toBe(true);
  });
}

for (const [index, state] of states.entries()) {
  const title = `state ${index}: ${gameName(state.game)} after ${state.prefix.length} commands, label ${state.useful.join(' | ')}`;
  if (state.game.startsWith(SHARED)) describeWithGame(basename(state.game), title, () => checks(state));
  else describe(title, () => checks(state));
}
