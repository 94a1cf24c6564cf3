/** The thoughtbox chain as `grue transcript --thoughts` prints it: header, order, indentation, refusals. */
import { renderSession, renderSessions, sessionHeader } from '../../src/agent/thoughtbox/render';
import { applyAnswer, openSession } from '../../src/agent/thoughtbox/session';
import type { Exchange, Thought, ThoughtboxSession } from '../../src/agent/thoughtbox/schema';
import { opt } from './fixtures';

type Step = Thought | { refused: string };

const forward = (number: number, text: string): Thought => ({ number, kind: 'forward', text });
const revision = (number: number, revises: number, text: string): Thought => ({ number, kind: 'revision', revises, text });
const onBranch = (number: number, branchId: string, branchFromThought: number, text: string): Thought => ({
  number,
  kind: 'branch',
  branchId,
  branchFromThought,
  text,
});

/** A session as the reducer would record it: one exchange per step, refused ones with their error. */
function session(steps: Step[], over: Partial<ThoughtboxSession> = {}): ThoughtboxSession {
  const thoughts = steps.filter((step): step is Thought => !('refused' in step));
  const branches: Record<string, number> = {};
  for (const thought of thoughts)
    if (thought.branchId && branches[thought.branchId] === undefined) branches[thought.branchId] = thought.branchFromThought!;
  let accepted = 0;
  const exchanges: Exchange[] = steps.map((step) => {
    if (!('refused' in step)) accepted += 1;
    const echo = {
      thoughtNumber: accepted,
      totalThoughts: thoughts.length,
      nextThoughtNeeded: true,
      branches: Object.keys(branches),
      thoughtHistoryLength: accepted,
    };
    return 'refused' in step ? { call: {}, result: { ...echo, error: step.refused } } : { call: {}, result: echo };
  });
  return {
    turn: 12,
    trigger: 'blocker: the door is locked',
    required: false,
    maxIterations: 20,
    thoughts,
    totalThoughts: thoughts.length,
    branches,
    exchanges,
    iterations: steps.length,
    invalidSteps: steps.length - thoughts.length,
    outcome: 'concluded',
    action: 'unlock door with key',
    usage: { calls: steps.length, promptTokens: 700, completionTokens: 112 },
    ...over,
  };
}

const linesOf = (rendered: string) => rendered.split('\n');

