/**
 * What a suite report shows, pure: one row per game with each run's figures side by side, the
 * published figures whose setting matches one of the runs (each with its source's number), the
 * published figures that do not compare and why, and each run's summary.
 */
import type { SuiteGameResult, SuiteResult, SuiteSetting } from '../../schemas/suite';
import { Baseline, compare, ComparisonRule, Measure, normalisedFigure, SUITE_AVERAGE } from './baselines';

export interface SuiteReportData {
  suites: SuiteResult[];
  baselines: Baseline[];
  /** Where the published figures came from (for the report's text). */
  baselinesPath: string;
  rules: ComparisonRule[];
}

export interface PublishedFigure {
  system: string;
  /** Normalised (share of the game's max score). */
  value: number;
  /** The grue figure it sits beside. */
  measure: Measure;
  /** 1-based number of its source in the report's list of sources. */
  source: number;
  checked: string | null;
  /** The runs (indexes into suites) whose setting it matches. */
  runs: number[];
  caveat: string;
}

export interface GameRow {
  game: string;
  maxScore: number | null;
  /** Each run's result for the game, in the order the runs were given (null: the run did not play it). */
  runs: Array<SuiteGameResult | null>;
  published: PublishedFigure[];
}

export interface NotCompared {
  baseline: Baseline;
  source: number;
  reason: string;
}

export interface SuiteReportView {
  runs: Array<{ id: string; label: string; result: SuiteResult }>;
  rows: GameRow[];
  /** Published whole-suite averages that match a run, beside the runs' means. */
  means: PublishedFigure[];
  notCompared: NotCompared[];
  sources: string[];
}

/** Why a published figure for a game the runs did not play is not shown. */
export const NOT_PLAYED = 'the game is not in these runs';

export const MEASURE_NAMES: Record<Measure, string> = { peak: 'normalised peak', meanFinal: 'normalised mean final score' };

/** A run's name in columns and legends: what sets it apart (setting, assist, policy, model). */
export function settingLabel(setting: SuiteSetting): string {
  const model = setting.model ? `, ${setting.model}` : '';
  const budget = setting.oracleBudget !== undefined ? `, oracle ≤ ${setting.oracleBudget} turns` : '';
  return `${setting.name} ${setting.episodes}×${setting.steps}, ${setting.assist}, ${setting.policy}${model}${budget}`;
}

function runLabels(suites: SuiteResult[]): string[] {
  const labels = suites.map((s) => settingLabel(s.setting));
  // Two runs at the same setting are told apart by their ids.
  return labels.map((l, i) => (labels.indexOf(l) !== labels.lastIndexOf(l) ? `${l} (${suites[i].suiteId})` : l));
}

export function suiteReportView(data: SuiteReportData): SuiteReportView {
  const sources: string[] = [];
  const sourceOf = (b: Baseline) => {
    if (!sources.includes(b.source)) sources.push(b.source);
    return sources.indexOf(b.source) + 1;
  };
  const games: string[] = [];
  for (const suite of data.suites) for (const g of suite.games) if (!games.includes(g.game)) games.push(g.game);
  const resultOf = (suite: SuiteResult, game: string) => suite.games.find((g) => g.game === game) ?? null;
  const maxScoreOf = (game: string) =>
    data.suites.map((s) => resultOf(s, game)?.maxScore).find((m) => m !== undefined && m !== null) ?? null;

  const rows: GameRow[] = games.map((game) => ({
    game,
    maxScore: maxScoreOf(game),
    runs: data.suites.map((s) => resultOf(s, game)),
    published: [],
  }));
  const means: PublishedFigure[] = [];
  const notCompared: NotCompared[] = [];
  for (const baseline of data.baselines) {
    const row = rows.find((r) => r.game === baseline.game);
    const average = baseline.game === SUITE_AVERAGE;
    if (!row && !average) {
      notCompared.push({ baseline, source: sourceOf(baseline), reason: NOT_PLAYED });
      continue;
    }
    const comparisons = data.suites.map((s) => compare(baseline, s.setting, data.rules));
    const runs = comparisons.flatMap((c, i) => (c.comparable ? [i] : []));
    const value = normalisedFigure(baseline, row?.maxScore ?? null);
    const matched = comparisons.find((c) => c.comparable);
    if (!matched || !matched.comparable || value === null) {
      const reasons = [...new Set(comparisons.flatMap((c) => (c.comparable ? [] : [c.reason])))];
      const reason = value === null && matched ? 'its score cannot be normalised (no max score)' : reasons.join('; ');
      notCompared.push({ baseline, source: sourceOf(baseline), reason });
      continue;
    }
    const figure: PublishedFigure = {
      system: baseline.system,
      value,
      measure: matched.rule.measure,
      source: sourceOf(baseline),
      checked: baseline.checked ?? null,
      runs,
      caveat: matched.rule.caveat,
    };
    if (average) means.push(figure);
    else row!.published.push(figure);
  }
  const labels = runLabels(data.suites);
  return { runs: data.suites.map((s, i) => ({ id: s.suiteId, label: labels[i], result: s })), rows, means, notCompared, sources };
}

/** A run's figure for a game by the measure a published figure uses. */
export function measured(result: SuiteGameResult, measure: Measure): number | null {
  return measure === 'peak' ? result.normalisedPeak : result.normalisedMeanFinal;
}
