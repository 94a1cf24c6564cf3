/**
 * The leaderboard chart: a bar per game and run (its normalised best score), the published figures
 * that match a run's setting beside them, and each run's mean as a line across the games.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { SuiteReportView } from './view';

export interface BarValue {
  game: string;
  series: string;
  value: number;
}

const CONFIG = { font: 'DejaVu Sans, Verdana, sans-serif', background: 'white', view: { stroke: '#ddd' } } as const;

export function chartBars(view: SuiteReportView): BarValue[] {
  return view.rows.flatMap((row) => [
    ...view.runs.flatMap((run, i) => {
      const value = row.runs[i]?.normalisedBest;
      return value === null || value === undefined ? [] : [{ game: row.game, series: `grue: ${run.label}`, value }];
    }),
    ...row.published.map((p) => ({ game: row.game, series: `${p.system} [${p.source}]`, value: p.value })),
  ]);
}

export function chartMeans(view: SuiteReportView): BarValue[] {
  return view.runs.flatMap((run) =>
    run.result.summary.meanNormalised === null
      ? []
      : [{ game: '', series: `grue: ${run.label}`, value: run.result.summary.meanNormalised }],
  );
}

export function leaderboardSpec(view: SuiteReportView): TopLevelSpec {
  const bars = chartBars(view);
  const series = [...new Set(bars.map((b) => b.series))];
  const games = view.rows.filter((r) => r.maxScore !== null).map((r) => r.game);
  const color = { field: 'series', type: 'nominal', sort: series, title: null, legend: { orient: 'bottom', columns: 2, labelLimit: 600 } };
  return {
    title: 'Normalised score per game (best / max; published figures only where the setting matches)',
    config: CONFIG,
    width: Math.max(420, games.length * Math.max(14, series.length * 7)),
    height: 260,
    layer: [
      {
        data: { values: bars },
        mark: { type: 'bar', tooltip: true },
        encoding: {
          x: { field: 'game', type: 'nominal', sort: games, title: null, axis: { labelAngle: -60 } },
          xOffset: { field: 'series', type: 'nominal', sort: series },
          y: { field: 'value', type: 'quantitative', title: 'score / max score', scale: { domain: [0, 1] } },
          color,
        },
      },
      {
        data: { values: chartMeans(view) },
        mark: { type: 'rule', strokeDash: [6, 4], strokeWidth: 1.5 },
        encoding: { y: { field: 'value', type: 'quantitative' }, color },
      },
    ],
  } as TopLevelSpec;
}
