/**
 * The thoughtbox's pure parts (seed 003's unit tests): the step schema, numbering, revision,
 * branching, termination, the iteration limit, progressive disclosure of the cookbook, when a
 * session is offered, the message list every call carries, and how a conclusion reaches decide.
 */
import { createRng } from '../../src/agent/rng';
import { initialState } from '../../src/agent/state';
import {
  applyAnswer,
  isOpen,
  openSession,
  thinkRequest,
  ThinkAnswer,
  ThinkingStep,
  ThinkingStepSchema,
  thoughtboxOffer,
  ThoughtboxSession,
  AUTO,
} from '../../src/agent/thoughtbox';
import { constrainedThoughtboxTool, resultText, thinkingMessages, thoughtboxTool } from '../../src/agent/thoughtbox/prompt';
import { decide, deliberate, learn } from '../../src/agent/turn';
import { turnRecord } from '../../src/agent/records';
import { initialMemory } from '../../src/memory/runner';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { freshLearned } from '../../src/agent/learned';
import type { GroundTruthData, StartGameResult } from '../../src/schemas/game';
import { analysis, opt } from './fixtures';

const OPTIONS = [opt('north'), opt('unlock door with key'), opt('open door'), opt('take lamp')];
const NO_USAGE = { calls: 1, promptTokens: 10, completionTokens: 5 };

const step = (n: number, over: Partial<ThinkingStep> = {}): ThinkAnswer => ({
  kind: 'step',
  step: { thought: `thought ${n}`, thoughtNumber: n, totalThoughts: 3, nextThoughtNeeded: true, ...over },
});
const run = (answers: ThinkAnswer[], session = openSession(4, 'blocker: locked door', true, 20)): ThoughtboxSession =>
  answers.reduce((s, a) => applyAnswer(s, a, NO_USAGE, OPTIONS), session);
const lastError = (s: ThoughtboxSession) => s.exchanges[s.exchanges.length - 1].result.error;

