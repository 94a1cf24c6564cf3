/**
 * The report's charts as Vega-Lite specs with their data inline (no URL to load, so a rendered
 * chart needs nothing but the spec). Arms keep the order of the data (baseline first) in every
 * legend, facet and group.
 */
import type { TopLevelSpec } from 'vega-lite';
import type { ReportData } from './data';
import { peakScore, secondsPerTurn } from './summary';

export interface Chart {
  /** File stem: `<id>.svg`, `<id>.png`. */
  id: string;
  title: string;
  /** What the chart shows, for the report's text. */
  description: string;
  spec: TopLevelSpec;
}

/** Fonts: DejaVu Sans is what the PNG renderer finds on Debian (fonts-dejavu-core); browsers fall back to their sans-serif. */
const CONFIG = { font: 'DejaVu Sans, Verdana, sans-serif', background: 'white', view: { stroke: '#ddd' } } as const;
const WIDTH = 420;
const HEIGHT = 240;

export interface ScorePoint {
  arm: string;
  episode: number;
  turn: number;
  score: number;
}
export interface EpisodeValue {
  arm: string;
  episode: number;
  value: number;
}

export function scorePoints(data: ReportData): ScorePoint[] {
  return data.arms.flatMap((arm) =>
    arm.episodes.flatMap((e) => e.transcript.map((t) => ({ arm: arm.name, episode: e.index, turn: t.turn, score: t.score }))),
  );
}

export function bestScores(data: ReportData): EpisodeValue[] {
  return data.arms.flatMap((arm) => arm.episodes.map((e) => ({ arm: arm.name, episode: e.index, value: peakScore(e) })));
}

export function llmCallsPerEpisodeTurn(data: ReportData): EpisodeValue[] {
  return data.arms.flatMap((arm) =>
    arm.episodes.map((e) => ({ arm: arm.name, episode: e.index, value: e.turns === 0 ? 0 : (e.llmCalls ?? 0) / e.turns })),
  );
}

/** Only episodes whose transcript has per-turn timings. */
export function secondsPerEpisodeTurn(data: ReportData): EpisodeValue[] {
  return data.arms.flatMap((arm) =>
    arm.episodes.flatMap((e) => {
      const s = secondsPerTurn([e]);
      return s === null ? [] : [{ arm: arm.name, episode: e.index, value: s }];
    }),
  );
}

const armOrder = (data: ReportData) => data.arms.map((a) => a.name);

/**
 * An integer axis. Over a short range (9:05 scores 0 or 1) Vega still puts ticks at fractions and
 * the integer format prints them as their neighbours ("0, 1, 1"), whatever tickMinStep says, so
 * there the ticks are listed.
 */
export function integerAxis(values: number[]): { format: 'd'; tickMinStep: 1; values?: number[] } {
  const low = Math.floor(Math.min(0, ...values));
  const high = Math.ceil(Math.max(0, ...values));
  if (high - low > 10) return { format: 'd', tickMinStep: 1 };
  return { format: 'd', tickMinStep: 1, values: Array.from({ length: high - low + 1 }, (_, i) => low + i) };
}

/** One bar per (episode, arm), the arms side by side within each episode. */
function perEpisodeBars(data: ReportData, values: EpisodeValue[], title: string, yTitle: string, format: string): TopLevelSpec {
  const arms = armOrder(data);
  return {
    title,
    config: CONFIG,
    width: WIDTH,
    height: HEIGHT,
    data: { values },
    mark: { type: 'bar', tooltip: true },
    encoding: {
      x: { field: 'episode', type: 'ordinal', title: 'episode', axis: { labelAngle: 0 } },
      ...(arms.length > 1 ? { xOffset: { field: 'arm', type: 'nominal', sort: arms } } : {}),
      y: {
        field: 'value',
        type: 'quantitative',
        title: yTitle,
        axis: format === 'd' ? integerAxis(values.map((v) => v.value)) : { format },
      },
      color: { field: 'arm', type: 'nominal', sort: arms, title: 'arm' },
    },
  } as TopLevelSpec;
}

export function reportCharts(data: ReportData): Chart[] {
  const arms = armOrder(data);
  const experiment = data.arms.length > 1;
  const points = scorePoints(data);
  // Points mark each turn while they can be told apart; a long episode is a plain line.
  const longest = Math.max(0, ...points.map((p) => p.turn));
  const line = {
    mark: { type: 'line', point: longest <= 40, tooltip: true },
    encoding: {
      x: { field: 'turn', type: 'quantitative', title: 'turn', axis: { format: 'd', tickMinStep: 1 } },
      y: { field: 'score', type: 'quantitative', title: 'score', axis: integerAxis(points.map((p) => p.score)) },
      color: { field: 'episode', type: 'ordinal', title: 'episode', scale: { scheme: 'viridis' } },
    },
  };
  const scoreOverTurns: TopLevelSpec = (
    experiment
      ? {
          title: 'Score over turns',
          config: CONFIG,
          data: { values: points },
          facet: { field: 'arm', type: 'nominal', sort: arms, title: 'arm' },
          columns: Math.min(3, arms.length),
          spec: { width: 260, height: 180, ...line },
        }
      : { title: 'Score over turns', config: CONFIG, width: WIDTH, height: HEIGHT, data: { values: points }, ...line }
  ) as TopLevelSpec;

  const charts: Chart[] = [
    {
      id: 'score-over-turns',
      title: 'Score over turns',
      description: `The score after each turn, one line per episode${experiment ? ', one panel per arm' : ''} (from the transcripts).`,
      spec: scoreOverTurns,
    },
    {
      id: 'best-score',
      title: 'Best score per episode',
      description:
        `The highest score reached during each ` +
        `episode${experiment ? ', the arms side by side (same seed per episode in every arm)' : ''}.`,
      spec: perEpisodeBars(data, bestScores(data), 'Best score per episode', 'best score', 'd'),
    },
    {
      id: 'llm-calls-per-turn',
      title: 'LLM calls per turn',
      description:
        `LLM calls made to decide the turns (oracle, failure analysis, thoughtbox; compaction and knowledge ` +
        `calls are not in this count) divided by turns, per episode${experiment ? ' and arm' : ''}.`,
      spec: perEpisodeBars(data, llmCallsPerEpisodeTurn(data), 'LLM calls per turn', 'LLM calls / turn', '.2f'),
    },
  ];
  const seconds = secondsPerEpisodeTurn(data);
  if (seconds.length > 0) {
    charts.push({
      id: 'seconds-per-turn',
      title: 'Seconds per turn',
      description:
        `Mean workflow time per turn (the turn's activities plus scheduling; ` +
        `elapsedMs in the transcript), per episode${experiment ? ' and arm' : ''}.`,
      spec: perEpisodeBars(data, seconds, 'Seconds per turn', 'seconds / turn', '.2f'),
    });
  }
  return charts;
}
