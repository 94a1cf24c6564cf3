/**
 * eval/oracle-states.json: enough states, mostly from games grue did not write, and each label
 * checked by the engine (no model): the prefix replays, and each labelled command changes the
 * world and is one of the state's valid actions, so a model choosing among them can get it right.
 *
 * The checks ask the valid-action search only about the commands they name: the candidate with
 * the label's effect (the label itself, nearly always) and one candidate that changes the world
 * without the progress. A label no first-pass candidate matches gets the whole search, as the
 * agent would. The whole search of every state took minutes of engine time for the same answers.
 */
import { basename } from 'node:path';
import { actionEffect, effect, LabelledState, NO_EFFECT, storyFor } from '../../bench/puzzles';
import { NINE05_ROUTE, ZORK_ROUTE } from '../../bench/routes';
import { candidateCommands } from '../../src/engine/candidates';
import { GameSession } from '../../src/engine/session';
import { findValidActions } from '../../src/engine/validActions';
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

function replayed(state: LabelledState): GameSession {
  const path = storyFor(state.game);
  if (!path) throw new Error(`${state.game} is not available (see ../shared/games/README.md)`);
  const session = GameSession.fromFile(path, { seed: 1 });
  for (const command of state.prefix) {
    session.step(command);
    if (session.isDone) throw new Error(`${state.game}: the game ended at "${command}" of the prefix`);
  }
  return session;
}

/** Candidates in the order worth trying: `first` ahead of the rest. */
const ahead = (first: string, candidates: string[]) => [first, ...candidates.filter((c) => c !== first)];

function checks(state: LabelledState): void {
  let session: GameSession;
  let candidates: string[];
  let usefulEffects: Set<string>;
  beforeAll(() => {
    session = replayed(state);
    candidates = candidateCommands(session);
    usefulEffects = new Set(state.useful.map((u) => effect(session, u)));
  });

  it('each labelled command changes the world and is one of the valid actions', () => {
    for (const command of state.useful) {
      const wanted = effect(session, command);
      const match = ahead(command, candidates).find((c) => effect(session, c) === wanted);
      const offered = (match ? findValidActions(session, [match]) : findValidActions(session)).map(actionEffect);
      expect({ command, changes: wanted !== NO_EFFECT, offered: offered.includes(wanted) }).toEqual({
        command,
        changes: true,
        offered: true,
      });
    }
  });

  it('is a choice: some valid action does not make the progress', () => {
    const other = candidates.find((c) => {
      const e = effect(session, c);
      return e !== NO_EFFECT && !usefulEffects.has(e);
    });
    const offered = findValidActions(session, other ? [other] : undefined);
    expect(offered.some((v) => !usefulEffects.has(actionEffect(v)))).toBe(true);
  });
}

for (const [index, state] of states.entries()) {
  const title = `state ${index}: ${gameName(state.game)} after ${state.prefix.length} commands, label ${state.useful.join(' | ')}`;
  if (state.game.startsWith(SHARED)) describeWithGame(basename(state.game), title, () => checks(state));
  else describe(title, () => checks(state));
}
