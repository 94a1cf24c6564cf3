import { beliefsContext, freshBeliefs } from '../../src/agent/beliefs';
import { freshLearned } from '../../src/agent/learned';
import {
  expectedReward,
  freshDynamics,
  MAX_DYNAMICS_ENTRIES,
  nextStateDistribution,
  observe,
  observationCount,
} from '../../src/agent/dynamics';
import { accuracy, freshReliability, recordOutcome } from '../../src/agent/reliability';
import { createRng } from '../../src/agent/rng';
import { addressesBlocker, matchAction, selectAction } from '../../src/agent/selector';
import { updateFromAnalysis, updateReliability } from '../../src/agent/updater';
import { analysis, opt, probeContext } from './fixtures';

describe('oracle reliability (seed test 3)', () => {
  it('learns a simulated 70% oracle to within 0.6-0.8', () => {
    const rng = createRng(12345);
    let r = freshReliability();
    expect(accuracy(r, 'recommendation')).toBe(0.5);
    for (let i = 0; i < 100; i++) r = recordOutcome(r, 'recommendation', rng.next() < 0.7);
    const learned = accuracy(r, 'recommendation');
    expect(learned).toBeGreaterThan(0.6);
    expect(learned).toBeLessThan(0.8);
  });

  it('holds for many simulated oracles, not one lucky seed', () => {
    let inside = 0;
    for (let seed = 1; seed <= 200; seed++) {
      const rng = createRng(seed);
      let r = freshReliability();
      for (let i = 0; i < 100; i++) r = recordOutcome(r, 'recommendation', rng.next() < 0.7);
      if (accuracy(r, 'recommendation') > 0.6 && accuracy(r, 'recommendation') < 0.8) inside++;
    }
    // Binomial(100, 0.7) lands strictly inside (0.6, 0.8) about 96% of the time.
    expect(inside / 200).toBeGreaterThanOrEqual(0.9);
  });

  it('is scored by observable outcomes: the probe of each recommendation, the blocker acted on, progress claims', () => {
    let r = freshReliability();
    r = updateReliability(
      r,
      { scoreDelta: 0, newState: true, worldChanged: true },
      { recommendationProbe: true, conclusionProbe: null, actedOnBlocker: true, progressClaim: null },
    );
    r = updateReliability(
      r,
      { scoreDelta: 0, newState: false, worldChanged: false },
      { recommendationProbe: false, conclusionProbe: null, actedOnBlocker: true, progressClaim: null },
    );
    expect(r.recommendation).toEqual({ tried: 2, helped: 1 });
    expect(r.blocker).toEqual({ tried: 2, helped: 1 });
    r = updateReliability(
      r,
      { scoreDelta: 0, newState: false, worldChanged: false },
      {
        recommendationProbe: null,
        conclusionProbe: null,
        actedOnBlocker: false,
        progressClaim: { claimed: true, actual: { scoreDelta: 5, newState: false, worldChanged: false } },
      },
    );
    expect(r.progress).toEqual({ tried: 1, helped: 1 });
    expect(r.recommendation.tried).toBe(2);
  });
});

describe("dynamics model P(s', r | s, a)", () => {
  it('counts transitions and rewards per state-action', () => {
    let d = freshDynamics();
    d = observe(d, 's0', 'open door', 's1', 0);
    d = observe(d, 's0', 'open door', 's1', 0);
    d = observe(d, 's0', 'open door', 's2', 10);
    expect(observationCount(d, 's0', 'open door')).toBe(3);
    expect(expectedReward(d, 's0', 'open door')).toBeCloseTo(10 / 3);
    expect(nextStateDistribution(d, 's0', 'open door')).toEqual({ s1: 2 / 3, s2: 1 / 3 });
  });

  it('stays bounded, dropping the least recently updated entries', () => {
    let d = freshDynamics();
    for (let i = 0; i < MAX_DYNAMICS_ENTRIES + 50; i++) d = observe(d, `state-${i}`, 'look', 'x', 0);
    d = observe(d, 'state-60', 'look', 'x', 0);
    expect(Object.keys(d.entries)).toHaveLength(MAX_DYNAMICS_ENTRIES);
    expect(observationCount(d, 'state-0', 'look')).toBe(0);
    expect(observationCount(d, 'state-60', 'look')).toBe(2);
    expect(JSON.stringify(d).length).toBeLessThan(100_000);
    expect(nextStateDistribution(d, 's0', 'sing')).toBeNull();
  });
});

