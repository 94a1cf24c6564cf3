/** Per-arm numbers for the summary table (the report's, and what `grue experiment` prints). */
import type { ReportArm, ReportData, ReportEpisode } from './data';

export interface ArmSummary {
  arm: string;
  episodes: number;
  meanScore: number;
  /** The best final score of an episode. */
  bestScore: number;
  wins: number;
  deaths: number;
  llmCallsPerTurn: number;
  /** Null when no transcript has per-turn timings (not on this machine, or recorded before elapsedMs). */
  secondsPerTurn: number | null;
  policy: string;
  assist: string;
  model: string;
  thoughtbox: string;
  compaction: string;
  knowledge: string;
}

const UNKNOWN = '?';

/** The highest score reached during an episode (Zork takes points back on a death), its final score without a transcript. */
export function peakScore(episode: ReportEpisode): number {
  return Math.max(episode.score, ...episode.transcript.map((t) => t.score));
}

export function llmCallsPerTurn(episodes: ReportEpisode[]): number {
  const turns = episodes.reduce((n, e) => n + e.turns, 0);
  return turns === 0 ? 0 : episodes.reduce((n, e) => n + (e.llmCalls ?? 0), 0) / turns;
}

export function secondsPerTurn(episodes: ReportEpisode[]): number | null {
  const timed = episodes.flatMap((e) => e.transcript.filter((t) => t.elapsedMs !== undefined));
  return timed.length === 0 ? null : timed.reduce((n, t) => n + t.elapsedMs!, 0) / timed.length / 1000;
}

/** An arm's config in the table's words: model null is the worker's configured model. */
export function configColumns(arm: ReportArm): Pick<ArmSummary, 'policy' | 'assist' | 'model' | 'thoughtbox' | 'compaction' | 'knowledge'> {
  const c = arm.config;
  if (!c) return { policy: UNKNOWN, assist: UNKNOWN, model: UNKNOWN, thoughtbox: UNKNOWN, compaction: UNKNOWN, knowledge: UNKNOWN };
  return {
    policy: c.policy,
    assist: c.assist,
    model: c.model ?? 'worker default',
    thoughtbox: c.thoughtbox,
    compaction: c.compactEvery === 0 ? 'off' : `every ${c.compactEvery}${c.compactSmart ? ' (smart)' : ''}`,
    knowledge: c.knowledgeEvery === 0 ? 'off' : `every ${c.knowledgeEvery}`,
  };
}

export function summarize(data: ReportData): ArmSummary[] {
  return data.arms.map((arm) => {
    const scores = arm.episodes.map((e) => e.score);
    return {
      arm: arm.name,
      episodes: arm.episodes.length,
      meanScore: scores.length ? scores.reduce((a, b) => a + b, 0) / scores.length : 0,
      bestScore: scores.length ? Math.max(...scores) : 0,
      wins: arm.episodes.filter((e) => e.victory).length,
      deaths: arm.episodes.filter((e) => e.died).length,
      llmCallsPerTurn: llmCallsPerTurn(arm.episodes),
      secondsPerTurn: secondsPerTurn(arm.episodes),
      ...configColumns(arm),
    };
  });
}

/** The table's columns in order, with their headings and how each cell is written. */
export const SUMMARY_COLUMNS: Array<{ key: keyof ArmSummary; heading: string; format?: (v: ArmSummary[keyof ArmSummary]) => string }> = [
  { key: 'arm', heading: 'arm' },
  { key: 'episodes', heading: 'episodes' },
  { key: 'meanScore', heading: 'mean score', format: (v) => (v as number).toFixed(2) },
  { key: 'bestScore', heading: 'best score' },
  { key: 'wins', heading: 'wins' },
  { key: 'deaths', heading: 'deaths' },
  { key: 'llmCallsPerTurn', heading: 'LLM calls/turn', format: (v) => (v as number).toFixed(2) },
  { key: 'secondsPerTurn', heading: 's/turn', format: (v) => (v === null ? '—' : (v as number).toFixed(2)) },
  { key: 'policy', heading: 'policy' },
  { key: 'assist', heading: 'assist' },
  { key: 'model', heading: 'model' },
  { key: 'thoughtbox', heading: 'thoughtbox' },
  { key: 'compaction', heading: 'compaction' },
  { key: 'knowledge', heading: 'knowledge' },
];

/** The summary as rows of cell text, headings first. */
export function summaryCells(rows: ArmSummary[]): string[][] {
  return [
    SUMMARY_COLUMNS.map((c) => c.heading),
    ...rows.map((row) => SUMMARY_COLUMNS.map((c) => (c.format ? c.format(row[c.key]) : String(row[c.key])))),
  ];
}

/** Plain text, columns aligned: for the terminal. */
export function summaryText(rows: ArmSummary[]): string {
  const cells = summaryCells(rows);
  const widths = cells[0].map((_, i) => Math.max(...cells.map((r) => r[i].length)));
  return (
    cells
      .map((r) =>
        r
          .map((c, i) => c.padEnd(widths[i]))
          .join('  ')
          .trimEnd(),
      )
      .join('\n') + '\n'
  );
}
