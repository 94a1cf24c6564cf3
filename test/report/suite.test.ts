/** The suite's figures (pure aggregation) and its leaderboard: published figures only beside runs of the same setting. */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { failedGameResult, GameRun, gameResult, mean, median, suiteSummary } from '../../src/experiment/suiteResults';
import { resolveCampaignConfig } from '../../src/schemas/episode';
import type { SuiteGameResult, SuiteResult, SuiteSetting } from '../../src/schemas/suite';
import { Baseline, BaselinesFileSchema, comparisonRules } from '../../src/report/suite/baselines';
import { buildSuiteReport } from '../../src/report/suite/build';
import { suiteReportView } from '../../src/report/suite/view';
import { describeWithSuite } from '../helpers';
import { gameLine } from '../../src/cli/suite';

const JERICHO: SuiteSetting = { name: 'jericho', episodes: 1, steps: 100, assist: 'valid', policy: 'oracle-free', model: null };

function run(name: string, maxScore: number | null, setting = JERICHO): GameRun {
  const campaign = resolveCampaignConfig({ game: `/suite/${name}.z5`, policy: 'oracle-free', episodes: setting.episodes });
  return { suiteId: 's', game: { name, maxScore, campaign }, campaignId: `s-${name}`, setting, seconds: 2 };
}

const episode = (seed: number, score: number, extra: object = {}) => ({
  workflowId: `e${seed}`,
  seed,
  score,
  turns: 100,
  victory: false,
  died: false,
  ...extra,
});

