/**
 * A suite's figures from its games' campaigns, pure: a game's result (finals, best, peak,
 * normalised by the game's max score) and the suite's summary (mean and median normalised over
 * the games whose max score is known and that finished; the others are listed, not averaged).
 */
import type { CampaignResult } from '../agent/records';
import type { SuiteGameInput, SuiteGameProgress, SuiteGameResult, SuiteSetting, SuiteSummary } from '../schemas/suite';

/** The game as the suite knows it before (or without) its campaign's result: of its input, the name, max score and seed. */
export interface GameRun {
  suiteId: string;
  game: Pick<SuiteGameInput, 'name' | 'maxScore'> & { campaign: Pick<SuiteGameInput['campaign'], 'seed'> };
  campaignId: string;
  setting: SuiteSetting;
  seconds: number;
}

const ratio = (score: number, max: number | null): number | null => (max ? score / max : null);

export function mean(values: readonly number[]): number | null {
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : null;
}

export function median(values: readonly number[]): number | null {
  if (!values.length) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

/** A finished game's result from its campaign's summary. */
export function gameResult(run: GameRun, campaign: Pick<CampaignResult, 'episodes'>): SuiteGameResult {
  const episodes = [...campaign.episodes].sort((a, b) => a.seed - b.seed);
  const finals = episodes.map((e) => e.score);
  const best = finals.length ? Math.max(...finals) : 0;
  // An episode recorded before peaks were kept peaked at least at its final score.
  const peak = episodes.length ? Math.max(...episodes.map((e) => Math.max(e.peakScore ?? e.score, e.score))) : 0;
  const max = run.game.maxScore;
  const steps = episodes.reduce((n, e) => n + e.turns, 0);
  const above = max !== null ? aboveMax(peak, max) : null;
  if (above) return { ...failedGameResult(run, above), finals, best, peak, steps };
  const meanFinal = mean(finals);
  return {
    ...common(run),
    status: 'done',
    error: null,
    finals,
    best,
    peak,
    normalisedBest: ratio(best, max),
    normalisedPeak: ratio(peak, max),
    normalisedMeanFinal: meanFinal === null ? null : ratio(meanFinal, max),
    won: episodes.some((e) => e.victory),
    deaths: episodes.filter((e) => e.died).length,
    storyFaults: episodes.flatMap((e) => (e.storyFault ? [e.storyFault] : [])),
    steps,
    llmCalls: episodes.reduce((n, e) => n + (e.llmCalls ?? 0), 0),
    tokens: episodes.reduce((n, e) => n + (e.tokens ?? 0), 0),
    model: episodes.find((e) => e.model)?.model ?? run.setting.model,
  };
}

/**
 * A score above the game's maximum cannot be: the score or the maximum is misread (Night's -1 once read
 * 255 of 10, which would have moved a 46-game mean by 0.55). Such a game is failed, with this
 * message, and left out of every average.
 */
export function aboveMax(peak: number, max: number): string | null {
  return peak > max
    ? `scored ${peak}, above the game's maximum of ${max}: its score or its maximum is misread (check the game's binding in game_files/bindings), so it is in no average`
    : null;
}

/** What a finished game's progress line shows that its results.json tells: how it ended, its best score, its error, its faulted episodes. */
export function finishedProgress(result: SuiteGameResult): Pick<SuiteGameProgress, 'state' | 'best' | 'error' | 'storyFaults'> {
  return { state: result.status, best: result.best, error: result.error, storyFaults: result.storyFaults.length };
}

/** A game whose campaign failed: reported with its error, in no average. */
export function failedGameResult(run: GameRun, error: string): SuiteGameResult {
  return {
    ...common(run),
    status: 'failed',
    error,
    finals: [],
    best: 0,
    peak: 0,
    normalisedBest: null,
    normalisedPeak: null,
    normalisedMeanFinal: null,
    won: false,
    deaths: 0,
    storyFaults: [],
    steps: 0,
    llmCalls: 0,
    tokens: 0,
    model: run.setting.model,
  };
}

function common(run: GameRun) {
  return {
    suiteId: run.suiteId,
    game: run.game.name,
    campaignId: run.campaignId,
    maxScore: run.game.maxScore,
    seed: run.game.campaign.seed,
    seconds: run.seconds,
    setting: run.setting,
  };
}

export function suiteSummary(
  games: readonly SuiteGameResult[],
  wallSeconds: number,
  reused: ReadonlySet<string> = new Set(),
): SuiteSummary {
  const played = games.filter((g) => g.status === 'done');
  const averaged = played.filter((g) => g.normalisedBest !== null);
  const steps = played.reduce((n, g) => n + g.steps, 0);
  const stepsThisRun = played.filter((g) => !reused.has(g.game)).reduce((n, g) => n + g.steps, 0);
  return {
    games: games.length,
    played: played.length,
    failed: games.filter((g) => g.status === 'failed').map((g) => ({ game: g.game, error: g.error ?? 'unknown error' })),
    averaged: averaged.length,
    unknownMax: games.filter((g) => g.maxScore === null).map((g) => g.game),
    meanNormalised: mean(averaged.map((g) => g.normalisedBest!)),
    medianNormalised: median(averaged.map((g) => g.normalisedBest!)),
    meanNormalisedPeak: mean(averaged.map((g) => g.normalisedPeak!)),
    solved: played.filter((g) => g.won).length,
    atZero: played.filter((g) => g.best === 0).length,
    steps,
    wallSeconds,
    turnsPerSecond: wallSeconds > 0 ? stepsThisRun / wallSeconds : null,
    reusedGames: games.filter((g) => reused.has(g.game)).map((g) => g.game),
  };
}
