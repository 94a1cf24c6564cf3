/**
 * bench:explore's campaign checkpoints: a campaign row resumed after a stop goes on from the
 * episodes a game finished, so a game longer than a work session still ends. What is read back is
 * what was written; a checkpoint of other settings is refused, as mixing rows would be wrong.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freshLearned } from '../../src/agent/learned';
import { checkpointFile, readCheckpoint, removeCheckpoint, writeCheckpoint } from '../../bench/exploreCheckpoint';

const settings = { assist: 'valid', steps: 100, episodes: 10, prior: 'default' };
const run = { game: 'g', maxScore: 10, best: 3, peak: 4, normalised: 0.3, steps: 100, seconds: 1, places: 2, doomedTurns: 0 };

describe('bench:explore campaign checkpoints', () => {
  const saveFile = join(mkdtempSync(join(tmpdir(), 'grue-checkpoint-')), 'row.jsonl');
  const file = checkpointFile(saveFile, 2, 'g');

  it('reads back the episodes and what they learned, and nothing once removed', () => {
    expect(readCheckpoint(file, settings)).toBeNull();
    const learned = { ...freshLearned(), episodes: 2, bestScore: 3 };
    writeCheckpoint(file, { settings, seed: 2, game: 'g', runs: [run, { ...run, best: 1 }], learned });
    const read = readCheckpoint(file, settings);
    expect(read?.runs.map((r) => r.best)).toEqual([3, 1]);
    expect(read?.learned.episodes).toBe(2);
    removeCheckpoint(file);
    expect(readCheckpoint(file, settings)).toBeNull();
  });

  it('refuses a checkpoint of other settings, and one that does not read, naming the file', () => {
    writeCheckpoint(file, { settings, seed: 2, game: 'g', runs: [run], learned: freshLearned() });
    expect(() => readCheckpoint(file, { ...settings, episodes: 5 })).toThrow(`${file} was played with`);
    writeFileSync(file, '{"settings":');
    expect(() => readCheckpoint(file, settings)).toThrow(`${file} is not JSON`);
  });

  it('refuses one with neither a finished episode nor one in play', () => {
    writeFileSync(file, JSON.stringify({ settings, seed: 2, game: 'g', runs: [], learned: freshLearned() }));
    expect(() => readCheckpoint(file, settings)).toThrow('a checkpoint holds a finished episode or one in play');
  });
});
