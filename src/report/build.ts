/**
 * A report's files from its data, in memory: report.html (charts inlined), report.md (charts
 * linked), each chart as .svg and .png, and summary.json. Writing them is write.ts's job.
 */
import { Chart, reportCharts } from './charts';
import type { ReportData } from './data';
import { reportHtml, reportMarkdown } from './document';
import { renderSvg, svgToPng } from './render';
import { ArmSummary, summarize } from './summary';

export interface Report {
  summary: ArmSummary[];
  charts: Chart[];
  /** File name → content, every name plain (no folders). */
  files: Record<string, string | Buffer>;
}

export async function buildReport(data: ReportData): Promise<Report> {
  const summary = summarize(data);
  const charts = reportCharts(data);
  const rendered = [];
  for (const chart of charts) rendered.push({ chart, svg: await renderSvg(chart.spec) });
  const files: Record<string, string | Buffer> = {
    'report.html': reportHtml(data, summary, rendered),
    'report.md': reportMarkdown(data, summary, charts),
    'summary.json': JSON.stringify({ id: data.id, kind: data.kind, game: data.game, arms: summary }, null, 2) + '\n',
  };
  for (const { chart, svg } of rendered) {
    files[`${chart.id}.svg`] = svg;
    files[`${chart.id}.png`] = svgToPng(svg);
  }
  return { summary, charts, files };
}
