/**
 * bench:saved-suite: a row bench:explore saved, written as a suite's results.json that `grue
 * report` reads (the same schema, the same figures a suite run computes from its campaigns).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendSaved, type GameRun } from '../../bench/exploreSaved';
import { savedSuiteOptions, settingOf, writeSavedSuite } from '../../bench/savedSuite';
import { SuiteResultSchema } from '../../src/schemas/suite';

const settings = { assist: 'valid', steps: 100, episodes: 2, prior: 'default' };

const entry = (game: string, maxScore: number, seed: number | null) => ({
  game,
  file: `${game}.z5`,
  zversion: 5,
  seed,
  maxScore,
  walkthroughScore: null,
});

const campaign = (game: string, maxScore: number, episodes: { final: number; peak: number; died: boolean; won?: boolean }[]): GameRun => ({
  game,
  maxScore,
  best: Math.max(...episodes.map((e) => e.final)),
  peak: Math.max(...episodes.map((e) => e.peak)),
  normalised: 0,
  steps: 200,
  seconds: 30,
  places: 12,
  doomedTurns: 0,
  finals: episodes.map((e) => e.final),
  episodes: episodes.map((e) => ({ final: e.final, peak: e.peak, steps: 100, died: e.died, won: e.won ?? false })),
});

describe('bench:saved-suite', () => {
  let dir: string;
  let suiteDir: string;
  let saveFile: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'grue-saved-suite-'));
    suiteDir = join(dir, 'suite');
    saveFile = join(dir, 'row.jsonl');
    mkdirSync(suiteDir);
    writeFileSync(join(suiteDir, 'suite.json'), JSON.stringify([entry('alpha', 50, 12), entry('beta', 10, null), entry('lgop', 0, 3)]));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads --save and --id, and stops on either missing or on a flag it does not know', () => {
    const argv = (...flags: string[]) => ['node', 'savedSuite.ts', ...flags];
    expect(savedSuiteOptions(argv('--save', 'row.jsonl', '--id', 'row', '--seed', '2'))).toMatchObject({ id: 'row', seed: 2 });
    expect(savedSuiteOptions(argv('--save', 'row.jsonl', '--id', 'row')).save).toMatch(/\/row\.jsonl$/);
    const stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      expect(() => savedSuiteOptions(argv('--save', 'row.jsonl'))).toThrow(/--id/);
      expect(() => savedSuiteOptions(argv('--save', 'row.jsonl', '--id', 'row', '--seeds', '0-2'))).toThrow(/unknown option '--seeds'/);
      expect(() => savedSuiteOptions(argv('--save', 'row.jsonl', '--id', 'row', '--seed', '-1'))).toThrow(/--seed/);
    } finally {
      stderr.mockRestore();
    }
  });

  it('names the setting by its episodes and steps', () => {
    expect(settingOf({ assist: 'valid', steps: 100, episodes: 10 }).name).toBe('campaign');
    expect(settingOf({ assist: 'none', steps: 100, episodes: 1 }).name).toBe('jericho');
    expect(settingOf({ assist: 'probe', steps: 50, episodes: 10 }).name).toBe('custom');
  });

  it("writes each game's finals, best, peak, deaths and normalised figures, and the suite's mean over known maxima", () => {
    appendSaved(
      saveFile,
      settings,
      0,
      campaign('alpha', 50, [
        { final: 10, peak: 20, died: true },
        { final: 30, peak: 30, died: false },
      ]),
    );
    appendSaved(
      saveFile,
      settings,
      0,
      campaign('beta', 10, [
        { final: 0, peak: 0, died: false },
        { final: 10, peak: 10, died: false, won: true },
      ]),
    );
    appendSaved(
      saveFile,
      settings,
      0,
      campaign('lgop', 0, [
        { final: 4, peak: 5, died: false },
        { final: 2, peak: 2, died: false },
      ]),
    );
    const dataDir = join(dir, 'data');
    const result = writeSavedSuite(saveFile, 'saved-row', suiteDir, 0, dataDir);
    const written = SuiteResultSchema.parse(JSON.parse(readFileSync(join(dataDir, 'suites', 'saved-row', 'results.json'), 'utf8')));
    expect(written).toEqual(result);
    expect(written.setting).toMatchObject({ name: 'custom', episodes: 2, steps: 100, assist: 'valid', policy: 'oracle-free', model: null });
    const [alpha, beta, lgop] = written.games;
    expect(alpha).toMatchObject({
      finals: [10, 30],
      best: 30,
      peak: 30,
      deaths: 1,
      won: false,
      seed: 12,
      normalisedBest: 0.6,
      normalisedMeanFinal: 0.4,
    });
    expect(beta).toMatchObject({ best: 10, won: true, deaths: 0, seed: 0, normalisedBest: 1 });
    expect(lgop).toMatchObject({ best: 4, peak: 5, maxScore: null, normalisedBest: null });
    expect(written.summary).toMatchObject({ games: 3, averaged: 2, unknownMax: ['lgop'], meanNormalised: 0.8, solved: 1, atZero: 0 });
    expect(written.summary.wallSeconds).toBe(90);
  });

  it('reports a story that did not load as a failed game, a fault mid-game as a story fault', () => {
    const loadFault = { ...campaign('alpha', 50, [{ final: 0, peak: 0, died: false }]), fault: 'load: not a story file' };
    const stepFault = { ...campaign('beta', 10, [{ final: 5, peak: 5, died: false }]), fault: 'step 41 (push button): illegal opcode' };
    appendSaved(saveFile, settings, 0, loadFault);
    appendSaved(saveFile, settings, 0, stepFault);
    const result = writeSavedSuite(saveFile, 'faults', suiteDir, 0, join(dir, 'data'));
    expect(result.games[0]).toMatchObject({ status: 'failed', error: 'load: not a story file', normalisedBest: null });
    expect(result.games[1].storyFaults).toEqual([{ turn: 42, command: 'push button', message: 'illegal opcode' }]);
    expect(result.summary.failed).toEqual([{ game: 'alpha', error: 'load: not a story file' }]);
  });

  it('refuses a run saved before episodes were kept, a game not in the suite, and a seed the file lacks', () => {
    const { episodes: _episodes, ...old } = campaign('alpha', 50, [{ final: 3, peak: 3, died: false }]);
    appendSaved(saveFile, settings, 0, old);
    expect(() => writeSavedSuite(saveFile, 'old', suiteDir, 0, join(dir, 'data'))).toThrow(/saved before .* kept how episodes ended/);
    expect(() => writeSavedSuite(saveFile, 'old', suiteDir, 1, join(dir, 'data'))).toThrow(/no run at seed 1/);
    writeFileSync(saveFile, '');
    appendSaved(saveFile, settings, 0, campaign('gamma', 5, [{ final: 1, peak: 1, died: false }]));
    expect(() => writeSavedSuite(saveFile, 'unknown', suiteDir, 0, join(dir, 'data'))).toThrow(/gamma .* is not in .*suite.json/);
  });
});
