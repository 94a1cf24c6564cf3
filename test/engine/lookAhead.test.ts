/**
 * The probe's look-ahead: the best move after each valid action, played on the ferry (in-process).
 */
import { join } from 'node:path';
import { findValidActions, GameSession } from '../../src/engine';
import { lookAhead, lookAheadYielding } from '../../src/engine/lookAhead';
import { GAME_FILES } from '../helpers';

describe('look-ahead', () => {
  it('finds points two moves away (empty the purse, then take all) and leaves the session where it was', () => {
    const session = GameSession.fromFile(join(GAME_FILES, 'ferry.z8'), { seed: 1 });
    session.step('west');
    const actions = findValidActions(session);
    expect(actions.some((a) => a.scoreDelta > 0)).toBe(false);
    const before = session.worldHash();
    const ahead = lookAhead(session, actions);
    expect(ahead.get('empty leather purse')).toEqual({ command: 'take all', scoreDelta: 5 });
    expect(session.worldHash()).toBe(before);
    expect(session.step('take all').observation).not.toMatch(/copper coin: Taken/);
    // A follow-up is no way to points it makes alone from here, and a move that scores is not "ahead" of itself.
    for (const [command, found] of ahead) {
      expect(found.command).not.toBe(command);
      expect(found.scoreDelta).toBeGreaterThan(0);
    }
  });

  it('stops at its budget of tries', () => {
    const session = GameSession.fromFile(join(GAME_FILES, 'ferry.z8'), { seed: 1 });
    session.step('west');
    expect(lookAhead(session, findValidActions(session), { maxTries: 0 }).size).toBe(0);
  });

  it('gives the thread back while it runs, heartbeating, and finds what the blocking one finds', async () => {
    // A turn that holds the thread past its heartbeat timeout is retried from the start (a large story's 3,000 tries take seconds).
    const session = GameSession.fromFile(join(GAME_FILES, 'ferry.z8'), { seed: 1 });
    session.step('west');
    const actions = findValidActions(session);
    const before = session.worldHash();
    let beats = 0;
    let ticks = 0;
    const ticker = setInterval(() => ticks++, 0);
    try {
      const ahead = await lookAheadYielding(session, actions, { yieldEveryMs: 0, onYield: () => beats++ });
      expect([...ahead]).toEqual([...lookAhead(session, actions)]);
    } finally {
      clearInterval(ticker);
    }
    expect(beats).toBeGreaterThan(0);
    expect(ticks).toBeGreaterThan(0);
    expect(session.worldHash()).toBe(before);
  });
});
