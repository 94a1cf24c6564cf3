/**
 * bench:explore shows a long episode's course: a line every 25 turns once the episode has run ten
 * seconds, none for a quick one, none at its last turn (the episode's own line follows).
 */
import { progressLine, type EpisodeProgress } from '../../bench/exploreProgress';

describe('bench:explore progress lines', () => {
  const at: EpisodeProgress = {
    episode: 1,
    episodes: 10,
    turn: 50,
    steps: 100,
    score: 3,
    maxScore: 75,
    location: 'Bedroom',
    elapsedMs: 412_400,
  };

  it('says the episode, turn, score, place and time at every 25th turn of a long episode', () => {
    expect(progressLine('afflicted', at)).toBe('afflicted episode 2/10, turn 50/100, score 3/75, Bedroom, 412 s');
    expect(progressLine('g', { ...at, episodes: 1, location: '' })).toBe('g turn 50/100, score 3/75, 412 s');
  });

  it('prints nothing between the 25ths, at the last turn, or in an episode quicker than ten seconds', () => {
    expect(progressLine('g', { ...at, turn: 49 })).toBeNull();
    expect(progressLine('g', { ...at, turn: 100 })).toBeNull();
    expect(progressLine('g', { ...at, elapsedMs: 9_999 })).toBeNull();
    expect(progressLine('g', { ...at, turn: 0 })).toBeNull();
  });
});
