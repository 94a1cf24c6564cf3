/** The report builder on fixture data: the numbers, the charts' data points, a self-contained HTML, valid PNGs, and the loader's errors. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createFileActivities, readTranscript } from '../../src/activities/files';
import { buildReport } from '../../src/report/build';
import { bestScores, integerAxis, llmCallsPerEpisodeTurn, reportCharts, scorePoints, secondsPerEpisodeTurn } from '../../src/report/charts';
import { loadReportData, ReportNotFoundError } from '../../src/report/load';
import { summarize, summaryText } from '../../src/report/summary';
import { reportDir, writeReport } from '../../src/report/write';
import { resolveCampaignConfig } from '../../src/schemas/episode';
import { freshLearned } from '../../src/agent/learned';
import { tempDataDir } from '../platform/env';
import { campaignFixture, experimentFixture } from './fixtures';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** A PNG's signature, its IHDR chunk first, and a width and height that are not zero. */
function expectPng(bytes: Buffer): { width: number; height: number } {
  expect(bytes.subarray(0, 8).equals(PNG_SIGNATURE)).toBe(true);
  expect(bytes.subarray(12, 16).toString('ascii')).toBe('IHDR');
  const size = { width: bytes.readUInt32BE(16), height: bytes.readUInt32BE(20) };
  expect(size.width).toBeGreaterThan(100);
  expect(size.height).toBeGreaterThan(100);
  expect(bytes.subarray(-8, -4).toString('ascii')).toBe('IEND');
  return size;
}

describe('summary', () => {
  it('gives each arm its episodes, mean and best score, wins, deaths, LLM calls and seconds per turn, and its config', () => {
    const [baseline, off] = summarize(experimentFixture());
    expect(baseline).toEqual({
      arm: 'baseline',
      episodes: 2,
      meanScore: 7.5,
      bestScore: 10,
      wins: 1,
      deaths: 0,
      llmCallsPerTurn: 1,
      secondsPerTurn: 3,
      policy: 'full',
      assist: 'probe',
      model: 'worker default',
      thoughtbox: 'auto',
      compaction: 'every 5',
      knowledge: 'every 10',
    });
    // Seconds per turn only from the turns that have timings (episode 2 has none).
    expect(off).toMatchObject({
      arm: 'thoughtbox=off',
      meanScore: 2.5,
      bestScore: 5,
      wins: 0,
      deaths: 1,
      llmCallsPerTurn: 0.5,
      secondsPerTurn: 1,
      thoughtbox: 'off',
    });
  });

  it('says "?" for the config of a campaign that did not record it, and "—" for seconds without timings', () => {
    const [row] = summarize(campaignFixture());
    expect(row).toMatchObject({ policy: '?', assist: '?', model: '?', secondsPerTurn: null, llmCallsPerTurn: 0 });
    expect(summaryText([row])).toMatch(/s\/turn[\s\S]*—/);
  });
});

describe('chart specs hold the data points', () => {
  const data = experimentFixture();

  it('score over turns: every turn of every episode, by arm', () => {
    const points = scorePoints(data);
    expect(points).toHaveLength(16);
    expect(points.filter((p) => p.arm === 'thoughtbox=off' && p.episode === 1).map((p) => [p.turn, p.score])).toEqual([
      [1, 0],
      [2, 10],
      [3, 10],
      [4, 0],
    ]);
    const chart = reportCharts(data).find((c) => c.id === 'score-over-turns')!;
    expect((chart.spec as { data: { values: unknown[] } }).data.values).toEqual(points);
    // One panel per arm, baseline first.
    expect((chart.spec as { facet: { field: string; sort: string[] } }).facet).toMatchObject({
      field: 'arm',
      sort: ['baseline', 'thoughtbox=off'],
    });
  });

  it('best score per episode is the peak reached, not the final score', () => {
    expect(bestScores(data)).toEqual([
      { arm: 'baseline', episode: 1, value: 5 },
      { arm: 'baseline', episode: 2, value: 10 },
      { arm: 'thoughtbox=off', episode: 1, value: 10 },
      { arm: 'thoughtbox=off', episode: 2, value: 5 },
    ]);
  });

  it('LLM calls and seconds per turn per episode and arm; an episode without timings has no seconds point', () => {
    expect(llmCallsPerEpisodeTurn(data).map((v) => v.value)).toEqual([1, 1, 0.5, 0.5]);
    expect(secondsPerEpisodeTurn(data)).toEqual([
      { arm: 'baseline', episode: 1, value: 2 },
      { arm: 'baseline', episode: 2, value: 4 },
      { arm: 'thoughtbox=off', episode: 1, value: 1 },
    ]);
    const ids = reportCharts(data).map((c) => c.id);
    expect(ids).toEqual(['score-over-turns', 'best-score', 'llm-calls-per-turn', 'seconds-per-turn']);
  });

  it('a campaign has no facets, and no seconds chart when no turn has a timing', () => {
    const charts = reportCharts(campaignFixture());
    expect(charts.map((c) => c.id)).toEqual(['score-over-turns', 'best-score', 'llm-calls-per-turn']);
    expect(charts[0].spec).not.toHaveProperty('facet');
  });
});

