import { PROGRESS_EVERY_TURNS, RunningLines, runningLine } from '../../src/cli/suite';
import type { EpisodeStatus } from '../../src/workflows/contract';

const status = (turn: number, score = 0): EpisodeStatus => ({
  game: 'zork1.z5',
  turn,
  maxTurns: 100,
  score,
  maxScore: 350,
  moves: turn,
  location: 'Forest Path',
  paused: false,
  standing: false,
  stopping: false,
  finished: false,
  victory: false,
  died: false,
  lastCommand: null,
  lastObservation: '',
  runTurns: turn,
});

describe('grue suite: a running game shows its course', () => {
  it('a line names the episode, the turn of the step budget and the score of the max', () => {
    expect(runningLine('zork1', { completed: 1, total: 10 }, status(50, 12))).toBe(
      '  zork1          running  episode 2/10, turn 50/100, score 12/350, Forest Path',
    );
    expect(runningLine('lgop', { completed: 0, total: 1 }, { ...status(5), maxScore: null, location: '' })).toBe(
      '  lgop           running  episode 1/1, turn 5/100, score 0',
    );
  });

  it('a line is due once per stretch of turns and again when a new episode starts, not on every poll', () => {
    const lines = new RunningLines();
    const campaign = { completed: 0, total: 2 };
    expect(lines.due('zork1', campaign, status(0))).toBeNull();
    expect(lines.due('zork1', campaign, status(1))).toContain('turn 1/100');
    expect(lines.due('zork1', campaign, status(PROGRESS_EVERY_TURNS - 1))).toBeNull();
    expect(lines.due('zork1', campaign, status(PROGRESS_EVERY_TURNS))).toContain(`turn ${PROGRESS_EVERY_TURNS}/100`);
    expect(lines.due('zork1', campaign, status(PROGRESS_EVERY_TURNS + 3))).toBeNull();
    // Another game keeps its own count.
    expect(lines.due('detective', campaign, status(PROGRESS_EVERY_TURNS + 3))).toContain('detective');
    // The second episode starts over at its first turns.
    expect(lines.due('zork1', { completed: 1, total: 2 }, status(2))).toContain('episode 2/2, turn 2/100');
  });
});
