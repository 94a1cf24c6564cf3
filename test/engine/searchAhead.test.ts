/**
 * The search past two moves: the shortest way to points where no two moves score, played on The
 * Lighthouse (in-process): with the lamp lit and the door still locked, the coin is three moves away.
 */
import { join } from 'node:path';
import { findValidActions, GameSession } from '../../src/engine';
import { lookAhead, lookAheadYielding } from '../../src/engine/lookAhead';
import { GAME_FILES } from '../helpers';

function lampLit(): GameSession {
  const session = GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5'), { seed: 1 });
  for (const command of ['open chest', 'take key', 'take lamp', 'turn on lamp']) session.step(command);
  return session;
}

describe('search past two moves', () => {
  it('finds the first move of the shortest way to points, three moves long, and leaves the session where it was', () => {
    const session = lampLit();
    const actions = findValidActions(session);
    expect(lookAhead(session, actions).size).toBe(0);
    const before = session.worldHash();
    const ahead = lookAhead(session, actions, { searchTries: 3000 });
    expect(session.worldHash()).toBe(before);
    expect(ahead.size).toBeGreaterThan(0);
    for (const [command, way] of ahead) {
      expect(command).toMatch(/lighthouse door/);
      expect(way).toEqual({ command: 'north', scoreDelta: 5, moves: 3 });
    }
    // The way is real: played out, it scores.
    const [first] = [...ahead.keys()];
    session.step(first!);
    session.step('north');
    expect(session.step('take all').observation).toMatch(/silver coin/);
    expect(session.score).toBe(5);
  });

  it('stops at its budget of tries, and does not run where two moves score', () => {
    const session = lampLit();
    expect(lookAhead(session, findValidActions(session), { searchTries: 10 }).size).toBe(0);
    session.step('unlock door with key');
    const twoAway = lookAhead(session, findValidActions(session), { searchTries: 3000 });
    expect([...twoAway.values()].every((way) => way.moves === undefined)).toBe(true);
    expect(twoAway.size).toBeGreaterThan(0);
  });

  it('gives the thread back while it runs and finds what the blocking one finds', async () => {
    const session = lampLit();
    const actions = findValidActions(session);
    let beats = 0;
    const ahead = await lookAheadYielding(session, actions, { searchTries: 3000, yieldEveryMs: 0, onYield: () => beats++ });
    expect([...ahead]).toEqual([...lookAhead(session, actions, { searchTries: 3000 })]);
    expect(beats).toBeGreaterThan(0);
  });
});
