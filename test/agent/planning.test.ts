import { freshBeliefs } from '../../src/agent/beliefs';
import { freshDynamics, knownStates, observe } from '../../src/agent/dynamics';
import { planToReward, planToState } from '../../src/agent/planner';
import { explore, knownMove, MAX_TRIES, oracleFreePolicy, triedKey } from '../../src/agent/policy';
import { freshReliability, recordOutcome } from '../../src/agent/reliability';
import { createRng } from '../../src/agent/rng';
import { actionWouldHelp, selectAction } from '../../src/agent/selector';
import { updateFromAnalysis, updateReliability } from '../../src/agent/updater';
import { freshLearned } from '../../src/agent/learned';
import type { TurnAnalysis } from '../../src/schemas/oracle';
import { analysis as highConfidence, opt, probeContext } from './fixtures';

/** The small model's usual answer: whatever it says, its confidence is "low". */
const analysis = (over: Partial<TurnAnalysis> = {}): TurnAnalysis => highConfidence({ confidence: 'low', ...over });

/** A learned chain start -north-> hall -open window-> window -enter-> kitchen (+10), and a dead end. */
function zorkLike() {
  let d = freshDynamics();
  d = observe(d, 'start', 'north', 'hall', 0);
  d = observe(d, 'hall', 'open window', 'window', 0);
  d = observe(d, 'window', 'enter', 'kitchen', 10);
  d = observe(d, 'start', 'south', 'garden', 0);
  d = observe(d, 'garden', 'jump', 'dead', -10);
  return d;
}

describe('planning on the dynamics model', () => {
  const all = () => true;

  it('finds the first step of the shortest learned path to a reward', () => {
    expect(planToReward(zorkLike(), 'start', all)).toEqual({ action: 'north', steps: 3, reward: 10 });
    expect(planToReward(zorkLike(), 'hall', all)).toEqual({ action: 'open window', steps: 2, reward: 10 });
  });

  it('prefers a shorter path, then a larger reward', () => {
    let d = zorkLike();
    d = observe(d, 'start', 'climb tree', 'tree', 5);
    expect(planToReward(d, 'start', all)).toMatchObject({ action: 'climb tree', steps: 1 });
    d = observe(d, 'start', 'dig', 'hole', 8);
    expect(planToReward(d, 'start', all)).toMatchObject({ action: 'dig', reward: 8 });
  });

  it('never routes through a penalty, and only starts with a usable action', () => {
    let d = freshDynamics();
    d = observe(d, 'start', 'jump', 'dead', -10);
    d = observe(d, 'dead', 'pray', 'heaven', 50);
    expect(planToReward(d, 'start', all)).toBeNull();
    expect(planToReward(zorkLike(), 'start', (a) => a !== 'north')).toBeNull();
    expect(planToReward(freshDynamics(), 'start', all)).toBeNull();
  });

  it('drives the oracle-free policy, which stops retrying a step that does not work', () => {
    const learned = { ...freshLearned(), dynamics: zorkLike() };
    const options = [opt('north'), opt('south'), opt('wait')];
    const ctx = { ...probeContext(), options, worldHash: 'start', visited: new Set(['start']), learned, rng: createRng(1), tried: {} };
    expect(oracleFreePolicy(ctx)).toEqual({ command: 'north', reason: 'planned', why: 'a learned path to +10 in 3 steps' });
    const worn = { ...ctx, tried: { [triedKey('start', 'north')]: MAX_TRIES } };
    expect(knownMove(worn).choice).toBeNull();
  });

  it('walks to the first reachable goal in the order given, never through a penalty', () => {
    const d = zorkLike();
    expect(planToState(d, 'start', ['kitchen', 'window'], all)).toEqual({ action: 'north', steps: 3, goal: 'kitchen' });
    expect(planToState(d, 'start', ['nowhere', 'window'], all)).toEqual({ action: 'north', steps: 2, goal: 'window' });
    expect(planToState(d, 'hall', ['garden', 'window'], all)).toEqual({ action: 'open window', steps: 1, goal: 'window' }); // the garden is not reachable from the hall
    expect(planToState(d, 'start', ['dead'], all)).toBeNull(); // only through the penalty
    expect(planToState(d, 'start', ['start'], all)).toBeNull(); // already there
    expect(planToState(d, 'start', ['kitchen'], (a) => a !== 'north')).toBeNull();
  });

  it('returns across episodes to the oldest state an earlier episode found something new from, after any learned reward', () => {
    // An earlier episode went start -north-> hall -open window-> window and found things from the
    // hall and from the window; this one stands at the start.
    const walked = observe(observe(freshDynamics(), 'start', 'north', 'hall', 0), 'hall', 'open window', 'window', 0);
    const learned = { ...freshLearned(), dynamics: walked, frontier: ['hall', 'window'] };
    const options = [opt('north'), opt('east')];
    const ctx = { ...probeContext(), options, worldHash: 'start', visited: new Set(['start']), learned, rng: createRng(1), tried: {} };
    expect(knownMove(ctx).choice).toEqual({
      command: 'north',
      reason: 'return',
      why: 'back to where an earlier episode found something new, 1 step away',
    });
    // Once this episode stood in the hall, the window is next.
    const inHall = { ...ctx, worldHash: 'hall', visited: new Set(['start', 'hall']), options: [opt('open window'), opt('south')] };
    expect(knownMove(inHall).choice).toMatchObject({ command: 'open window', reason: 'return' });
    // A learned reward comes first; with every goal behind it, nothing is left to return to.
    expect(knownMove({ ...inHall, learned: { ...learned, dynamics: zorkLike() } }).choice).toMatchObject({
      command: 'open window',
      reason: 'planned',
    });
    expect(knownMove({ ...inHall, visited: new Set(['start', 'hall', 'window']) }).choice).toBeNull();
  });

  it('explores states no episode has seen before states only this episode has not', () => {
    const learned = { ...freshLearned(), dynamics: observe(freshDynamics(), 'start', 'north', 'h-north', 0) };
    const options = [opt('north'), opt('east')];
    for (let seed = 1; seed <= 20; seed++) {
      const context = probeContext();
      const cells = { ...context.cells, known: knownStates(learned.dynamics) };
      expect(
        explore(options, { ...context, cells, options, worldHash: 'start', visited: new Set(), learned, rng: createRng(seed), tried: {} })
          .command,
      ).toBe('east');
    }
  });
});

