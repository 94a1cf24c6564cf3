/** An experiment's arms: one factor at a time from the baseline, or the full cross product; readable names; configs from resolveCampaignConfig. */
import { configDiff, designArms, ExperimentDesignError, parseFactors, parseModels } from '../../src/experiment/arms';
import { EPISODE_DEFAULTS, resolveCampaignConfig } from '../../src/schemas/episode';
import { ExperimentInputSchema, MAX_ARMS } from '../../src/schemas/experiment';

const options = { game: 'lighthouse', episodes: 2, maxTurns: 3, seed: 7 };

describe('parseFactors', () => {
  it('reads a comma-separated subset of the factors', () => {
    expect(parseFactors('thoughtbox, assist')).toEqual(['thoughtbox', 'assist']);
  });

  it.each([
    ['telepathy', /unknown factor "telepathy" in --vary: choose from thoughtbox, compaction, knowledge, model, assist/],
    ['assist,assist', /factor "assist" is given twice/],
    [' , ', /--vary needs at least one factor/],
  ])('refuses %j with a message that says what to write', (text, message) => {
    expect(() => parseFactors(text)).toThrow(ExperimentDesignError);
    expect(() => parseFactors(text)).toThrow(message);
  });
});

describe('parseModels', () => {
  it('reads names, with "default" for the worker\'s model', () => {
    expect(parseModels('default,qwen2.5-coder-1.5b')).toEqual([null, 'qwen2.5-coder-1.5b']);
  });
  it('refuses an empty list and a repeated name', () => {
    expect(() => parseModels('')).toThrow(/at least one model/);
    expect(() => parseModels('a,a')).toThrow(/twice/);
  });
});

describe('designArms, one factor at a time', () => {
  it('is the baseline plus each other level of each factor, with readable names and one-field diffs', () => {
    const arms = designArms(options, { factors: ['thoughtbox', 'compaction', 'knowledge', 'assist'] });
    expect(arms.map((a) => a.name)).toEqual([
      'baseline',
      'thoughtbox=off',
      'thoughtbox=always',
      'compaction=off',
      'knowledge=off',
      'assist=valid',
      'assist=none',
    ]);
    expect(arms[0].config).toEqual(resolveCampaignConfig(options));
    expect(arms[0].diff).toEqual({});
    expect(arms.slice(1).map((a) => a.diff)).toEqual([
      { thoughtbox: 'off' },
      { thoughtbox: 'always' },
      { compactEvery: 0 },
      { knowledgeEvery: 0 },
      { assist: 'valid' },
      { assist: 'none' },
    ]);
    // Each arm is exactly what resolveCampaignConfig gives for those options: the same seeds, episodes and turns.
    for (const arm of arms) expect(arm.config).toEqual(resolveCampaignConfig({ ...options, ...arm.diff }));
    expect(ExperimentInputSchema.safeParse({ factors: ['thoughtbox'], factorial: false, arms }).success).toBe(true);
  });

  it('starts from the options given: a baseline without compaction is compared with the default', () => {
    const arms = designArms({ ...options, compactEvery: 0 }, { factors: ['compaction'] });
    expect(arms.map((a) => [a.name, a.config.compactEvery])).toEqual([
      ['baseline', 0],
      [`compaction=${EPISODE_DEFAULTS.compactEvery}`, EPISODE_DEFAULTS.compactEvery],
    ]);
  });

  it('a baseline off the usual levels keeps its own value and is compared with both', () => {
    const arms = designArms({ ...options, knowledgeEvery: 3 }, { factors: ['knowledge'] });
    expect(arms.map((a) => a.name)).toEqual(['baseline', 'knowledge=off', 'knowledge=10']);
  });

  it('varies the model over --models, "default" (null) being the worker\'s', () => {
    const arms = designArms(options, { factors: ['model'], models: [null, 'gemma3-270m', 'qwen2.5-coder-0.5b'] });
    expect(arms.map((a) => [a.name, a.config.model])).toEqual([
      ['baseline', null],
      ['model=gemma3-270m', 'gemma3-270m'],
      ['model=qwen2.5-coder-0.5b', 'qwen2.5-coder-0.5b'],
    ]);
  });
});

describe('designArms, factorial', () => {
  it('is every combination, named by all varied factors, the baseline cell first', () => {
    const arms = designArms(options, { factors: ['assist', 'compaction'], factorial: true });
    expect(arms).toHaveLength(6);
    expect(arms[0]).toMatchObject({ name: 'assist=probe,compaction=5', diff: {} });
    expect(arms.map((a) => a.name).sort()).toEqual(
      [
        'assist=none,compaction=5',
        'assist=none,compaction=off',
        'assist=probe,compaction=5',
        'assist=probe,compaction=off',
        'assist=valid,compaction=5',
        'assist=valid,compaction=off',
      ].sort(),
    );
    expect(arms.find((a) => a.name === 'assist=none,compaction=off')!.diff).toEqual({ assist: 'none', compactEvery: 0 });
    expect(new Set(arms.map((a) => JSON.stringify(a.config))).size).toBe(6);
  });

  it('refuses a design with more than MAX_ARMS arms', () => {
    const models = Array.from({ length: 20 }, (_, i) => `m${i}`);
    expect(() => designArms(options, { factors: ['model', 'thoughtbox'], models, factorial: true })).toThrow(
      new RegExp(`63 arms; at most ${MAX_ARMS}`),
    );
  });
});

describe('designArms refuses what cannot be run', () => {
  it.each([
    [{ factors: [] }, /at least one factor/],
    [{ factors: ['model'] }, /--vary model needs the models to compare: --models a,b/],
    [{ factors: ['assist'], models: ['a'] }, /--models is only used with --vary model/],
    [{ factors: ['model'], models: [null] }, /gives no arm besides the baseline/],
  ] as const)('%j', (design, message) => {
    expect(() => designArms(options, design as never)).toThrow(ExperimentDesignError);
    expect(() => designArms(options, design as never)).toThrow(message);
  });

  it('an option the schema refuses is a ZodError naming the field (the CLI turns it into a usage error)', () => {
    expect(() => designArms({ ...options, maxTurns: 0 }, { factors: ['assist'] })).toThrow(/maxTurns/);
  });
});

describe('configDiff', () => {
  it('names only the fields that differ', () => {
    const base = resolveCampaignConfig(options);
    expect(configDiff(base, { ...base, thoughtbox: 'off', model: 'x' })).toEqual({ thoughtbox: 'off', model: 'x' });
    expect(configDiff(base, base)).toEqual({});
  });
});