describe('informed action selection (deterministic under a seeded RNG)', () => {
  const learned = freshLearned();
  const base = { ...probeContext(), reliability: freshReliability(), worldHash: 's', visited: new Set<string>(), learned, tried: {} };
  let sure = freshReliability();
  for (let i = 0; i < 50; i++) sure = recordOutcome(sure, 'recommendation', true);

  it('follows a recommendation from a reliable oracle when it matches a valid action', () => {
    const options = [opt('answer phone'), opt('stand up'), opt('take wallet')];
    const s = selectAction({ ...base, reliability: sure, analysis: analysis(), options, rng: createRng(1) });
    expect(s).toEqual({
      command: 'stand up',
      reason: 'recommended',
      why: 'you are in bed (changes the world in a way no episode has seen)',
      followedRecommendation: true,
    });
  });

  it('addresses the blocker when there is no usable recommendation', () => {
    const options = [opt('take wallet'), opt('unlock door with key'), opt('look')];
    const a = analysis({ recommended_action: 'fly away', blocking_condition: 'the door is locked' });
    expect(selectAction({ ...base, analysis: a, options, rng: createRng(2) }).command).toBe('unlock door with key');
  });

  it('takes a move the engine knows wins or scores, and avoids a known death', () => {
    expect(
      selectAction({
        ...base,
        analysis: null,
        options: [opt('jump', { outcome: 'died' }), opt('put lens in housing', { scoreDelta: 10, outcome: 'won' })],
        rng: createRng(3),
      }).command,
    ).toBe('put lens in housing');
    const safe = selectAction({
      ...base,
      reliability: sure,
      analysis: analysis({ recommended_action: 'jump' }),
      options: [opt('jump', { outcome: 'died' }), opt('look')],
      rng: createRng(3),
    });
    expect(safe.command).toBe('look');
  });

  it('explores novel states when the oracle has nothing usable', () => {
    const visited = new Set(['h-wait']);
    expect(selectAction({ ...base, visited, analysis: null, options: [opt('wait'), opt('sing')], rng: createRng(5) })).toMatchObject({
      command: 'sing',
      reason: 'novel',
    });
  });

  it('is reproducible: the same seed makes the same choices', () => {
    const options = ['a', 'b', 'c', 'd', 'e'].map((c) => opt(c));
    const run = () =>
      Array.from({ length: 10 }, (_, i) => selectAction({ ...base, analysis: null, options, rng: createRng(100 + i) }).command);
    expect(run()).toEqual(run());
  });

  it('matches free text to valid actions and blockers to fixes', () => {
    const options = [opt('stand up'), opt('open wooden door')];
    expect(matchAction('Stand up.', options)?.command).toBe('stand up');
    expect(matchAction('open the door', options)?.command).toBe('open wooden door');
    expect(matchAction('dance', options)).toBeNull();
    expect(addressesBlocker('stand up', "You'll have to get up first")).toBe(true);
    expect(addressesBlocker('wear clothes', 'you need to get dressed')).toBe(true);
  });
});

describe('belief updates', () => {
  it('takes goals, blockers and failures from the oracle, and shows them in the prompt context', () => {
    let b = freshBeliefs();
    b = updateFromAnalysis(b, analysis({ failure_reason: 'you are in bed', prerequisite: 'get up first' }), freshReliability(), 'go east', {
      scoreDelta: 0,
      newState: false,
      worldChanged: false,
    });
    expect(b).toMatchObject({ overallGoal: 'get to work', currentSubgoal: 'get out of bed', blockingCondition: 'get up first' });
    expect(b.failedActions).toEqual([{ action: 'go east', reason: 'you are in bed' }]);
    b = updateFromAnalysis(b, analysis({ last_action_made_progress: true, accomplishment: 'got up' }), freshReliability(), 'stand up', {
      scoreDelta: 0,
      newState: true,
      worldChanged: true,
    });
    expect(b.blockingCondition).toBeNull();
    expect(b.accomplished).toEqual(['got up']);
    expect(beliefsContext(b)).toMatch(/OVERALL GOAL: get to work/);
    expect(beliefsContext(b)).toMatch(/RECENT FAILURES: 'go east' \(you are in bed\)/);
  });
});
