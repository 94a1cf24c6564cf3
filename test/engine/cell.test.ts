import { join } from 'node:path';
import { GameSession } from '../../src/engine';
import { cellOf } from '../../src/schemas/game';
import { describeWithGame, GAME_FILES, ZORK_ROUTE } from '../helpers';

/** Each step's cell read both ways: GameSession.cell (ids only) and cellOf of the ground truth. */
function cellsAlong(session: GameSession, commands: string[]): Array<{ step: number; fast: string; full: string }> {
  return commands.map((command, step) => {
    session.step(command);
    return { step, fast: session.cell(), full: cellOf(session.groundTruth()) };
  });
}

describe('GameSession.cell (what the valid-action search reads after a command)', () => {
  it('is the ground truth cell on the project test game', () => {
    const cells = cellsAlong(GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5')), [
      'open chest',
      'take key',
      'take lamp',
      'unlock door with key',
      'open door',
      'north',
      'drop key',
    ]);
    expect(cells.filter((c) => c.fast !== c.full)).toEqual([]);
    expect(new Set(cells.map((c) => c.full)).size).toBeGreaterThan(3);
  });
});

describeWithGame('zork1.z3', 'GameSession.cell on Zork I', (zork) => {
  it('is the ground truth cell at every step of a route through rooms, containers and the inventory', () => {
    const cells = cellsAlong(GameSession.fromFile(zork, { seed: 0 }), ZORK_ROUTE.slice(0, 60));
    expect(cells.filter((c) => c.fast !== c.full)).toEqual([]);
    expect(new Set(cells.map((c) => c.full)).size).toBeGreaterThan(10);
  });
});
