/** `grue transcript --thoughts` without a server: merging the recorded sessions with the live query's. */
import { liveSessions, mergeSessions } from '../../src/cli/thoughts';
import { openSession } from '../../src/agent/thoughtbox/session';

const session = (turn: number, trigger: string) => openSession(turn, trigger, false, 20);

describe('grue transcript --thoughts: recorded and live sessions', () => {
  it('one session per turn, in turn order, the live one winning', () => {
    const recorded = [session(3, 'file'), session(8, 'file')];
    const live = [session(8, 'live'), session(12, 'live, in progress')];
    expect(mergeSessions(recorded, live).map((merged) => [merged.turn, merged.trigger])).toEqual([
      [3, 'file'],
      [8, 'live'],
      [12, 'live, in progress'],
    ]);
  });

  it('a query nobody answered adds nothing; an answer of an unknown shape is set aside with a note', () => {
    expect(liveSessions(null)).toEqual([]);
    expect(liveSessions([session(2, 'live')])).toHaveLength(1);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(liveSessions([{ turn: 2, thoughts: 'not a list' }])).toEqual([]);
      expect(stderr).toHaveBeenCalledWith(expect.stringMatching(/thinking query .* recorded sessions only/));
    } finally {
      stderr.mockRestore();
    }
  });
});