describe('suite aggregation', () => {
  it('mean and median of any count, null for none', () => {
    expect(mean([1, 2, 6])).toBe(3);
    expect(median([5, 1, 3])).toBe(3);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(mean([])).toBeNull();
    expect(median([])).toBeNull();
  });

  it("a game's result: finals in episode order, best, peak (an episode may lose points), normalised by the max score", () => {
    const result = gameResult(run('zork1', 350), {
      episodes: [episode(13, 10, { peakScore: 35, died: true }), episode(12, 20, { llmCalls: 3, tokens: 900, model: 'local:x' })],
    });
    expect(result).toMatchObject({ finals: [20, 10], best: 20, peak: 35, deaths: 1, steps: 200, llmCalls: 3, tokens: 900 });
    expect(result.normalisedBest).toBeCloseTo(20 / 350);
    expect(result.normalisedPeak).toBeCloseTo(35 / 350);
    expect(result.normalisedMeanFinal).toBeCloseTo(15 / 350);
    expect(result.model).toBe('local:x');
    expect(result.storyFaults).toEqual([]);
  });

  it("a game whose episode the story ended by faulting keeps that episode's score, and names the fault", () => {
    const fault = { turn: 33, command: 'drop flashlight', message: 'night.z5 at pc 24222: stack overflow' };
    const result = gameResult(run('night', 10), { episodes: [episode(0, 2, { storyFault: fault, turns: 32 })] });
    expect(result).toMatchObject({ status: 'done', best: 2, steps: 32, storyFaults: [fault] });
    expect(
      gameLine({ game: 'night', state: 'done', campaignId: 'c', best: 2, maxScore: 10, error: null, storyFaults: 1, reused: false }),
    ).toBe('  night          done     2/10 (0.200)  (1 episode ended early: the story faulted)');
  });

  it('a game that scored above its maximum is failed, kept out of the averages, and says why', () => {
    const result = gameResult(run('night', 10), { episodes: [episode(0, 2), episode(1, 255)] });
    expect(result).toMatchObject({ status: 'failed', finals: [2, 255], best: 255, peak: 255, normalisedBest: null });
    expect(result.error).toMatch(/scored 255, above the game's maximum of 10/);
    const summary = suiteSummary([result, gameResult(run('zork1', 350), { episodes: [episode(0, 35)] })], 1);
    expect(summary.meanNormalised).toBeCloseTo(0.1);
    expect(summary.failed).toEqual([{ game: 'night', error: result.error }]);
  });

  it('the summary averages only finished games of known max score; the others are listed', () => {
    const games: SuiteGameResult[] = [
      gameResult(run('a', 10), { episodes: [episode(0, 5, { victory: true })] }),
      gameResult(run('b', 4), { episodes: [episode(0, 0)] }),
      gameResult(run('c', 100), { episodes: [episode(0, 10)] }),
      gameResult(run('lgop', null), { episodes: [episode(0, 25)] }),
      failedGameResult(run('broken', 50), 'the Z-machine stopped'),
    ];
    const s = suiteSummary(games, 50);
    expect(s).toMatchObject({ games: 5, played: 4, averaged: 3, unknownMax: ['lgop'], solved: 1, atZero: 1, steps: 400 });
    expect(s.failed).toEqual([{ game: 'broken', error: 'the Z-machine stopped' }]);
    expect(s.meanNormalised).toBeCloseTo((0.5 + 0 + 0.1) / 3);
    expect(s.medianNormalised).toBeCloseTo(0.1);
    expect(s.turnsPerSecond).toBeCloseTo(8);
    expect(games[3].normalisedBest).toBeNull();
  });
});

const TALES =
  'TALES (Cui et al. 2025, microsoft/tale-suite): zero-shot LLM, 100 steps, no valid actions, highest normalised score ' +
  'reached during the run, mean of 5 seeds; read from the per-game figure';
const RL = "reinforcement learning with Jericho's valid-action handicap, 100-step episodes, ~100k training steps";
const baselines: Baseline[] = [
  { game: 'zork1', system: 'DRRN', setting: RL, source: 'Hausknecht et al. 2020', score: 35 },
  { game: 'zork1', system: 'TALES best: o3', setting: TALES, source: 'tale-suite figure', normalized: 0.155 },
  {
    game: 'zork1',
    system: 'XTX',
    setting: 'reinforcement learning, valid actions plus a patched game grammar',
    source: 'Tuyls',
    score: 103,
  },
  { game: '*suite average*', system: 'TALES: o3', setting: TALES, source: 'TALES leaderboard', normalized: 0.157 },
];

function suite(id: string, setting: SuiteSetting): SuiteResult {
  const games = [
    gameResult(run('zork1', 350, setting), { episodes: [episode(12, 35, { peakScore: 40 })] }),
    gameResult(run('905', 1, setting), { episodes: [episode(0, 1, { victory: true })] }),
  ].map((g) => ({ ...g, suiteId: id }));
  return { suiteId: id, suiteDir: '/suite', setting, parallel: 1, summary: suiteSummary(games, 10), games, resultsPath: '' };
}

describe('the leaderboard', () => {
  const none: SuiteSetting = { ...JERICHO, assist: 'none' };

  it('sets a published figure beside a run only at the same setting, and says why the others are not', () => {
    const valid = suiteReportView({ suites: [suite('v', JERICHO)], baselines, baselinesPath: 'b.json', rules: comparisonRules() });
    const zork = valid.rows.find((r) => r.game === 'zork1')!;
    expect(zork.published.map((p) => p.system)).toEqual(['DRRN']);
    expect(zork.published[0]).toMatchObject({ value: 0.1, measure: 'meanFinal', runs: [0] });
    expect(valid.means).toEqual([]);
    const reasons = Object.fromEntries(valid.notCompared.map((n) => [n.baseline.system, n.reason]));
    expect(reasons['TALES best: o3']).toMatch(/assist none \(this run: valid\)/);
    expect(reasons.XTX).toMatch(/no grue setting/);

    const noHelp = suiteReportView({ suites: [suite('n', none)], baselines, baselinesPath: 'b.json', rules: comparisonRules() });
    expect(noHelp.rows.find((r) => r.game === 'zork1')!.published.map((p) => p.system)).toEqual(['TALES best: o3']);
    expect(noHelp.means.map((m) => m.value)).toEqual([0.157]);

    const custom = suiteReportView({
      suites: [suite('c', { ...JERICHO, name: 'custom', steps: 50 })],
      baselines,
      baselinesPath: 'b.json',
      rules: comparisonRules(),
    });
    expect(custom.rows.flatMap((r) => r.published)).toEqual([]);
  });

  it('two runs side by side: each published figure names the run it compares with; every figure carries its source', async () => {
    const data = { suites: [suite('v', JERICHO), suite('n', none)], baselines, baselinesPath: 'b.json', rules: comparisonRules() };
    const view = suiteReportView(data);
    const zork = view.rows.find((r) => r.game === 'zork1')!;
    expect(zork.runs.map((r) => r?.suiteId)).toEqual(['v', 'n']);
    expect(zork.published.map((p) => [p.system, p.runs])).toEqual([
      ['DRRN', [0]],
      ['TALES best: o3', [1]],
    ]);
    const files = await buildSuiteReport(data);
    const md = files['report.md'] as string;
    expect(md).toMatch(
      /\| zork1 \| 350 \| 0\.100 .*\| 0\.100 .*\| DRRN 0\.100 \(normalised mean final score, beside run 1\) \[(\d)\]; TALES/,
    );
    const drrnSource = /DRRN 0\.100 [^[]*\[(\d)\]/.exec(md)![1];
    expect(md).toContain(`[${drrnSource}] Hausknecht et al. 2020`);
    expect(md).toMatch(/XTX .*not compared: no grue setting/);
    expect((files['leaderboard.png'] as Buffer).subarray(1, 4).toString()).toBe('PNG');
    expect(files['report.html']).toContain('<svg');
  });
});

describe('the leaderboard of suites some of whose games were read back', () => {
  it('names every such run and its games, and still leads into the published figures, in Markdown as in HTML', async () => {
    // Two runs that each read games back: the Markdown once kept only the first note, in place of the lead-in.
    const readBack = (id: string, setting: SuiteSetting) => {
      const result = suite(id, setting);
      return { ...result, summary: { ...result.summary, reusedGames: [`${id}-game`] } };
    };
    const data = { suites: [readBack('v', JERICHO), readBack('w', JERICHO)], baselines, baselinesPath: 'b.json', rules: comparisonRules() };
    const files = await buildSuiteReport(data);
    for (const page of [files['report.md'] as string, files['report.html'] as string]) {
      expect(page).toContain('v: v-game were finished by an earlier run of this id');
      expect(page).toContain('w: w-game were finished by an earlier run of this id');
      expect(page).toContain('Published figures (from b.json) appear only where their setting matches');
    }
  });
});

describe('the leaderboard of a campaign', () => {
  it("shows each game's mean final score beside its best, the figure the RL agents' published scores compare with", async () => {
    const campaign: SuiteSetting = { ...JERICHO, name: 'campaign', episodes: 2 };
    const games = [
      gameResult(run('zork1', 350, campaign), { episodes: [episode(12, 10), episode(13, 60)] }),
      gameResult(run('905', 1, campaign), { episodes: [episode(0, 1, { victory: true })] }),
    ].map((g) => ({ ...g, suiteId: 'c' }));
    const result: SuiteResult = {
      suiteId: 'c',
      suiteDir: '/suite',
      setting: campaign,
      parallel: 1,
      summary: suiteSummary(games, 10),
      games,
      resultsPath: '',
    };
    const files = await buildSuiteReport({ suites: [result], baselines, baselinesPath: 'b.json', rules: comparisonRules() });
    const md = files['report.md'] as string;
    expect(md).toMatch(
      /\| zork1 \| 350 \| 0\.171 \(peak 0\.171; mean final 0\.100; 60\/350\) \| DRRN 0\.100 \(normalised mean final score\)/,
    );
    // One episode: the mean final is the best, and is not repeated.
    expect(md).toMatch(/\| 905 \| 1 \| 1\.000 \(peak 1\.000; 1\/1 won\)/);
  });
});

describeWithSuite('comparisons.json and the suite folder', (suiteDir) => {
  it('every rule names a setting baselines.json uses, word for word', () => {
    const path = join(suiteDir, 'baselines.json');
    expect(existsSync(path)).toBe(true);
    const settings = new Set(BaselinesFileSchema.parse(JSON.parse(readFileSync(path, 'utf8'))).results.map((r) => r.setting));
    for (const rule of comparisonRules()) expect(settings.has(rule.setting)).toBe(true);
  });
});
