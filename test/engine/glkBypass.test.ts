import { GameSession } from '../../src/engine';
import { describeWithGame, describeWithJerichoStory } from '../helpers';

/**
 * The version 3 status line is drawn by grue, not through Glk (src/engine/glkBypass.ts): the row
 * must read as ZVM drew it through Glk, cell for cell, since ground truth reads it and snapshots
 * keep it. Rows below were read through Glk before the bypass (the status window is 128 cells).
 */
const row = (left: string, right: string) => ` ${left}`.padEnd(128 - right.length - 1) + right + ' ';

describeWithGame('zork1.z3', 'the v3 status line drawn without Glk', (path) => {
  it('shows the location at the left and the score and turns ending one cell before the edge, each turn', () => {
    const s = GameSession.fromFile(path);
    expect(s.captureState().screen.statusWindow).toEqual([row('West of House', 'Score: 0  Turns: 0')]);
    s.step('north');
    s.step('east');
    s.step('open window');
    s.step('enter house');
    expect(s.captureState().screen.statusWindow).toEqual([row('Kitchen', 'Score: 10  Turns: 4')]);
    expect(s.statusLine).toBe(row('Kitchen', 'Score: 10  Turns: 4').trimEnd());
  });

  it('is kept in a snapshot and put back with it', () => {
    const s = GameSession.fromFile(path);
    s.step('north');
    const snapshot = s.captureState();
    s.step('east');
    expect(s.statusLine).toContain('Behind House');
    s.restoreState(snapshot);
    expect(s.statusLine).toBe(row('North of House', 'Score: 0  Turns: 1').trimEnd());
  });

  it('leaves the lower window text to the screen recorder: every word of a turn is still observed', () => {
    const s = GameSession.fromFile(path);
    expect(s.step('open mailbox').observation).toMatch(/Opening the small mailbox reveals a leaflet\./);
  });
});

describeWithJerichoStory('cutthroat.z3', 'the v3 status line of a game that shows the time', (path) => {
  it('shows the hour and minutes as ZVM did', () => {
    const s = GameSession.fromFile(path);
    expect(s.captureState().screen.statusWindow).toEqual([row('Your Room', 'Time: 8:00 AM')]);
  });
});
