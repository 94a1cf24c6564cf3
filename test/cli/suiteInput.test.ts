/** `grue suite`'s input: settings, games, seeds, and a workflow id that is the same for the same command. */
import { UsageError } from '../../src/cli/args';
import { startedInputDifference, suiteInput, suiteSetting, suiteWorkflowId } from '../../src/cli/suiteInput';
import { describeWithSuite } from '../helpers';

describe('suite settings', () => {
  it('named settings, their numbers, and a custom budget', () => {
    expect(suiteSetting({ worker: true, wait: true })).toEqual({ name: 'jericho', episodes: 1, steps: 100 });
    expect(suiteSetting({ worker: true, wait: true, setting: 'campaign' })).toEqual({ name: 'campaign', episodes: 10, steps: 100 });
    expect(suiteSetting({ worker: true, wait: true, episodes: 10 })).toEqual({ name: 'campaign', episodes: 10, steps: 100 });
    expect(suiteSetting({ worker: true, wait: true, steps: 20 })).toEqual({ name: 'custom', episodes: 1, steps: 20 });
  });

  it('a setting that disagrees with --steps, or an unknown one, is a usage error', () => {
    expect(() => suiteSetting({ worker: true, wait: true, setting: 'jericho', steps: 50 })).toThrow(UsageError);
    expect(() => suiteSetting({ worker: true, wait: true, setting: 'tales' })).toThrow(/--setting must be one of jericho, campaign/);
  });
});

describeWithSuite('suite input from the Jericho folder', (dir) => {
  const opts = { worker: true, wait: true, games: 'zork1,lgop', policy: 'oracle-free', assist: 'valid' };

  it("each game's campaign: its story, Jericho's seed shifted by --seed, the setting's budget; an unknown max score is null", () => {
    const input = suiteInput(dir, { ...opts, seed: 3 });
    expect(input.games.map((g) => [g.name, g.maxScore, g.campaign.seed, g.campaign.maxTurns, g.campaign.episodes])).toEqual([
      ['lgop', null, 3, 100, 1],
      ['zork1', 350, 15, 100, 1],
    ]);
    expect(input.games[1].campaign.game).toMatch(/zork1\.z5$/);
    expect(input.setting).toEqual({ name: 'jericho', episodes: 1, steps: 100, assist: 'valid', policy: 'oracle-free', model: null });
  });

  it("a game's resetCommands are played before the agent's first turn, as Jericho's reset plays them", () => {
    const input = suiteInput(dir, { ...opts, games: 'seastalker,zork1' });
    expect(input.games.map((g) => [g.name, g.campaign.openingCommands])).toEqual([
      ['seastalker', ['John', 'Wayne', 'yes']],
      ['zork1', undefined],
    ]);
  });

  it('the same command gives the same workflow id; another option another one', () => {
    const id = suiteWorkflowId(suiteInput(dir, opts));
    expect(id).toMatch(/^grue-suite-jericho-valid-oracle-free-[0-9a-f]{12}$/);
    expect(suiteWorkflowId(suiteInput(dir, opts))).toBe(id);
    expect(suiteWorkflowId(suiteInput(dir, { ...opts, parallel: 2 }))).not.toBe(id);
    expect(suiteWorkflowId(suiteInput(dir, { ...opts, seed: 1 }))).not.toBe(id);
  });

  it('a run named by --id that plays other games, another setting or other seeds is told apart; --parallel is not', () => {
    const started = suiteInput(dir, opts);
    expect(startedInputDifference(started, suiteInput(dir, opts))).toBeNull();
    expect(startedInputDifference(started, suiteInput(dir, { ...opts, parallel: 2 }))).toBeNull();
    expect(startedInputDifference(started, suiteInput(dir, { ...opts, games: 'zork1,lgop,detective' }))).toBe(
      'it plays 2 games, this command 3; not in it: detective',
    );
    expect(startedInputDifference(started, suiteInput(dir, { ...opts, games: undefined }))).toMatch(
      /^it plays 2 games, this command 47; not in it: 905, acorncourt, advent, adventureland, afflicted and 40 more$/,
    );
    expect(startedInputDifference(started, suiteInput(dir, { ...opts, games: 'zork1' }))).toBe(
      'it plays 2 games, this command 1; only in it: lgop',
    );
    expect(startedInputDifference(started, suiteInput(dir, { ...opts, assist: 'none' }))).toMatch(
      /^its setting is .*"assist":"valid".*this command's .*"assist":"none"/,
    );
    expect(startedInputDifference(started, suiteInput(dir, { ...opts, seed: 1 }))).toBe(
      'the games lgop, zork1 are played with other options (story path, seed or agent options)',
    );
  });
});