describe('renderSession', () => {
  it('a forward chain: the header says turn, trigger, conclusion and cost; each thought on its own numbered line', () => {
    const lines = linesOf(
      renderSession(
        session([forward(1, 'Goal: get through the door'), forward(2, 'The door is locked; I carry a brass key'), forward(3, 'Unlock it')]),
      ),
    );
    expect(lines).toEqual([
      'turn 12 · thoughtbox (blocker: the door is locked) · concluded → "unlock door with key" · 3 thoughts, 3 calls, 812 tokens',
      '  1  Goal: get through the door',
      '  2  The door is locked; I carry a brass key',
      '  3  Unlock it',
    ]);
  });

  it('a revision names the thought it corrects', () => {
    const lines = linesOf(
      renderSession(
        session([
          forward(1, 'Goal: get through the door'),
          forward(2, 'It is locked'),
          revision(3, 1, 'the goal is the lighthouse top, the door is on the way'),
        ]),
      ),
    );
    expect(lines[3]).toBe('  3  ↺ revises 1: the goal is the lighthouse top, the door is on the way');
  });

  it('two branches from one thought: each under its own header, indented; the main line resumes at the top level', () => {
    const rendered = renderSession(
      session([
        forward(1, 'A troll blocks the bridge'),
        forward(2, 'Options: fight or bribe'),
        onBranch(3, 'fight', 2, 'I have no weapon'),
        onBranch(4, 'fight', 2, 'Fighting is hopeless'),
        onBranch(5, 'bribe', 2, 'I carry food'),
        forward(6, 'Bribe it with the food'),
      ]),
    );
    expect(linesOf(rendered).slice(1)).toEqual([
      '  1  A troll blocks the bridge',
      '  2  Options: fight or bribe',
      '  ├─ branch "fight" from 2',
      '  │  3  I have no weapon',
      '  │  4  Fighting is hopeless',
      '  ├─ branch "bribe" from 2',
      '  │  5  I carry food',
      '  6  Bribe it with the food',
    ]);
  });

  it('a branch from a branch nests one level deeper; coming back to a branch repeats its header as continued', () => {
    const lines = linesOf(
      renderSession(
        session([
          forward(1, 'Goal: the top'),
          onBranch(2, 'stairs', 1, 'Take the stairs'),
          onBranch(3, 'lamp', 2, 'The stairs are dark: light the lamp first'),
          onBranch(4, 'stairs', 1, 'With light, the stairs work'),
          forward(5, 'Light the lamp'),
        ]),
      ),
    ).slice(1);
    expect(lines).toEqual([
      '  1  Goal: the top',
      '  ├─ branch "stairs" from 1',
      '  │  2  Take the stairs',
      '  │  ├─ branch "lamp" from 2',
      '  │  │  3  The stairs are dark: light the lamp first',
      '  ├─ branch "stairs" continued',
      '  │  4  With light, the stairs work',
      '  5  Light the lamp',
    ]);
  });

  it('a revision on a branch stays in the branch', () => {
    const onBranchRevision: Thought = {
      number: 3,
      kind: 'revision',
      revises: 2,
      branchId: 'window',
      branchFromThought: 1,
      text: 'The window is nailed shut',
    };
    const lines = linesOf(
      renderSession(session([forward(1, 'Door locked'), onBranch(2, 'window', 1, 'Try the window'), onBranchRevision])),
    );
    expect(lines.slice(2)).toEqual([
      '  ├─ branch "window" from 1',
      '  │  2  Try the window',
      '  │  3  ↺ revises 2: The window is nailed shut',
    ]);
  });

  it('refused steps show where they happened, at the depth of the line they interrupted, and are counted in the header', () => {
    const lines = linesOf(
      renderSession(
        session([
          { refused: 'a revision must say which thought it corrects: set revisesThought' },
          forward(1, 'Goal: get through the door'),
          forward(2, 'It is locked'),
          { refused: 'thoughtNumber must be 3: thoughts are numbered 1, 2, 3, ... in order, and this session has 2 so far' },
          onBranch(3, 'window', 2, 'Try the window'),
          { refused: 'branch "window" started from thought 2: keep that, or name a new branch' },
          forward(4, 'Unlock the door'),
        ]),
      ),
    );
    expect(lines[0]).toMatch(/ · 4 thoughts, 3 refused, 7 calls, 812 tokens$/);
    expect(lines.slice(1)).toEqual([
      '  ✗ refused: a revision must say which thought it corrects: set revisesThought',
      '  1  Goal: get through the door',
      '  2  It is locked',
      '  ✗ refused: thoughtNumber must be 3: thoughts are numbered 1, 2, 3, ... in order, and this session has 2 so far',
      '  ├─ branch "window" from 2',
      '  │  3  Try the window',
      '  │  ✗ refused: branch "window" started from thought 2: keep that, or name a new branch',
      '  4  Unlock the door',
    ]);
  });

  it('a refusal too long for a line is cut short, and line breaks never break the columns', () => {
    const lines = linesOf(
      renderSession(session([forward(1, 'First line\nsecond line'), { refused: `invalid JSON: ${'x'.repeat(1000)}` }])),
    );
    expect(lines[1]).toBe('  1  First line second line');
    expect(lines[2].length).toBeLessThan(320);
    expect(lines[2]).toMatch(/^ {2}✗ refused: invalid JSON: x+…$/);
  });

  it('numbers are right-aligned once a chain reaches ten thoughts', () => {
    const lines = linesOf(renderSession(session(Array.from({ length: 10 }, (_, index) => forward(index + 1, `thought ${index + 1}`)))));
    expect(lines[1]).toBe('   1  thought 1');
    expect(lines[10]).toBe('  10  thought 10');
  });

  it('limit: stopped at the iteration limit without a conclusion', () => {
    const limited = session([forward(1, 'Hmm'), { refused: 'thoughtNumber must be 2' }], {
      outcome: 'limit',
      action: null,
      maxIterations: 2,
    });
    expect(sessionHeader(limited)).toBe(
      'turn 12 · thoughtbox (blocker: the door is locked) · stopped at the iteration limit (maxThinkingIterations 2) without a conclusion · 1 thought, 1 refused, 2 calls, 812 tokens',
    );
  });

  it('declined: the header says so and there is no chain', () => {
    const declined = session([], {
      outcome: 'declined',
      action: null,
      iterations: 1,
      usage: { calls: 1, promptTokens: 300, completionTokens: 5 },
    });
    expect(linesOf(renderSession(declined))).toEqual([
      'turn 12 · thoughtbox (blocker: the door is locked) · declined (the model chose not to think) · 0 thoughts, 1 call, 305 tokens',
    ]);
  });

  it.each([
    ['abandoned', /· abandoned \(the model stopped calling the tool before concluding\) ·/],
    ['unreachable', /· the LLM failed \(after its retries; the turn names why\) ·/],
    ['open', /· still thinking ·/],
  ] as const)('%s is visible in the header', (outcome, expected) => {
    expect(sessionHeader(session([forward(1, 'Goal')], { outcome, action: null, trigger: 'always' }))).toMatch(expected);
  });

  it('renders what the reducer records (a refused step, a branch, a conclusion)', () => {
    const options = [opt('north'), opt('unlock door with key')];
    const usage = { calls: 1, promptTokens: 100, completionTokens: 10 };
    const step = (over: object) => ({
      kind: 'step' as const,
      step: { thought: 'x', thoughtNumber: 1, totalThoughts: 3, nextThoughtNeeded: true, ...over },
    });
    let recorded = openSession(7, 'always', true, 20);
    for (const answer of [
      step({ thought: 'Goal: the door' }),
      step({ thought: 'Skipped a number', thoughtNumber: 3 }),
      step({ thought: 'Go round by the north', thoughtNumber: 2, branchFromThought: 1, branchId: 'north' }),
      step({ thought: 'Unlock it', thoughtNumber: 3, nextThoughtNeeded: false, action: 'unlock door with key' }),
    ]) {
      recorded = applyAnswer(recorded, answer, usage, options);
    }
    expect(linesOf(renderSession(recorded))).toEqual([
      'turn 7 · thoughtbox (always) · concluded → "unlock door with key" · 3 thoughts, 1 refused, 4 calls, 440 tokens',
      '  1  Goal: the door',
      '  ✗ refused: thoughtNumber must be 2: thoughts are numbered 1, 2, 3, ... in order, and this session has 1 so far',
      '  ├─ branch "north" from 1',
      '  │  2  Go round by the north',
      '  3  Unlock it',
    ]);
  });
});

describe('renderSessions', () => {
  it('separates sessions with a blank line, in the order given', () => {
    const rendered = renderSessions([session([forward(1, 'first')], { turn: 3 }), session([forward(1, 'second')], { turn: 9 })]);
    const lines = linesOf(rendered);
    expect(lines[0]).toMatch(/^turn 3 · /);
    expect(lines[2]).toBe('');
    expect(lines[3]).toMatch(/^turn 9 · /);
    expect(renderSessions([])).toBe('');
  });
});
