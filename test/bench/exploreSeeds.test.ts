/**
 * bench:explore's seeds: which it plays (`--seeds`), and the spread of the suite means they give,
 * which says how far one episode a game moves a row by luck alone.
 */
import { type GameRun, seedMeans, suiteMeans } from '../../bench/explore';
import { exploreOptions, parseSeeds } from '../../bench/exploreOptions';

const run = (game: string, best: number, maxScore: number): GameRun => ({
  game,
  maxScore,
  best,
  peak: best,
  normalised: maxScore > 0 ? best / maxScore : 0,
  steps: 100,
  seconds: 1,
  places: 3,
  doomedTurns: 0,
});

describe('bench:explore seeds', () => {
  it('reads a list, a range, or the single --seed', () => {
    expect(parseSeeds('0,1,5', '0')).toEqual([0, 1, 5]);
    expect(parseSeeds('2-5', '0')).toEqual([2, 3, 4, 5]);
    expect(parseSeeds('', '7')).toEqual([7]);
  });

  it('refuses what is not a seed, naming what it got', () => {
    expect(() => parseSeeds('0,x', '0')).toThrow(/"0,x"/);
    expect(() => parseSeeds('-1', '0')).toThrow(/--seeds/);
    expect(() => parseSeeds('1.5', '0')).toThrow(/--seeds/);
  });

  it('reads its flags with their defaults, and stops on a flag it does not know instead of playing the whole suite', () => {
    const argv = (...flags: string[]) => ['node', 'explore.ts', ...flags];
    const read = exploreOptions(argv('--assist', 'probe', '--games', 'zork1,night', '--seeds', '0-2', '--jobs', '2', '--log'));
    expect(read).toMatchObject({ assist: 'probe', games: 'zork1,night', seeds: [0, 1, 2], jobs: 2, log: true, steps: 100, episodes: 1 });
    expect(exploreOptions(argv()).games).toBe('all');
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => exploreOptions(argv('--game', 'zork1'))).toThrow(/unknown option '--game'/);
      expect(() => exploreOptions(argv('--assist', 'all'))).toThrow(/none, valid or probe/);
      expect(() => exploreOptions(argv('--jobs', '0'))).toThrow(/--jobs/);
      expect(() => exploreOptions(argv('--searches-deeper'))).toThrow(/only under --assist probe/);
    } finally {
      stderr.mockRestore();
    }
  });

  it("averages each seed's suite mean and gives their standard error, games of unknown max aside", () => {
    const means = seedMeans([
      { seed: 0, runs: [run('a', 10, 100), run('b', 0, 50), run('lgop', 5, 0)] },
      { seed: 1, runs: [run('a', 30, 100), run('b', 10, 50), run('lgop', 2, 0)] },
    ]);
    // Seed 0: (0.1 + 0) / 2 = 0.05; seed 1: (0.3 + 0.2) / 2 = 0.25.
    expect(means.seeds.map((m) => m.normalised)).toEqual([0.05, 0.25]);
    expect(means.normalised).toBe(0.15);
    expect(means.games).toBe(2);
    // Sample standard deviation 0.1414, over the root of two seeds.
    expect(means.standardError).toBe(0.1);
  });

  it('leaves out of the mean a game that scored above its maximum (a misread score)', () => {
    expect(suiteMeans([run('a', 10, 100), run('night', 255, 10)])).toEqual({ normalised: 0.1, peakNormalised: 0.1, games: 1 });
  });

  it('gives no spread for one seed', () => {
    expect(seedMeans([{ seed: 3, runs: [run('a', 10, 100)] }]).standardError).toBe(0);
  });
});