describe('score axes', () => {
  /** The tick labels of a rendered chart's first y axis (Vega writes the axis group, its labels, then its title). */
  const yLabels = (svg: string) => {
    const axis = svg.slice(svg.indexOf('aria-label="Y-axis'));
    const labels = axis.slice(0, axis.indexOf('role-axis-title'));
    return [...labels.matchAll(/<text[^>]*>([^<]*)<\/text>/g)].map((m) => m[1]);
  };

  it('a game scored 0 or 1 (9:05) has the integer ticks 0 and 1 only, each once', async () => {
    const data = experimentFixture();
    for (const arm of data.arms) {
      for (const episode of arm.episodes) {
        episode.score = 1;
        episode.transcript = episode.transcript.map((t) => ({ ...t, score: t.turn >= 3 ? 1 : 0 }));
      }
    }
    const built = await buildReport(data);
    for (const id of ['score-over-turns', 'best-score'])
      expect(new Set(yLabels(built.files[`${id}.svg`] as string))).toEqual(new Set(['0', '1']));
    expect(yLabels(built.files['best-score.svg'] as string)).toEqual(['0', '1']);
  });

  it("a long range keeps Vega's own ticks", () => {
    expect(integerAxis([0, 48])).toEqual({ format: 'd', tickMinStep: 1 });
    expect(integerAxis([-5, 1])).toMatchObject({ values: [-5, -4, -3, -2, -1, 0, 1] });
  });
});

