/**
 * A suite whose server lost its history reads back the games an earlier run of the same id
 * finished — only when the file can stand for this run's game (finished, same seed and setting).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { readEarlierGameResults, suiteGameResultsPath } from '../../src/activities/suiteFiles';
import { SuiteGameResult, SuiteSetting } from '../../src/schemas/suite';
import { tempDataDir } from '../platform/env';

const setting: SuiteSetting = { name: 'jericho', episodes: 1, steps: 100, assist: 'valid', policy: 'oracle-free', model: null };
const result: SuiteGameResult = {
  suiteId: 'suite-a',
  game: 'zork1',
  campaignId: 'suite-a-zork1',
  status: 'done',
  error: null,
  maxScore: 350,
  seed: 12,
  finals: [35],
  best: 35,
  peak: 40,
  normalisedBest: 0.1,
  normalisedPeak: 40 / 350,
  normalisedMeanFinal: 0.1,
  won: false,
  deaths: 0,
  storyFaults: [],
  steps: 100,
  seconds: 300,
  llmCalls: 0,
  tokens: 0,
  setting,
  model: null,
};

function written(dataDir: string, content: string): void {
  const path = suiteGameResultsPath(dataDir, 'suite-a', 'zork1');
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

describe('readEarlierGameResults', () => {
  const ask = { suiteId: 'suite-a', game: 'zork1', seed: 12, setting };
  let stderr: jest.SpyInstance;
  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => stderr.mockRestore());

  it('reads back a finished game of the same seed and setting', () => {
    const dataDir = tempDataDir();
    written(dataDir, JSON.stringify(result));
    expect(readEarlierGameResults(dataDir, ask)).toEqual(result);
    expect(stderr).not.toHaveBeenCalled();
  });

  it('has nothing when no earlier run wrote the game', () => {
    expect(readEarlierGameResults(tempDataDir(), ask)).toBeNull();
  });

  it('plays a failed game again', () => {
    const dataDir = tempDataDir();
    written(dataDir, JSON.stringify({ ...result, status: 'failed', error: 'Z-machine stopped' }));
    expect(readEarlierGameResults(dataDir, ask)).toBeNull();
  });

  it('plays again, and says so, when the file was written for another seed or setting', () => {
    const dataDir = tempDataDir();
    written(dataDir, JSON.stringify(result));
    expect(readEarlierGameResults(dataDir, { ...ask, seed: 13 })).toBeNull();
    expect(readEarlierGameResults(dataDir, { ...ask, setting: { ...setting, assist: 'probe' } })).toBeNull();
    expect(stderr).toHaveBeenCalledTimes(2);
    expect(String(stderr.mock.calls[1][0])).toMatch(/^grue: .*results\.json was written for another run .*zork1 is played again/);
  });

  it('plays again, and says so, when the file is not a results file', () => {
    const dataDir = tempDataDir();
    written(dataDir, '{"suiteId": "suite-a", "gam');
    expect(readEarlierGameResults(dataDir, ask)).toBeNull();
    expect(String(stderr.mock.calls[0][0])).toMatch(/is not a results file this grue can read: .*zork1 is played again/);
  });
});