describe('ThinkingStep schema', () => {
  it('takes the seed fields, with the optional ones absent or null', () => {
    expect(ThinkingStepSchema.safeParse({ thought: 'go north', thoughtNumber: 1, totalThoughts: 2, nextThoughtNeeded: true }).success).toBe(
      true,
    );
    expect(
      ThinkingStepSchema.safeParse({
        thought: 'x',
        thoughtNumber: 2,
        totalThoughts: 2,
        nextThoughtNeeded: false,
        isRevision: null,
        revisesThought: null,
        branchFromThought: null,
        branchId: null,
        needsMoreThoughts: null,
        includePatternsCookbook: true,
        action: 'open door',
      }).success,
    ).toBe(true);
  });

  it('refuses a missing thought, a thought number below 1 and a wrong type', () => {
    expect(ThinkingStepSchema.safeParse({ thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: true }).success).toBe(false);
    expect(ThinkingStepSchema.safeParse({ thought: 'x', thoughtNumber: 0, totalThoughts: 1, nextThoughtNeeded: true }).success).toBe(false);
    expect(ThinkingStepSchema.safeParse({ thought: 'x', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: 'yes' }).success).toBe(
      false,
    );
  });

  it("the embedded model's grammar allows only steps valid as the next thought", () => {
    const first = constrainedThoughtboxTool(['open door', 'north'], 1).schema;
    const base = {
      thought: 'x',
      thoughtNumber: 1,
      totalThoughts: 2,
      needsMoreThoughts: false,
      includePatternsCookbook: false,
      isRevision: false,
      revisesThought: null,
      branchFromThought: null,
      branchId: null,
    };
    expect(first.safeParse({ ...base, nextThoughtNeeded: true, action: null }).success).toBe(true);
    expect(first.safeParse({ ...base, nextThoughtNeeded: false, action: 'open door' }).success).toBe(true);
    expect(first.safeParse({ ...base, nextThoughtNeeded: false, action: null }).success).toBe(false);
    expect(first.safeParse({ ...base, thoughtNumber: 2, nextThoughtNeeded: true, action: null }).success).toBe(false);
    expect(first.safeParse({ ...base, isRevision: true, revisesThought: 1, nextThoughtNeeded: true, action: null }).success).toBe(false);
    const third = constrainedThoughtboxTool(['open door'], 3).schema;
    const at3 = { ...base, thoughtNumber: 3, totalThoughts: 3, nextThoughtNeeded: true, action: null };
    expect(third.safeParse({ ...at3, isRevision: true, revisesThought: 2 }).success).toBe(true);
    expect(third.safeParse({ ...at3, isRevision: true, revisesThought: 3 }).success).toBe(false);
    expect(third.safeParse({ ...at3, revisesThought: 1 }).success).toBe(false);
    expect(third.safeParse({ ...at3, branchFromThought: 1, branchId: 'b' }).success).toBe(true);
    expect(third.safeParse({ ...at3, branchFromThought: 1 }).success).toBe(false);
    // Whatever the grammar lets through, the seed's schema takes.
    expect(ThinkingStepSchema.safeParse({ ...at3, branchFromThought: 1, branchId: 'b' }).success).toBe(true);
  });

  it("with no list of valid actions (the `none` assist) the embedded model's grammar still lets it conclude, with a typed command", () => {
    const base = {
      thought: 'x',
      thoughtNumber: 1,
      totalThoughts: 2,
      needsMoreThoughts: false,
      includePatternsCookbook: false,
      isRevision: false,
      revisesThought: null,
      branchFromThought: null,
      branchId: null,
    };
    const first = constrainedThoughtboxTool([], 1).schema;
    expect(first.safeParse({ ...base, nextThoughtNeeded: false, action: 'open the mailbox' }).success).toBe(true);
    expect(first.safeParse({ ...base, nextThoughtNeeded: true, action: null }).success).toBe(true);
    expect(first.safeParse({ ...base, nextThoughtNeeded: false, action: '' }).success).toBe(false);
    expect(first.safeParse({ ...base, nextThoughtNeeded: false, action: 'x'.repeat(61) }).success).toBe(false);
  });

  it("on the session's last call the embedded model's grammar takes only a conclusion", () => {
    const at2 = {
      thought: 'x',
      thoughtNumber: 2,
      totalThoughts: 2,
      needsMoreThoughts: false,
      includePatternsCookbook: false,
      isRevision: false,
      revisesThought: null,
      branchFromThought: null,
      branchId: null,
    };
    for (const actions of [['open door', 'north'], []]) {
      const last = constrainedThoughtboxTool(actions, 2, { lastCall: true }).schema;
      expect(last.safeParse({ ...at2, nextThoughtNeeded: false, action: 'north' }).success).toBe(true);
      expect(last.safeParse({ ...at2, nextThoughtNeeded: true, action: null }).success).toBe(false);
      expect(last.safeParse({ ...at2, isRevision: true, revisesThought: 1, nextThoughtNeeded: true, action: null }).success).toBe(false);
    }
  });

  it('the request says when a call is the last the session allows, and the prompt asks for the conclusion then', () => {
    const turn = { observation: 'You are in a kitchen.', lastAction: null, validActions: [], context: [], seed: 1 };
    const session = openSession(4, 'blocker: locked door', true, 2);
    expect(thinkRequest(session, turn, null).lastCall).toBe(false);
    const after = applyAnswer(session, step(1), NO_USAGE, []);
    const request = thinkRequest(after, turn, null);
    expect(request.lastCall).toBe(true);
    const system = thinkingMessages(request, '', 3300)[0].content;
    expect(system).toMatch(/last thought you may make/i);
    expect(system).toMatch(/command to type now/i);
    expect(system).not.toMatch(/one of VALID ACTIONS/);
    expect(thinkingMessages(thinkRequest(session, { ...turn, validActions: ['north'] }, null), '', 3300)[0].content).toMatch(
      /one of VALID ACTIONS/,
    );
  });

  it('the tool narrows the action to the valid actions', () => {
    const tool = thoughtboxTool(['open door', 'north']);
    expect(
      tool.schema.safeParse({ thought: 'x', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false, action: 'open door' }).success,
    ).toBe(true);
    expect(
      tool.schema.safeParse({ thought: 'x', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false, action: 'fly' }).success,
    ).toBe(false);
  });
});