describe('buildReport', () => {
  let report: Awaited<ReturnType<typeof buildReport>>;
  beforeAll(async () => {
    report = await buildReport(experimentFixture());
  });

  it('has report.html, report.md, summary.json and each chart as SVG and PNG', () => {
    expect(Object.keys(report.files).sort()).toEqual(
      [
        'report.html',
        'report.md',
        'summary.json',
        ...['score-over-turns', 'best-score', 'llm-calls-per-turn', 'seconds-per-turn'].flatMap((id) => [`${id}.svg`, `${id}.png`]),
      ].sort(),
    );
  });

  it('the HTML is self-contained: every chart inlined as SVG, no http(s) URL in any src or href, no script', () => {
    const html = report.files['report.html'] as string;
    expect(html.match(/<svg[\s>]/g)).toHaveLength(4);
    expect(html).not.toMatch(/\b(?:src|href|xlink:href)\s*=\s*["']?\s*(?:https?:)?\/\//i);
    expect(html).not.toMatch(/<script|<link|@import|url\(\s*["']?https?:/i);
    // The summary table: both arms, the config columns (policy, assist, model, ...).
    expect(html).toMatch(/<th>assist<\/th>/);
    expect(html).toMatch(
      /<td>thoughtbox=off<\/td><td>2<\/td><td>2.50<\/td><td>5<\/td><td>0<\/td><td>1<\/td><td>0.50<\/td><td>1.00<\/td><td>full<\/td><td>probe<\/td><td>worker default<\/td><td>off<\/td>/,
    );
  });

  it('the SVGs carry the chart text (titles, arms) and the PNGs are valid PNG files', () => {
    const svg = report.files['best-score.svg'] as string;
    expect(svg).toMatch(/^<svg/);
    expect(svg).toMatch(/Best score per episode/);
    expect(svg).toMatch(/thoughtbox=off/);
    for (const [name, bytes] of Object.entries(report.files)) if (name.endsWith('.png')) expectPng(bytes as Buffer);
  });

  it('the Markdown links each chart by a relative path and has the summary table', () => {
    const md = report.files['report.md'] as string;
    for (const id of ['score-over-turns', 'best-score', 'llm-calls-per-turn', 'seconds-per-turn']) expect(md).toContain(`](${id}.png)`);
    expect(md).not.toMatch(/\]\((?:https?:|\/)/);
    expect(md).toMatch(
      /^\| arm \| episodes \| mean score \| best score \| wins \| deaths \| LLM calls\/turn \| s\/turn \| policy \| assist \| model \| thoughtbox \| compaction \| knowledge \|$/m,
    );
    expect(md).toMatch(
      /^\| baseline \| 2 \| 7.50 \| 10 \| 1 \| 0 \| 1.00 \| 3.00 \| full \| probe \| worker default \| auto \| every 5 \| every 10 \|$/m,
    );
  });

  it('is written atomically under reports/<id>/, and a rewrite replaces the files', () => {
    const dir = reportDir(tempDataDir(), 'exp-fixture');
    const paths = writeReport(dir, report);
    expect(paths[0]).toBe(join(dir, 'report.html'));
    expect(readFileSync(join(dir, 'best-score.png')).equals(report.files['best-score.png'] as Buffer)).toBe(true);
    writeReport(dir, report);
    expect(readFileSync(join(dir, 'report.md'), 'utf8')).toBe(report.files['report.md']);
  });
});

describe('loadReportData', () => {
  it("reads a campaign results.json with its recorded config and the episodes' transcripts", async () => {
    const dataDir = tempDataDir();
    const acts = createFileActivities(dataDir);
    const config = resolveCampaignConfig({ game: 'ferry', episodes: 1, maxTurns: 2, assist: 'valid', model: 'qwen2.5-coder-0.5b' });
    await acts.writeTranscriptChunk({
      workflowId: 'c-episode-001',
      turns: [
        { turn: 1, command: 'n', observation: 'x', score: 1, moves: 1, location: 'Quay', worldHash: 'h', validActions: 2, elapsedMs: 1500 },
      ],
    });
    const results = {
      campaignId: 'c',
      game: 'ferry',
      episodes: [{ workflowId: 'c-episode-001', seed: 0, score: 1, turns: 1, victory: false, died: false }],
      meanScore: 1,
      maxScore: 1,
      learned: freshLearned(),
      config,
    };
    await acts.writeResults({ campaignId: 'c', results });
    const data = loadReportData(dataDir, 'c');
    expect(data).toMatchObject({ kind: 'campaign', id: 'c', game: 'ferry', arms: [{ name: 'campaign', config }] });
    expect(data.arms[0].episodes[0].transcript).toEqual(readTranscript(dataDir, 'c-episode-001'));
    // The recorded assist level and model reach the report.
    const report = await buildReport(data);
    expect(report.files['report.md']).toMatch(/\| valid \| qwen2\.5-coder-0\.5b \|/);
  });

  it('an unknown id is a ReportNotFoundError that says what to give', () => {
    expect(() => loadReportData(tempDataDir(), 'nope')).toThrow(ReportNotFoundError);
    expect(() => loadReportData(tempDataDir(), 'nope')).toThrow(/no results for "nope".*finished campaign or experiment/);
  });

  it('a results file that is not what grue writes is an error naming the file', () => {
    const dataDir = tempDataDir();
    mkdirSync(join(dataDir, 'experiments', 'bad'), { recursive: true });
    writeFileSync(join(dataDir, 'experiments', 'bad', 'results.json'), '{"experimentId": "bad"}');
    expect(() => loadReportData(dataDir, 'bad')).toThrow(/experiments\/bad\/results\.json is not a results file this grue can read: game/);
    writeFileSync(join(dataDir, 'experiments', 'bad', 'results.json'), '{"trunc');
    expect(() => loadReportData(dataDir, 'bad')).toThrow(/is not a results file this grue can read/);
  });
});
