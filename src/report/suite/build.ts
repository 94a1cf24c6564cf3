/**
 * A leaderboard report of one or more suite runs, from their results files alone (no server):
 * report.html (the chart inlined), report.md, leaderboard.svg and .png, summary.json.
 */
import { join } from 'node:path';
import { readSuiteResults } from '../../activities/suiteFiles';
import type { SuiteResult } from '../../schemas/suite';
import { renderSvg, svgToPng } from '../render';
import { comparisonRules, readBaselines } from './baselines';
import { leaderboardSpec } from './chart';
import { suiteHtml, suiteMarkdown } from './document';
import { SuiteReportData, suiteReportView } from './view';

/** An id with no suite results under the data dir (unknown, or not finished yet). */
export class SuiteNotFoundError extends Error {
  constructor(id: string, dataDir: string) {
    super(`no finished suite ${JSON.stringify(id)} under ${dataDir} (its results.json is written when its last game ends).`);
    this.name = 'SuiteNotFoundError';
  }
}

export const CHART_STEM = 'leaderboard';

/** The suites' results, and the published figures of the first suite's folder (or `baselinesPath`). */
export function loadSuiteReportData(dataDir: string, ids: string[], baselinesPath?: string): SuiteReportData {
  const suites: SuiteResult[] = ids.map((id) => {
    const result = readSuiteResults(dataDir, id);
    if (!result) throw new SuiteNotFoundError(id, dataDir);
    return result;
  });
  const path = baselinesPath ?? join(suites[0].suiteDir, 'baselines.json');
  return { suites, baselines: readBaselines(path), baselinesPath: path, rules: comparisonRules() };
}

export async function buildSuiteReport(data: SuiteReportData): Promise<Record<string, string | Buffer>> {
  const view = suiteReportView(data);
  const svg = await renderSvg(leaderboardSpec(view));
  const summary = {
    runs: view.runs.map((r) => ({ id: r.id, label: r.label, setting: r.result.setting, summary: r.result.summary })),
    published: view.rows.flatMap((row) => row.published.map((p) => ({ game: row.game, ...p, source: view.sources[p.source - 1] }))),
    publishedMeans: view.means.map((p) => ({ ...p, source: view.sources[p.source - 1] })),
  };
  return {
    'report.html': suiteHtml(view, data.baselinesPath, svg),
    'report.md': suiteMarkdown(view, data.baselinesPath, CHART_STEM),
    [`${CHART_STEM}.svg`]: svg,
    [`${CHART_STEM}.png`]: svgToPng(svg),
    'summary.json': `${JSON.stringify(summary, null, 2)}\n`,
  };
}
