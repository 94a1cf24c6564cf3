/**
 * Deaths a few idle turns after a move (doom.ts), on Hitchhiker's opening: from the front of the
 * house, the lane is where the falling house's brick kills, and the game ends three turns later.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { findValidActions, GameSession, ValidAction } from '../../src/engine';
import { DOOM_TURNS, doomedMoves, doomedMovesYielding, idleCommand } from '../../src/engine/doom';
import { describeWithJerichoStory, GAME_FILES, JERICHO_SUITE } from '../helpers';

describeWithJerichoStory('hhgg.z3', 'doomed moves', (path) => {
  /** Hitchhiker's after its walkthrough's first ten commands (Jericho's seed): at the front of the house, the bulldozer coming. */
  const frontOfHouse = () => {
    const suite = JSON.parse(readFileSync(join(JERICHO_SUITE, 'suite.json'), 'utf8')) as Array<{
      game: string;
      seed: number;
      walkthrough: string[];
    }>;
    const spec = suite.find((g) => g.game === 'hhgg')!;
    const session = GameSession.fromFile(path, { seed: spec.seed });
    for (const command of spec.walkthrough.slice(0, 10)) session.tryCommand(command);
    expect(session.location.name).toBe('Front of House');
    return session;
  };

  let session: GameSession;
  let actions: ValidAction[];
  beforeAll(() => {
    session = frontOfHouse();
    actions = findValidActions(session);
  });

  it('finds the move whose death comes turns later, and leaves the session where it was', () => {
    const south = actions.find((a) => a.command === 'south')!;
    // The probe's own step shows nothing amiss: a new place, the game going on.
    expect(south.outcome).toBe('continue');
    const before = session.worldHash();
    const doomed = doomedMoves(session, actions);
    expect(doomed.get('south')).toBeGreaterThan(0);
    expect(doomed.get('south')).toBeLessThanOrEqual(DOOM_TURNS);
    // Lying down in front of the bulldozer is how the game goes on.
    expect(actions.some((a) => a.command.startsWith('lie down'))).toBe(true);
    for (const action of actions.filter((a) => a.command.startsWith('lie down'))) expect(doomed.has(action.command)).toBe(false);
    expect(session.worldHash()).toBe(before);
  });

  it('gives the thread back while it runs and finds what the blocking form finds', async () => {
    let beats = 0;
    const doomed = await doomedMovesYielding(session, actions, { yieldEveryMs: 0, onYield: () => beats++ });
    expect([...doomed]).toEqual([...doomedMoves(session, actions)]);
    expect(beats).toBeGreaterThan(0);
  });
});

describe('doomed moves on a story without a death to come', () => {
  it("marks none, and idles with the story's own word", () => {
    const session = GameSession.fromFile(join(GAME_FILES, 'ferry.z8'), { seed: 1 });
    expect(idleCommand(session)).toBe('wait');
    // Swimming kills at once: the probe's own outcome says so, and doom is about deaths it cannot see.
    const actions = findValidActions(session);
    expect(doomedMoves(session, actions).size).toBe(0);
  });
});
