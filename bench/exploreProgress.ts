/**
 * A long episode's course on stderr, as `grue suite` shows a running game: a line at every
 * PROGRESS_EVERY_TURNS-th turn, once the episode has run QUIET_MS. At `valid` a hard game's
 * search takes seconds a state, so one episode can run half an hour; at `none` the 47 games take
 * minutes in all and print nothing more than before.
 */

/** The same cadence as grue suite's running lines (src/cli/suite.ts). */
export const PROGRESS_EVERY_TURNS = 25;

/** An episode shorter than this prints no turn lines. */
export const QUIET_MS = 10_000;

/** Where an episode is after a turn. */
export interface EpisodeProgress {
  /** 0-based index of the episode in its campaign. */
  episode: number;
  episodes: number;
  turn: number;
  steps: number;
  score: number;
  maxScore: number;
  location: string;
  elapsedMs: number;
}

/** "afflicted episode 2/10, turn 50/100, score 3/75, Bedroom, 412 s", or null when no line is due. */
export function progressLine(game: string, at: EpisodeProgress): string | null {
  if (at.turn === 0 || at.turn % PROGRESS_EVERY_TURNS !== 0 || at.turn >= at.steps || at.elapsedMs < QUIET_MS) return null;
  const episode = at.episodes > 1 ? ` episode ${at.episode + 1}/${at.episodes},` : '';
  const where = at.location ? `, ${at.location}` : '';
  return `${game}${episode} turn ${at.turn}/${at.steps}, score ${at.score}/${at.maxScore}${where}, ${Math.round(at.elapsedMs / 1000)} s`;
}
