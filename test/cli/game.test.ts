import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeWithGame, GRUE, ROOT, scratchDir } from '../helpers';

function grue(args: string[], input?: string) {
  const r = spawnSync(process.execPath, [GRUE, ...args], { cwd: ROOT, input, encoding: 'utf8', timeout: 60_000 });
  return { code: r.status, stdout: r.stdout, stderr: r.stderr };
}

const KEYS = ['command', 'observation', 'score', 'moves', 'location', 'inventory', 'done', 'victory', 'died'];

describe('grue game', () => {
  it('runs scripted commands and prints one JSON line per step with the documented keys', () => {
    const r = grue(['game', 'lighthouse', '--commands', 'open chest/take key', '--json']);
    expect(r.code).toBe(0);
    const lines = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(2);
    for (const line of lines) expect(Object.keys(line)).toEqual(KEYS);
    expect(lines[1]).toMatchObject({
      command: 'take key',
      observation: 'Taken.',
      inventory: [{ name: 'iron key' }],
      location: { name: 'Rocky Shore' },
    });
  });

  it('adds validActions with --valid', () => {
    const r = grue(['game', 'lighthouse', '--commands', 'open chest', '--json', '--valid']);
    expect(r.code).toBe(0);
    const line = JSON.parse(r.stdout.trim());
    expect(Object.keys(line)).toEqual([...KEYS, 'validActions']);
    expect(line.validActions).toContain('take iron key');
  });

  it('plays interactively from standard input', () => {
    const r = grue(['game', 'lighthouse'], 'open chest\ntake lamp\n');
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/revealing an iron key and an oil lamp/);
    expect(r.stdout).toMatch(/Taken\./);
    expect(r.stdout).toMatch(/score 0\/20/);
  });

  it('gives a clear error and a non-zero exit for bad input', () => {
    const unknown = grue(['game', 'no-such-game']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toMatch(/Unknown game "no-such-game"/);

    const dir = scratchDir('cli');
    writeFileSync(join(dir, 'notes.z5'), 'just some text, not a story file '.repeat(10));
    const corrupt = grue(['game', join(dir, 'notes.z5')]);
    expect(corrupt.code).toBe(2);
    expect(corrupt.stderr).toMatch(/not a Z-machine story file/);

    const seed = grue(['game', 'lighthouse', '--seed', 'soon']);
    expect(seed.code).not.toBe(0);
    expect(seed.stderr).toMatch(/--seed must be a whole number/);

    const cmd = grue(['game', 'lighthouse', '--commands', 'look/take \u0007key', '--json']);
    expect(cmd.code).toBe(2);
    expect(cmd.stderr).toMatch(/command 2 .*non-printable/);
    expect(cmd.stdout).toBe('');
  });
});

describeWithGame('zork1.z3', 'grue game on Zork I', (ZORK) => {
  it('the acceptance route ends in the Kitchen with score 10', () => {
    const r = grue(['game', ZORK, '--commands', 'north/east/open window/enter house', '--json']);
    expect(r.code).toBe(0);
    const last = JSON.parse(r.stdout.trim().split('\n').pop()!);
    expect(last.location.name).toBe('Kitchen');
    expect(last.score).toBe(10);
  });
});
