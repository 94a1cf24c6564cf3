/** `grue transcript --thoughts` without a server: merging the recorded sessions with the live query's, and printing them. */
import { liveSessions, mergeSessions, printThoughts } from '../../src/cli/thoughts';
import { applyAnswer, openSession } from '../../src/agent/thoughtbox/session';
import { opt } from '../agent/fixtures';

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

/** Thoughtbox sessions as the reducer records them, for `transcript --thoughts` to print. */
const usage = { calls: 1, promptTokens: 100, completionTokens: 10 };
const step = (over: object) => ({
  kind: 'step' as const,
  step: { thought: 'x', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true, ...over },
});

function concludedSession(turn: number) {
  let session = openSession(turn, 'always', true, 20);
  for (const answer of [
    step({ thought: 'Goal: cross the river' }),
    step({ thought: 'A skipped number', thoughtNumber: 3 }),
    step({
      thought: 'The ferry leaves from the north',
      thoughtNumber: 2,
      nextThoughtNeeded: false,
      branchFromThought: 1,
      branchId: 'ferry',
      action: 'north',
    }),
  ]) {
    session = applyAnswer(session, answer, usage, [opt('north'), opt('south')]);
  }
  return session;
}

const declinedSession = (turn: number) =>
  applyAnswer(openSession(turn, 'no progress for 8 turns', false, 20), { kind: 'none', text: 'no need' }, usage, [opt('north')]);

/** What printThoughts writes to stdout and stderr. */
function printed(recorded: Parameters<typeof printThoughts>[1], live: unknown, options: Parameters<typeof printThoughts>[3]) {
  const out: string[] = [];
  const err: string[] = [];
  const stdout = jest.spyOn(process.stdout, 'write').mockImplementation((chunk) => out.push(String(chunk)) > 0);
  const stderr = jest.spyOn(process.stderr, 'write').mockImplementation((chunk) => err.push(String(chunk)) > 0);
  try {
    printThoughts('episode-1', recorded, live, options);
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
  }
  return { stdout: out.join(''), stderr: err.join('') };
}

describe('grue transcript --thoughts: what it prints', () => {
  it('each chain under its header, refusals and branches in place; --json and --last', () => {
    const recorded = [concludedSession(2), declinedSession(4)];
    expect(printed(recorded, null, {}).stdout.split('\n')).toEqual([
      'turn 2 · thoughtbox (always) · concluded → "north" · 2 thoughts, 1 refused, 3 calls, 330 tokens',
      '  1  Goal: cross the river',
      '  ✗ refused: thoughtNumber must be 2: thoughts are numbered 1, 2, 3, ... in order, and this session has 1 so far',
      '  ├─ branch "ferry" from 1',
      '  │  2  The ferry leaves from the north',
      '',
      'turn 4 · thoughtbox (no progress for 8 turns) · declined (the model chose not to think) · 0 thoughts, 1 call, 110 tokens',
      '',
    ]);
    const lastJson = printed(recorded, null, { json: true, last: 1 });
    expect(
      lastJson.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line)),
    ).toMatchObject([{ turn: 4, outcome: 'declined' }]);
  });

  it('says so when there is nothing to print', () => {
    const none = printed([], null, {});
    expect(none.stdout).toBe('');
    expect(none.stderr).toMatch(/no thoughtbox sessions recorded for episode-1/);
  });
});
