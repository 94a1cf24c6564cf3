/**
 * The report as HTML (charts inlined as SVG: one file that opens anywhere, offline, with no
 * request) and as Markdown (charts as relative links to the PNGs beside it).
 */
import type { CampaignConfig } from '../schemas/episode';
import type { Chart } from './charts';
import type { ReportData } from './data';
import { ArmSummary, summaryCells } from './summary';

export interface RenderedChart {
  chart: Chart;
  svg: string;
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const escapeMd = (s: string) => s.replace(/\|/g, '\\|');

function heading(data: ReportData): { title: string; lines: string[] } {
  const episodes = Math.max(...data.arms.map((a) => a.episodes.length));
  const steps = data.arms[0].config?.maxTurns;
  const lines = [
    `${data.kind === 'experiment' ? 'Experiment' : 'Campaign'} \`${data.id}\` on ${data.game}: ` +
      `${data.arms.length > 1 ? `${data.arms.length} arms × ` : ''}${episodes} ` +
      `episode${episodes === 1 ? '' : 's'}${steps ? ` of up to ${steps} turns` : ''}.`,
  ];
  if (data.kind === 'experiment') {
    lines.push(
      `Varied: ${data.factors.join(', ')} ` +
        `(${data.factorial ? 'every combination' : 'one factor at a time from the baseline'}); every arm plays the same seeds.`,
    );
  }
  if (data.arms.some((a) => a.config === null))
    lines.push('The results file predates the recorded config, so the config columns are unknown (?).');
  if (data.arms.some((a) => a.episodes.some((e) => e.transcript.length === 0)))
    lines.push('Some transcripts are not on this machine: their per-turn charts have no points.');
  return { title: `grue report: ${data.id}`, lines };
}

/** The config every arm shares (the baseline's, for an experiment), field by field. */
function baselineConfig(data: ReportData): CampaignConfig | null {
  return data.arms.find((a) => Object.keys(a.diff).length === 0)?.config ?? data.arms[0].config;
}

const diffText = (diff: object) =>
  Object.entries(diff)
    .map(([k, v]) => `${k}=${v === null ? 'default' : String(v)}`)
    .join(', ') || '(baseline)';

/** An arm's changes in config fields, left out where the name already says exactly that. */
const armLine = (name: string, diff: object) => {
  const text = diffText(diff);
  return text === name || (text === '(baseline)' && name === 'baseline') ? '' : `: ${text}`;
};

/** An arm's list item: its name, what it changes, and its campaign. */
const armItem = (name: string, diff: object, campaignId: string) =>
  `<b>${escapeHtml(name)}</b>${escapeHtml(armLine(name, diff))} — campaign <code>${escapeHtml(campaignId)}</code>`;

const inlineCode = (s: string) => s.replace(/`([^`]*)`/g, '<code>$1</code>');

export function reportHtml(data: ReportData, summary: ArmSummary[], charts: RenderedChart[]): string {
  const { title, lines } = heading(data);
  const [head, ...rows] = summaryCells(summary);
  const config = baselineConfig(data);
  const headRow = `<tr>${head.map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr>`;
  const bodyRows = rows.map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`).join('\n');
  const table = `<div class="wide"><table>\n<thead>${headRow}</thead>\n<tbody>\n${bodyRows}\n</tbody>\n</table></div>`;
  const arms =
    data.kind === 'experiment'
      ? `<h2>Arms</h2>\n<ul>\n${data.arms.map((a) => `<li>${armItem(a.name, a.diff, a.campaignId)}</li>`).join('\n')}\n</ul>`
      : '';
  const configTable = config
    ? `<h2>${data.kind === 'experiment' ? 'Baseline config' : 'Config'}</h2>\n<table>\n${Object.entries(config)
        .map(([k, v]) => `<tr><th>${escapeHtml(k)}</th><td>${escapeHtml(v === null ? "null (the worker's model)" : String(v))}</td></tr>`)
        .join('\n')}\n</table>`
    : '';
  const figures = charts
    .map(
      ({ chart, svg }) =>
        `<figure id="${chart.id}">\n<h2>${escapeHtml(chart.title)}</h2>\n<p>${escapeHtml(chart.description)}</p>\n${svg}\n</figure>`,
    )
    .join('\n');
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(title)}</title>
<style>
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 2em auto; max-width: 1100px; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.9em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; }
thead th { background: #f3f3f3; }
figure { margin: 2em 0; }
.wide { overflow-x: auto; }
code { background: #f3f3f3; padding: 0 0.2em; }
</style>
</head>
<body>
<h1>${escapeHtml(title)}</h1>
${lines.map((l) => `<p>${inlineCode(escapeHtml(l))}</p>`).join('\n')}
<h2>Summary</h2>
${table}
${arms}
${figures}
${configTable}
</body>
</html>
`;
}

export function reportMarkdown(data: ReportData, summary: ArmSummary[], charts: Chart[]): string {
  const { title, lines } = heading(data);
  const [head, ...rows] = summaryCells(summary);
  const config = baselineConfig(data);
  const out = [`# ${title}`, '', ...lines.flatMap((l) => [l, '']), '## Summary', ''];
  out.push(
    `| ${head.map(escapeMd).join(' | ')} |`,
    `|${head.map(() => '---').join('|')}|`,
    ...rows.map((r) => `| ${r.map(escapeMd).join(' | ')} |`),
    '',
  );
  if (data.kind === 'experiment') {
    out.push(
      '## Arms',
      '',
      ...data.arms.map((a) => `- **${escapeMd(a.name)}**${armLine(a.name, a.diff)} — campaign \`${a.campaignId}\``),
      '',
    );
  }
  for (const chart of charts)
    out.push(
      `## ${chart.title}`,
      '',
      chart.description,
      '',
      `![${chart.title}](${chart.id}.png)`,
      '',
      `(SVG: [${chart.id}.svg](${chart.id}.svg))`,
      '',
    );
  if (config) {
    out.push(
      `## ${data.kind === 'experiment' ? 'Baseline config' : 'Config'}`,
      '',
      '| field | value |',
      '|---|---|',
      ...Object.entries(config).map(([k, v]) => `| ${k} | ${v === null ? "null (the worker's model)" : escapeMd(String(v))} |`),
      '',
    );
  }
  return out.join('\n');
}
