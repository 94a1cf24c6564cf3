/**
 * bench:explore --save: runs kept as each finishes, read back to play only what is missing, and
 * never mixed with a row of other settings.
 */
import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { appendSaved, type GameRun, readSaved, savedKey } from '../../bench/exploreSaved';

const settings = { assist: 'valid', steps: 100, episodes: 10, prior: 'default' };

const run = (game: string, best: number): GameRun => ({
  game,
  maxScore: 100,
  best,
  peak: best,
  normalised: best / 100,
  steps: 1000,
  seconds: 12.5,
  places: 30,
  doomedTurns: 0,
  finals: [best, 0],
});

describe('bench:explore saved runs', () => {
  let dir: string;
  let file: string;
  const warnings: string[] = [];
  const warn = (message: string) => warnings.push(message);
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'grue-explore-saved-'));
    file = join(dir, 'runs.jsonl');
    warnings.length = 0;
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('reads nothing from a file not yet written', () => {
    expect(readSaved(file, settings, warn).size).toBe(0);
  });

  it('reads back each run added, by seed and game', () => {
    appendSaved(file, settings, 0, run('zork1', 44));
    appendSaved(file, settings, 1, run('zork1', 40));
    appendSaved(file, settings, 0, run('detective', 100));
    const runs = readSaved(file, settings, warn);
    expect([...runs.keys()]).toEqual([savedKey(0, 'zork1'), savedKey(1, 'zork1'), savedKey(0, 'detective')]);
    expect(runs.get(savedKey(1, 'zork1'))).toEqual(run('zork1', 40));
    expect(readFileSync(file, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('leaves out a last line cut short, with a warning, so its game is played again', () => {
    appendSaved(file, settings, 0, run('zork1', 44));
    appendFileSync(file, '{"settings":{"assist":"valid","steps":100,"epis');
    const runs = readSaved(file, settings, warn);
    expect([...runs.keys()]).toEqual([savedKey(0, 'zork1')]);
    expect(warnings).toEqual([expect.stringMatching(/line 2 was cut short/)]);
  });

  it('refuses a broken line that is not the last, naming it', () => {
    appendFileSync(file, 'not json\n');
    appendSaved(file, settings, 0, run('zork1', 44));
    expect(() => readSaved(file, settings, warn)).toThrow(/line 1 is not JSON/);
  });

  it('refuses runs of other settings rather than mix two rows', () => {
    appendSaved(file, { ...settings, episodes: 1 }, 0, run('zork1', 44));
    expect(() => readSaved(file, settings, warn)).toThrow(/line 1 was played with .*"episodes":1.*use another --save file/);
  });

  it("keeps runs of the search past two moves (--searches-deeper) apart from the agent's own", () => {
    const deeper = { ...settings, assist: 'probe', searchesDeeper: true as const };
    appendSaved(file, deeper, 0, run('zork1', 39));
    expect(() => readSaved(file, { ...settings, assist: 'probe' }, warn)).toThrow(/line 1 was played with .*"searchesDeeper":true/);
    expect(readSaved(file, deeper, warn).get('0|zork1')?.best).toBe(39);
  });

  it('refuses a line that is JSON but not a run', () => {
    appendFileSync(file, '{"seed":0}\n');
    expect(() => readSaved(file, settings, warn)).toThrow(/line 1 is not a saved run/);
  });
});
