/** `grue experiment` and `grue report` as a person runs them: bad input caught first (exit 2, `grue: …`), a tiny experiment end to end, its report. */
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GRUE, ROOT } from '../helpers';
import { tempDataDir } from '../platform/env';
import { ownServer } from '../platform/server';

function grue(args: string[], env: Record<string, string>) {
  const r = spawnSync(process.execPath, [GRUE, ...args], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 240_000,
    env: { ...process.env, ...env },
  });
  return { code: r.status, signal: r.signal, stdout: r.stdout, stderr: r.stderr };
}

describe('bad input fails before anything starts', () => {
  // An address that cannot be reached: if grue tried to connect first, the error would say so.
  const env = { TEMPORAL_ADDRESS: 'no-such-temporal-host.invalid:7233', GRUE_DATA_DIR: tempDataDir() };

  it.each([
    [['report', 'no-such-run'], /^grue: no results for "no-such-run" in .*: give the id of a finished campaign or experiment/m],
    [
      ['experiment', 'lighthouse', '--vary', 'telepathy'],
      /^grue: unknown factor "telepathy" in --vary: choose from thoughtbox, compaction, knowledge, model, assist/m,
    ],
    [['experiment', 'lighthouse', '--vary', 'model'], /^grue: --vary model needs the models to compare: --models a,b/m],
    [['experiment', 'lighthouse', '--vary', 'assist', '--models', 'a,b'], /^grue: --models is only used with --vary model/m],
    [['experiment', 'lighthouse', '--vary', 'assist', '--steps', '3', '--max-turns', '4'], /^grue: --steps 3 and --max-turns 4 disagree/m],
    [
      ['experiment', 'lighthouse', '--vary', 'assist', '--policy', 'telepathy'],
      /^grue: invalid experiment options: policy: Invalid option/m,
    ],
    [['experiment', 'no-such-game', '--vary', 'assist'], /Unknown game "no-such-game"/],
    [['experiment', 'lighthouse'], /required option '--vary <factors>' not specified/],
  ])('%j', (args, message) => {
    const r = grue(args as string[], env);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(message as RegExp);
    expect(r.stderr).not.toMatch(/Temporal server/);
  });
});

describe('grue experiment and grue report against a dev server', () => {
  let server: Awaited<ReturnType<typeof ownServer>>;
  let env: Record<string, string>;

  beforeAll(async () => {
    const dir = tempDataDir();
    server = await ownServer(dir);
    env = {
      TEMPORAL_ADDRESS: `127.0.0.1:${server.port}`,
      TEMPORAL_UI_PORT: String(server.uiPort),
      GRUE_DATA_DIR: dir,
      GRUE_TASK_QUEUE: `cli-experiment-${process.pid}`,
    };
  }, 120_000);

  afterAll(async () => {
    await server?.stop();
  });

  it(
    'runs every arm, prints the summary table, and grue report writes the report of it',
    () => {
      const id = `cli-experiment-${process.pid}`;
      const run = grue(
        [
          'experiment',
          'ferry',
          '--policy',
          'oracle-free',
          '--vary',
          'assist',
          '--episodes',
          '1',
          '--steps',
          '2',
          '--seed',
          '5',
          '--id',
          id,
        ],
        env,
      );
      expect(run.code).toBe(0);
      // The assist level matters to every policy, so no note that the factor changes nothing.
      expect(run.stderr).not.toMatch(/asks no LLM/);
      expect(run.stdout).toMatch(
        new RegExp(
          `experiment ${id}: 3 arms × 1 episodes × 2 turns \\(seeds 5\\.\\.5\\)\\n  1\\. baseline\\n  2\\. assist=valid\\n  3\\. assist=none`,
        ),
      );
      // The summary table: a heading row, then one row per arm with its assist level.
      expect(run.stdout).toMatch(
        /^arm\s+episodes\s+mean score\s+best score\s+wins\s+deaths\s+LLM calls\/turn\s+s\/turn\s+policy\s+assist\s+model/m,
      );
      expect(run.stdout).toMatch(/^assist=none\s+1\s+\S+\s+\S+\s+0\s+\d\s+0\.00\s+\d+\.\d\d\s+oracle-free\s+none\s+worker default/m);
      expect(run.stdout).toContain(`report: grue report ${id}`);
      const results = join(env.GRUE_DATA_DIR, 'experiments', id, 'results.json');
      expect(JSON.parse(readFileSync(results, 'utf8')).arms.map((a: { name: string }) => a.name)).toEqual([
        'baseline',
        'assist=valid',
        'assist=none',
      ]);

      const status = JSON.parse(grue(['status', id, '--json'], env).stdout);
      expect(status).toMatchObject({ type: 'experimentWorkflow', status: 'COMPLETED', searchAttributes: { GrueGame: 'ferry' } });
      expect(grue(['list'], env).stdout).toMatch(new RegExp(`${id}\\s+experimentWorkflow\\s+COMPLETED`));

      // The report needs only the files: no server address at all.
      const report = grue(['report', id], { ...env, TEMPORAL_ADDRESS: 'no-such-temporal-host.invalid:7233' });
      expect(report.code).toBe(0);
      const dir = join(env.GRUE_DATA_DIR, 'reports', id);
      expect(report.stdout).toContain(`report: ${join(dir, 'report.html')}`);
      for (const f of [
        'report.html',
        'report.md',
        'summary.json',
        'score-over-turns.svg',
        'score-over-turns.png',
        'best-score.png',
        'llm-calls-per-turn.png',
        'seconds-per-turn.png',
      ])
        expect(existsSync(join(dir, f))).toBe(true);
      expect(readFileSync(join(dir, 'report.md'), 'utf8')).toMatch(/\| assist=valid \| 1 \|.*\| oracle-free \| valid \|/);

      // A campaign's report says what it ran with, from the config its results.json records.
      const campaign = `cli-campaign-${process.pid}`;
      expect(
        grue(
          ['campaign', 'ferry', '--policy', 'oracle-free', '--episodes', '1', '--max-turns', '2', '--assist', 'valid', '--id', campaign],
          env,
        ).code,
      ).toBe(0);
      const campaignReport = grue(['report', campaign, '--out', join(env.GRUE_DATA_DIR, 'elsewhere')], env);
      expect(campaignReport.code).toBe(0);
      expect(readFileSync(join(env.GRUE_DATA_DIR, 'elsewhere', 'report.md'), 'utf8')).toMatch(
        /\| campaign \| 1 \|.*\| oracle-free \| valid \| worker default \|/,
      );
    },
    10 * 60_000,
  );
});