describe('a thoughtbox session', () => {
  it('numbers thoughts in order and refuses a skipped or repeated number, saying which is next', () => {
    const s = run([step(1), step(3)]);
    expect(s.thoughts.map((t) => t.number)).toEqual([1]);
    expect(lastError(s)).toMatch(/thoughtNumber must be 2/);
    expect(s.invalidSteps).toBe(1);
    expect(s.iterations).toBe(2);
    const corrected = run([step(2)], s);
    expect(corrected.thoughts.map((t) => t.number)).toEqual([1, 2]);
  });

  it('lets totalThoughts grow, and needsMoreThoughts raises it past the current thought', () => {
    const s = run([step(1, { totalThoughts: 1 }), step(2, { totalThoughts: 1 }), step(3, { totalThoughts: 3, needsMoreThoughts: true })]);
    expect(s.totalThoughts).toBe(4);
    expect(s.exchanges[1].result).toMatchObject({ thoughtNumber: 2, totalThoughts: 2, thoughtHistoryLength: 2, nextThoughtNeeded: true });
  });

  it('a revision must name an earlier thought', () => {
    expect(lastError(run([step(1), step(2, { isRevision: true })]))).toMatch(/revisesThought/);
    expect(lastError(run([step(1), step(2, { isRevision: true, revisesThought: 2 })]))).toMatch(/earlier thought \(1 to 1\)/);
    expect(lastError(run([step(1), step(2, { revisesThought: 1 })]))).toMatch(/only for revisions/);
    const s = run([step(1), step(2, { isRevision: true, revisesThought: 1 })]);
    expect(s.thoughts[1]).toMatchObject({ number: 2, kind: 'revision', revises: 1 });
  });

  it('a branch starts from a thought that exists and keeps its id', () => {
    expect(lastError(run([step(1), step(2, { branchFromThought: 5, branchId: 'b' })]))).toMatch(/thought 5 does not exist/);
    expect(lastError(run([step(1), step(2, { branchFromThought: 1 })]))).toMatch(/needs a name/);
    expect(lastError(run([step(1), step(2, { branchId: 'new' })]))).toMatch(/"new" is new/);
    const s = run([step(1), step(2), step(3, { branchFromThought: 1, branchId: 'b' }), step(4, { branchId: 'b' })]);
    expect(s.branches).toEqual({ b: 1 });
    expect(s.thoughts.slice(2)).toEqual([
      { number: 3, kind: 'branch', branchId: 'b', branchFromThought: 1, text: 'thought 3' },
      { number: 4, kind: 'branch', branchId: 'b', branchFromThought: 1, text: 'thought 4' },
    ]);
    expect(s.exchanges[3].result.branches).toEqual(['b']);
    expect(lastError(run([step(5, { branchFromThought: 2, branchId: 'b' })], s))).toMatch(/started from thought 1/);
    expect(lastError(run([step(1), step(2, { branchFromThought: 1, branchId: 'c', isRevision: true, revisesThought: 1 })]))).toMatch(
      /not both/,
    );
  });

  it('ends when a thought says no more is needed and names a valid action, which becomes the conclusion', () => {
    const refused = run([step(1), step(2, { nextThoughtNeeded: false })]);
    expect(isOpen(refused)).toBe(true);
    expect(lastError(refused)).toMatch(/must name the command to play/);
    const s = run([step(1), step(2, { nextThoughtNeeded: false, action: 'unlock the door with the key' })]);
    expect(s.outcome).toBe('concluded');
    expect(s.action).toBe('unlock door with key');
    expect(() => applyAnswer(s, step(3), NO_USAGE, OPTIONS)).toThrow(/is over \(concluded\)/);
  });

  it('stops at the iteration limit without a conclusion (MaxIterationsExceeded), refused calls counted', () => {
    const s = run([step(1), { kind: 'invalid', call: '{bad', error: 'not JSON' }, step(2)], openSession(0, 'always', true, 3));
    expect(s.outcome).toBe('limit');
    expect(s.action).toBeNull();
    expect(s.iterations).toBe(3);
    expect(s.invalidSteps).toBe(1);
    expect(s.usage).toEqual({ calls: 3, promptTokens: 30, completionTokens: 15 });
  });

  it('an answer without a call declines an optional session, and abandons a required or started one', () => {
    const none: ThinkAnswer = { kind: 'none', text: 'no need' };
    expect(run([none], openSession(0, 'blocker', false, 20)).outcome).toBe('declined');
    expect(run([none], openSession(0, 'always', true, 20)).outcome).toBe('abandoned');
    expect(run([step(1), none], openSession(0, 'blocker', false, 20)).outcome).toBe('abandoned');
  });

  it('sends the cookbook with the first result, and later only when asked', () => {
    const s = run([step(1), step(2), step(3, { includePatternsCookbook: true })]);
    expect(s.exchanges.map((e) => e.result.patternsCookbook ?? false)).toEqual([true, false, true]);
    expect(resultText(s.exchanges[0].result, '# Patterns')).toContain('# Patterns');
    expect(resultText(s.exchanges[1].result, '# Patterns')).not.toContain('# Patterns');
    // A refused first call still gets it: it is the session's first result.
    expect(run([step(2)]).exchanges[0].result).toMatchObject({ patternsCookbook: true, error: expect.any(String) });
  });
});

