/**
 * The CLI's answers to bad input: each must exit 2 with one `grue: …` line a person can act on,
 * and no stack trace.
 */
import { spawnSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..', '..');

export interface BadInputCase {
  name: string;
  args: string[];
  env?: Record<string, string>;
  /** What the message must say. */
  expect: RegExp;
}

export interface BadInputReport {
  tried: number;
  handled: number;
  failures: string[];
}

export function badInputCases(runningId: string, finishedId: string): BadInputCase[] {
  return [
    { name: 'empty --id', args: ['play', 'lighthouse', '--policy', 'oracle-free', '--id', ''], expect: /--id must not be empty/ },
    {
      name: '5,000-character --id',
      args: ['play', 'lighthouse', '--policy', 'oracle-free', '--id', 'x'.repeat(5000)],
      expect: /at most 200 characters, got 5000/,
    },
    {
      name: '--id with a control character',
      args: ['play', 'lighthouse', '--policy', 'oracle-free', '--id', 'a\u0007b'],
      expect: /control character/,
    },
    {
      name: 'the id of a running workflow',
      args: ['play', 'lighthouse', '--policy', 'oracle-free', '--id', runningId],
      expect: /in use by a running workflow/,
    },
    {
      name: 'the id of a finished workflow',
      args: ['play', 'lighthouse', '--policy', 'oracle-free', '--id', finishedId],
      expect: /was used by an earlier run/,
    },
    { name: 'status of an empty id', args: ['status', ''], expect: /must not be empty/ },
    {
      name: 'a bad TEMPORAL_UI_PORT',
      args: ['play', 'lighthouse', '--policy', 'oracle-free'],
      env: { TEMPORAL_UI_PORT: 'eighty' },
      expect: /invalid environment: TEMPORAL_UI_PORT="eighty"/,
    },
    { name: 'an unknown game', args: ['play', 'no-such-game', '--policy', 'oracle-free'], expect: /Unknown game "no-such-game"/ },
  ];
}

export function tryBadInputs(cases: BadInputCase[], env: Record<string, string>): BadInputReport {
  const failures: string[] = [];
  for (const test of cases) {
    const run = spawnSync(process.execPath, [join(ROOT, 'bin', 'grue.js'), ...test.args], {
      cwd: ROOT,
      encoding: 'utf8',
      timeout: 120_000,
      env: { ...process.env, ...env, ...test.env },
    });
    const problems = [
      run.status !== 2 ? `exit ${run.status ?? run.signal}, not 2` : null,
      !/^grue: /m.test(run.stderr) ? 'no "grue: " message' : null,
      !test.expect.test(run.stderr) ? `message does not match ${test.expect}` : null,
      /^\s+at /m.test(run.stderr) ? 'a stack trace' : null,
    ].filter((problem): problem is string => problem !== null);
    if (problems.length) failures.push(`${test.name}: ${problems.join(', ')}; stderr: ${run.stderr.trim().slice(0, 300)}`);
  }
  return { tried: cases.length, handled: cases.length - failures.length, failures };
}