describe('the informed selector: trust by learned reliability, advice vetted by the engine', () => {
  const learned = freshLearned();
  const base = { ...probeContext(), reliability: freshReliability(), worldHash: 's', visited: new Set<string>(), learned, tried: {} };
  const options = [opt('answer phone'), opt('stand up'), opt('take wallet'), opt('sleep')];

  it('trusts a recommendation by learned reliability, not by the confidence the model reports', () => {
    const follow = (reliability: ReturnType<typeof freshReliability>) =>
      Array.from({ length: 400 }, (_, i) =>
        selectAction({ ...base, reliability, analysis: analysis(), options, rng: createRng(i + 1) }),
      ).filter((s) => s.followedRecommendation).length / 400;
    let good = freshReliability();
    let bad = freshReliability();
    for (let i = 0; i < 40; i++) {
      good = recordOutcome(good, 'recommendation', i % 10 !== 0);
      bad = recordOutcome(bad, 'recommendation', i % 10 === 0);
    }
    expect(follow(freshReliability())).toBeGreaterThan(0.4); // prior 0.5, even with "low" confidence
    expect(follow(good)).toBeGreaterThan(0.8);
    expect(follow(bad)).toBeLessThan(0.2);
  });

  it("does not follow advice the engine has ruled out (the oracle's own failure list does not veto)", () => {
    let sure = freshReliability();
    for (let i = 0; i < 50; i++) sure = recordOutcome(sure, 'recommendation', true);
    const take = (over: Partial<Parameters<typeof selectAction>[0]>) =>
      selectAction({ ...base, reliability: sure, analysis: analysis(), options, rng: createRng(7), ...over });
    expect(take({}).command).toBe('stand up');
    expect(take({ visited: new Set(['h-stand up']) }).followedRecommendation).toBe(false);
    expect(take({ tried: { [triedKey('s', 'stand up')]: MAX_TRIES } }).followedRecommendation).toBe(false);
  });

  it('plans before asking: a learned path to a reward beats the recommendation', () => {
    const withPath = { ...freshLearned(), dynamics: observe(freshDynamics(), 's', 'take wallet', 's2', 1) };
    const s = selectAction({ ...base, learned: withPath, analysis: analysis(), options, rng: createRng(3) });
    expect(s).toEqual({ command: 'take wallet', reason: 'planned', why: 'a learned path to +1 in 1 step', followedRecommendation: false });
  });

  it('scores every recommendation by what the probe says it would do, taken or not', () => {
    expect(actionWouldHelp(analysis().recommended_action, options, new Set())).toBe(true);
    expect(actionWouldHelp(analysis().recommended_action, options, new Set(['h-stand up']))).toBe(false);
    expect(actionWouldHelp('fly', options, new Set())).toBe(false);
    const outcome = { scoreDelta: 0, newState: false, worldChanged: false };
    const flags = { actedOnBlocker: false, progressClaim: null, conclusionProbe: null };
    expect(updateReliability(freshReliability(), outcome, { ...flags, recommendationProbe: true }).recommendation).toEqual({
      tried: 1,
      helped: 1,
    });
    expect(updateReliability(freshReliability(), outcome, { ...flags, recommendationProbe: null }).recommendation).toEqual({
      tried: 0,
      helped: 0,
    });
  });

  it('without the probe, judges advice acted on by what the move did: under valid, only a score or a place or item no episode had reached counts', () => {
    const flags = {
      actedOnBlocker: false,
      progressClaim: null,
      conclusionProbe: null,
      recommendationProbe: null,
      actedOn: 'recommendation' as const,
    };
    const newRoom = { scoreDelta: 0, newState: true, worldChanged: true };
    expect(updateReliability(freshReliability(), newRoom, flags).recommendation).toEqual({ tried: 1, helped: 1 }); // none: a new state helped
    // valid: a forest room new to this episode, seen in an earlier one, is no help; a first ever is, and so is a score.
    expect(updateReliability(freshReliability(), newRoom, { ...flags, firstEver: false }).recommendation).toEqual({ tried: 1, helped: 0 });
    expect(updateReliability(freshReliability(), newRoom, { ...flags, firstEver: true }).recommendation).toEqual({ tried: 1, helped: 1 });
    expect(
      updateReliability(freshReliability(), { scoreDelta: 10, newState: true, worldChanged: true }, { ...flags, firstEver: false })
        .recommendation,
    ).toEqual({ tried: 1, helped: 1 });
    expect(updateReliability(freshReliability(), newRoom, { ...flags, actedOn: 'thought', firstEver: false }).thought).toEqual({
      tried: 1,
      helped: 0,
    });
  });
});

describe('failure memory', () => {
  const failed = analysis({ last_action_made_progress: false, failure_reason: 'the door is locked' });

  it('lets the engine overrule the oracle: a move that reached a new state did not fail', () => {
    const b = freshBeliefs();
    expect(
      updateFromAnalysis(b, failed, freshReliability(), 'north', { scoreDelta: 0, newState: true, worldChanged: true }).failedActions,
    ).toEqual([]);
    expect(
      updateFromAnalysis(b, failed, freshReliability(), 'open door', { scoreDelta: 0, newState: false, worldChanged: false }).failedActions,
    ).toEqual([{ action: 'open door', reason: 'the door is locked' }]);
  });

  it('does not record placeholder reasons', () => {
    const placeholder = analysis({ last_action_made_progress: false, failure_reason: 'unknown' });
    expect(updateFromAnalysis(freshBeliefs(), placeholder, freshReliability(), 'wait', null).failedActions).toEqual([]);
  });
});
