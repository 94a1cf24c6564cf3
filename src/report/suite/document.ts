/**
 * The leaderboard page as Markdown and HTML: each run's summary, a row per game with the runs
 * side by side and the published figures of the same setting (each with its source's number),
 * the sources, and the published figures that do not compare, with why.
 */
import type { SuiteGameResult, SuiteResult } from '../../schemas/suite';
import { MEASURE_NAMES, NOT_PLAYED, PublishedFigure, SuiteReportView } from './view';

const f3 = (x: number | null | undefined) => (x === null || x === undefined ? '-' : x.toFixed(3));

/** A game's cell for one run: normalised best, then peak and mean final, then raw points. */
function runCell(r: SuiteGameResult | null): string {
  if (!r) return 'not played';
  if (r.status === 'failed') return `failed: ${r.error ?? ''}`;
  const max = r.maxScore ?? '?';
  const raw = `${r.best}/${max}${r.won ? ' won' : ''}`;
  if (r.maxScore === null) return `${raw} (max unknown: not averaged)`;
  // A campaign's RL figures are mean final scores: the cell shows that figure too, not only the best.
  const meanFinal = r.finals.length > 1 ? `; mean final ${f3(r.normalisedMeanFinal)}` : '';
  return `${f3(r.normalisedBest)} (peak ${f3(r.normalisedPeak)}${meanFinal}; ${raw})`;
}

function publishedCell(figures: PublishedFigure[], runs: number): string {
  if (!figures.length) return '';
  return figures
    .map((p) => {
      const beside = runs > 1 ? `, beside ${p.runs.map((i) => `run ${i + 1}`).join(' and ')}` : '';
      return `${p.system} ${f3(p.value)} (${MEASURE_NAMES[p.measure]}${beside}) [${p.source}]`;
    })
    .join('; ');
}

const summaryHead = [
  'run',
  'suite id',
  'games',
  'averaged',
  'mean',
  'median',
  'mean peak',
  'solved',
  'at zero',
  'failed',
  'wall s',
  'turns/s',
];

function summaryRow(label: string, s: SuiteResult): string[] {
  const m = s.summary;
  return [
    label,
    s.suiteId,
    String(m.games),
    String(m.averaged),
    f3(m.meanNormalised),
    f3(m.medianNormalised),
    f3(m.meanNormalisedPeak),
    String(m.solved),
    String(m.atZero),
    m.failed.map((x) => x.game).join(', ') || '0',
    m.wallSeconds.toFixed(0),
    m.turnsPerSecond === null ? '-' : m.turnsPerSecond.toFixed(2),
  ];
}

/** Title, paragraphs, tables (header first) and lists of the page, for either format to write. */
export function pageContent(view: SuiteReportView, baselinesPath: string) {
  const runs = view.runs.map((r, i) => `run ${i + 1}: ${r.label}`);
  const gameHead = ['game', 'max', ...view.runs.map((_, i) => `run ${i + 1}`), 'published, same setting'];
  const gameRows = view.rows.map((row) => [
    row.game,
    String(row.maxScore ?? '?'),
    ...row.runs.map(runCell),
    publishedCell(row.published, view.runs.length),
  ]);
  const unknown = [...new Set(view.runs.flatMap((r) => r.result.summary.unknownMax))];
  const intro = [
    `Runs: ${runs.join('; ')}.`,
    'Each cell is the normalised best score (best final score / the game’s max score), then the normalised peak (highest score ' +
      'at any step), over several episodes the normalised mean final score, and the raw points. Means and medians are over the games that finished and whose max score is known' +
      (unknown.length ? ` (not averaged, max score unknown: ${unknown.join(', ')})` : '') +
      '.',
    ...view.runs
      .filter((r) => r.result.summary.reusedGames.length)
      .map(
        (r) =>
          `${r.id}: ${r.result.summary.reusedGames.join(', ')} were finished by an earlier run of this id (the server had lost ` +
          'its history; their results.json were read back); its wall time and turns/s are of the games played after that.',
      ),
    `Published figures (from ${baselinesPath}) appear only where their setting matches a run’s: ` +
      'each is normalised and set beside the grue figure of the same kind, named after it. What differs still:',
  ];
  const caveats = [...new Set([...view.rows.flatMap((r) => r.published), ...view.means].map((p) => p.caveat))];
  const means = view.means.map((p) => `${p.system}: ${f3(p.value)} (${MEASURE_NAMES[p.measure]} over its suite) [${p.source}]`);
  const elsewhere = view.notCompared.filter((n) => n.reason === NOT_PLAYED);
  const otherGames = [...new Set(elsewhere.map((n) => n.baseline.game))];
  const notCompared = view.notCompared
    .filter((n) => n.reason !== NOT_PLAYED)
    .map(
      (n) =>
        `${n.baseline.game}, ${n.baseline.system} ` +
        `(${n.baseline.normalized !== undefined ? `normalised ${n.baseline.normalized}` : `score ${n.baseline.score}`}; ` +
        `setting: ${n.baseline.setting}) [${n.source}] — not compared: ${n.reason}`,
    );
  if (elsewhere.length)
    notCompared.push(`${elsewhere.length} published figures are for games these runs did not play: ${otherGames.join(', ')}.`);
  const sources = view.sources.map((s, i) => `[${i + 1}] ${s}`);
  return {
    title: `grue leaderboard: ${view.runs.map((r) => r.id).join(' vs ')}`,
    intro,
    caveats: caveats.length ? caveats : ['(no published figure matches these runs’ settings)'],
    summary: [summaryHead, ...view.runs.map((r, i) => summaryRow(`run ${i + 1}`, r.result))],
    means,
    games: [gameHead, ...gameRows],
    notCompared,
    sources,
  };
}