const truth = (location: string): GroundTruthData => ({
  score: 0,
  moves: 0,
  location: { id: 1, name: location },
  inventory: [],
  done: false,
  victory: false,
  died: false,
});
const start: StartGameResult = {
  observation: 'A locked door.',
  truth: truth('Hall'),
  worldHash: 'h-start',
  snapshot: 's',
  options: OPTIONS,
  commands: [],
  storyMd5: '0'.repeat(32),
  storyName: 't',
  maxScore: 1,
};
const config = (thoughtbox: 'off' | 'auto' | 'always') => resolveEpisodeConfig({ game: 't', thoughtbox });
const stateOf = () => initialState(start, freshLearned(), 1, initialMemory(freshLearned(), config('auto')));
const answers = (over = {}) => ({ turn: { answer: analysis({ recommended_action: 'north', ...over }), usage: NO_USAGE }, failure: null });

describe('when a turn thinks', () => {
  it('off never, always on every answered turn (required), auto only on a hard one (optional)', () => {
    expect(thoughtboxOffer(stateOf(), config('off'), answers({ blocking_condition: 'door locked' }))).toBeNull();
    expect(thoughtboxOffer(stateOf(), config('always'), answers())).toEqual({ trigger: 'always', required: true });
    expect(thoughtboxOffer(stateOf(), config('auto'), answers())).toBeNull();
    expect(thoughtboxOffer(stateOf(), config('auto'), answers({ blocking_condition: 'the door is locked' }))).toEqual({
      trigger: 'blocker: the door is locked',
      required: false,
    });
    expect(thoughtboxOffer(stateOf(), config('always'), 'unreachable')).toBeNull();
  });

  it('auto: a named failure, a long stall, or a state an earlier episode died from', () => {
    const failure = {
      ...answers(),
      failure: { answer: { prerequisite: 'a key', failure_reason: 'locked', suggested_action: '', lesson: '' }, usage: NO_USAGE },
    };
    expect(thoughtboxOffer(stateOf(), config('auto'), failure)?.trigger).toBe('failure: a key');
    expect(thoughtboxOffer({ ...stateOf(), stalledTurns: AUTO.stalledTurns }, config('auto'), answers())?.trigger).toMatch(/no progress/);
    const died = { ...stateOf(), learned: { ...freshLearned(), deaths: ['h-start'] } };
    expect(thoughtboxOffer(died, config('auto'), answers())?.trigger).toMatch(/died/);
  });

  it('auto waits a few turns after an offer, and placeholder blockers do not count', () => {
    const hard = answers({ blocking_condition: 'door locked' });
    expect(thoughtboxOffer({ ...stateOf(), turn: 5, lastThoughtboxTurn: 4 }, config('auto'), hard)).toBeNull();
    expect(thoughtboxOffer({ ...stateOf(), turn: 5 + AUTO.cooldownTurns, lastThoughtboxTurn: 5 }, config('auto'), hard)).not.toBeNull();
    expect(thoughtboxOffer(stateOf(), config('auto'), answers({ blocking_condition: 'unknown' }))).toBeNull();
  });
});