const escapeMd = (s: string) => s.replace(/\|/g, '\\|');
const mdTable = (rows: string[][]) => [
  `| ${rows[0].map(escapeMd).join(' | ')} |`,
  `|${rows[0].map(() => '---').join('|')}|`,
  ...rows.slice(1).map((r) => `| ${r.map(escapeMd).join(' | ')} |`),
];

export function suiteMarkdown(view: SuiteReportView, baselinesPath: string, chartStem: string): string {
  const page = pageContent(view, baselinesPath);
  const list = (items: string[]) => items.map((i) => `- ${i}`);
  return [
    `# ${page.title}`,
    '',
    // The last paragraph leads into the list of caveats below it.
    ...page.intro.flatMap((p, i) => (i < page.intro.length - 1 ? [p, ''] : [p])),
    '',
    ...list(page.caveats),
    '',
    '## Suites',
    '',
    ...mdTable(page.summary),
    '',
    ...(page.means.length ? ['Published suite means at a matching setting:', '', ...list(page.means), ''] : []),
    `![normalised score per game](${chartStem}.png)`,
    '',
    `(SVG: [${chartStem}.svg](${chartStem}.svg))`,
    '',
    '## Games',
    '',
    ...mdTable(page.games),
    '',
    '## Sources',
    '',
    ...list(page.sources),
    '',
    '## Published figures not compared',
    '',
    ...(page.notCompared.length ? list(page.notCompared) : ['(none)']),
    '',
  ].join('\n');
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
const htmlTable = (rows: string[][]) =>
  `<div class="wide"><table>\n<thead><tr>${rows[0].map((h) => `<th>${escapeHtml(h)}</th>`).join('')}</tr></thead>\n<tbody>\n${rows
    .slice(1)
    .map((r) => `<tr>${r.map((c) => `<td>${escapeHtml(c)}</td>`).join('')}</tr>`)
    .join('\n')}\n</tbody></table></div>`;
const htmlList = (items: string[]) => `<ul>\n${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('\n')}\n</ul>`;

export function suiteHtml(view: SuiteReportView, baselinesPath: string, chartSvg: string): string {
  const page = pageContent(view, baselinesPath);
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escapeHtml(page.title)}</title>
<style>
body { font-family: "DejaVu Sans", Verdana, sans-serif; margin: 2em auto; max-width: 1200px; color: #222; }
table { border-collapse: collapse; margin: 1em 0; font-size: 0.85em; }
th, td { border: 1px solid #ccc; padding: 0.25em 0.6em; text-align: left; vertical-align: top; }
thead th { background: #f3f3f3; }
.wide { overflow-x: auto; }
</style>
</head>
<body>
<h1>${escapeHtml(page.title)}</h1>
${page.intro.map((p) => `<p>${escapeHtml(p)}</p>`).join('\n')}
${htmlList(page.caveats)}
<h2>Suites</h2>
${htmlTable(page.summary)}
${page.means.length ? `<p>Published suite means at a matching setting:</p>\n${htmlList(page.means)}` : ''}
<figure>${chartSvg}</figure>
<h2>Games</h2>
${htmlTable(page.games)}
<h2>Sources</h2>
${htmlList(page.sources)}
<h2>Published figures not compared</h2>
${page.notCompared.length ? htmlList(page.notCompared) : '<p>(none)</p>'}
</body>
</html>
`;
}