describe('the message list every think call carries', () => {
  const turn = {
    observation: 'The door is locked.',
    lastAction: 'open door',
    validActions: OPTIONS.map((o) => o.command),
    context: [{ title: 'MAP', text: 'Hall: north (locked door)' }],
    seed: 7,
  };

  it('keeps the system prompt and the whole turn context, then each round as a call and its result', () => {
    const s = run([step(1), step(2)]);
    const messages = thinkingMessages(thinkRequest(s, turn, analysis({ blocking_condition: 'door locked' })), 'COOKBOOK TEXT', 10_000);
    expect(messages.map((m) => m.role)).toEqual(['system', 'user', 'assistant', 'tool', 'assistant', 'tool']);
    const context = messages[1].content;
    for (const part of ['The door is locked.', 'Hall: north (locked door)', 'unlock door with key', 'door locked', 'blocker: locked door'])
      expect(context).toContain(part);
    expect(messages[2]).toMatchObject({ toolCalls: [{ id: 'thought-1', tool: 'thoughtbox', arguments: { thought: 'thought 1' } }] });
    expect(messages[3]).toMatchObject({ role: 'tool', toolCallId: 'thought-1' });
    expect(messages[3].content).toContain('COOKBOOK TEXT');
    expect(messages[5].content).not.toContain('COOKBOOK TEXT');
  });

  it('over budget, cuts the context and shortens earlier thoughts but keeps every round', () => {
    const long = (n: number) => step(n, { thought: 'x'.repeat(390) });
    const s = run([long(1), long(2), long(3), long(4)]);
    const request = thinkRequest(s, { ...turn, observation: 'y'.repeat(3000) }, null);
    const messages = thinkingMessages(request, '', 700);
    expect(messages.filter((m) => m.role === 'tool')).toHaveLength(4);
    const firstThought = (messages[2] as { toolCalls: { arguments: { thought: string } }[] }).toolCalls[0].arguments.thought;
    expect(firstThought.length).toBeLessThan(200);
    expect(messages[1].content).not.toContain('y'.repeat(300));
    expect(messages[1].content).toContain('VALID ACTIONS');
    const roomy = thinkingMessages(request, '', 100_000);
    expect((roomy[2] as { toolCalls: { arguments: { thought: string } }[] }).toolCalls[0].arguments.thought).toHaveLength(390);
  });
});

describe('a conclusion in the decide stage', () => {
  const concluded = (action: string) => ({ ...run([step(1, { nextThoughtNeeded: false, action })]) });

  it('is taken when its learned reliability trusts it, and the turn record says a session ran', () => {
    const state = stateOf();
    const trusted = {
      ...state,
      learned: { ...state.learned, reliability: { ...state.learned.reliability, thought: { tried: 50, helped: 50 } } },
    };
    const deliberation = deliberate(trusted, config('auto'), createRng(1));
    expect(deliberation.kind).toBe('ask');
    const decision = decide(trusted, config('auto'), createRng(1), deliberation, answers(), concluded('take lamp'));
    expect(decision).toMatchObject({ command: 'take lamp', reason: 'thought', conclusionProbe: true });
    expect(decision.usage.calls).toBe(2);
    const after = learn(
      trusted,
      config('auto'),
      decision,
      {
        command: 'take lamp',
        observation: 'Taken.',
        truth: truth('Hall'),
        worldHash: 'h-take lamp',
        snapshot: 's2',
        options: OPTIONS,
        commands: [],
      },
      createRng(1),
    );
    expect(after.lastThoughtboxTurn).toBe(0);
    expect(after.learned.reliability.thought).toEqual({ tried: 51, helped: 51 });
    expect(turnRecord(after, decision, config('auto'), [])).toMatchObject({ usedThoughtbox: true, thinkingSteps: 1, reason: 'thought' });
  });

  it('an unconcluded session leaves the choice to the oracle and the selector', () => {
    const state = stateOf();
    const deliberation = deliberate(state, config('auto'), createRng(1));
    const limited = run([step(1)], openSession(0, 'always', true, 1));
    const decision = decide(state, config('auto'), createRng(1), deliberation, answers({ recommended_action: 'north' }), limited);
    expect(decision.reason).not.toBe('thought');
    expect(decision.conclusionProbe).toBeNull();
    expect(turnRecord(state, decision, config('auto'), [])).toMatchObject({ usedThoughtbox: true, thinkingSteps: 1 });
  });
});
