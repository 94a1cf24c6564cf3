/**
 * `grue suite` end to end on a dev server of the test's own: bad input refused before anything
 * starts; a suite whose CLI (and with it the worker) is killed mid-run and whose server is then
 * restarted completes, when the same command is run again, with per-game results identical to an
 * uninterrupted run's, and a server whose database is lost reads back the games that had finished;
 * a game whose story faults is reported failed while the others finish.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { suiteGameResultsPath, suiteResultsPath } from '../../src/activities/suiteFiles';
import { SuiteFileSchema } from '../../src/schemas/jerichoSuite';
import { SuiteGameResultSchema } from '../../src/schemas/suite';
import { grueProcess } from '../cli/grueProcess';
import { syntheticStory } from '../engine/syntheticStory';
import { describeWithSuite } from '../helpers';
import { tempDataDir, uniqueQueue } from './env';
import { ownServer } from './server';

jest.setTimeout(20 * 60_000);

const GAMES = ['905', 'zork1', 'detective'];
const FAULTY = 'faulty';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** A suite folder: three Jericho games (by absolute path) and a story that loads but faults on its first instruction. */
function suiteFolder(jericho: string): string {
  const dir = tempDataDir();
  const all = SuiteFileSchema.parse(JSON.parse(readFileSync(join(jericho, 'suite.json'), 'utf8')));
  const games = GAMES.map((name) => all.find((g) => g.game === name)!).map((g) => ({ ...g, file: join(jericho, g.file) }));
  const story = syntheticStory();
  story[0x500] = 0x00; // the initial pc (header word 6): no Z-machine instruction
  writeFileSync(join(dir, 'faulty.z3'), story);
  const faulty = { game: FAULTY, file: 'faulty.z3', zversion: 3, seed: 0, maxScore: 10, walkthroughScore: null };
  writeFileSync(join(dir, 'suite.json'), JSON.stringify([...games, faulty]));
  return dir;
}

/** One `grue: …` line and exit status 2. */
function expectUsageError(run: { code: number | null; stderr: string }, message: RegExp): void {
  expect(run.code).toBe(2);
  expect(run.stderr.trim().split('\n')).toHaveLength(1);
  expect(run.stderr).toMatch(/^grue: /);
  expect(run.stderr).toMatch(message);
}

describeWithSuite('grue suite', (jericho) => {
  describe('bad input: one grue: line, exit 2, nothing started', () => {
    // An address that cannot be reached: if grue tried to connect first, the error would say so.
    const env = { TEMPORAL_ADDRESS: 'no-such-temporal-host.invalid:7233' };

    it('an unknown game name', async () => {
      expectUsageError(await grueProcess(['suite', jericho, '--games', 'zork1,zork9'], env), /no game named "zork9" in .*suite\.json/);
    });

    it('a folder without suite.json', async () => {
      expectUsageError(await grueProcess(['suite', tempDataDir()], env), /no suite\.json in /);
    });

    it('a story file that does not load', async () => {
      const dir = tempDataDir();
      writeFileSync(join(dir, 'notes.z5'), 'not a story at all, just text long enough to have a header of sixty-four bytes or more.');
      const entry = { game: 'notes', file: 'notes.z5', zversion: 5, seed: 0, maxScore: 1, walkthroughScore: null };
      writeFileSync(join(dir, 'suite.json'), JSON.stringify([entry]));
      expectUsageError(await grueProcess(['suite', dir], env), /game notes \(.*notes\.z5\) does not load/);
    });
  });

  it('killed mid-run (CLI, worker), then the server: the same command attaches; the results are an uninterrupted run’s', async () => {
    const dir = suiteFolder(jericho);
    const serverDir = tempDataDir();
    let server = await ownServer(serverDir);
    const dataDir = tempDataDir();
    mkdirSync(dataDir, { recursive: true });
    const env = {
      TEMPORAL_ADDRESS: `127.0.0.1:${server.port}`,
      TEMPORAL_UI_PORT: String(server.uiPort),
      GRUE_DATA_DIR: dataDir,
      GRUE_TASK_QUEUE: uniqueQueue('suite'),
    };
    const args = ['suite', dir, '--steps', '25', '--policy', 'oracle-free', '--assist', 'none', '--parallel', '2'];
    const gameLine = (game: string, state: string) => new RegExp(`^  ${game} +${state}`, 'm');
    try {
      const reference = await grueProcess([...args, '--id', 'reference-suite'], env, 600_000);
      // (The worker warns on stderr that the faulty game's workflows failed: that is the game's line below, not the suite's.)
      expect(reference.stderr).not.toMatch(/^grue: /m);
      expect(reference.code).toBe(0);
      for (const game of GAMES) expect(reference.stdout).toMatch(gameLine(game, 'done'));
      expect(reference.stdout).toMatch(gameLine(FAULTY, 'failed +.*Z-machine stopped'));

      // --id naming that run from a command with other games: refused, not followed (nor reported as this command's).
      expectUsageError(
        await grueProcess([...args, '--games', GAMES[0], '--id', 'reference-suite'], env, 60_000),
        /suite "reference-suite" was started by another command \(it plays 4 games, this command 1; only in it: /,
      );

      // The same command without --id: killed (SIGKILL, its in-process worker with it) when the first game is done.
      const killed = await grueProcess(args, env, 600_000, { until: gameLine('\\w+', 'done'), graceMs: 0 });
      expect(killed.lingered).toBe(true);
      const suiteId = /^suite ([^\s:]+)/.exec(killed.stdout)![1];
      const unfinished = GAMES.filter((game) => {
        try {
          readFileSync(suiteGameResultsPath(dataDir, suiteId, game));
          return false;
        } catch {
          return true;
        }
      });
      // Killed mid-run: some game had no results yet.
      expect(unfinished.length).toBeGreaterThan(0);

      await server.stop();
      await sleep(2000);
      server = await ownServer(serverDir, server.port, server.uiPort);

      const resumed = await grueProcess(args, env, 600_000);
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain(`suite ${suiteId} (already started: following it)`);
      for (const game of [...GAMES, FAULTY]) expect(resumed.stdout).toMatch(gameLine(game, '(done|failed)'));
      expect(JSON.parse(readFileSync(suiteResultsPath(dataDir, suiteId), 'utf8')).summary).toMatchObject({ games: 4, played: 3 });

      const decided = (id: string, game: string) => {
        const {
          suiteId: _s,
          campaignId: _c,
          seconds: _t,
          ...rest
        } = SuiteGameResultSchema.parse(JSON.parse(readFileSync(suiteGameResultsPath(dataDir, id, game), 'utf8')));
        return rest;
      };
      for (const game of [...GAMES, FAULTY]) expect(decided(suiteId, game)).toEqual(decided('reference-suite', game));
      expect(decided(suiteId, FAULTY)).toMatchObject({ status: 'failed', error: expect.stringMatching(/Z-machine stopped/) });
      expect(decided(suiteId, 'zork1').steps).toBe(25);

      // The server's database lost (a new, empty one): the same command reads back the games that finished and plays the failed one again.
      await server.stop();
      server = await ownServer(tempDataDir());
      const freshEnv = { ...env, TEMPORAL_ADDRESS: `127.0.0.1:${server.port}`, TEMPORAL_UI_PORT: String(server.uiPort) };
      const again = await grueProcess(args, freshEnv, 600_000);
      expect(again.code).toBe(0);
      expect(again.stdout).not.toContain('already started');
      for (const game of GAMES) expect(again.stdout).toMatch(gameLine(game, 'done .*finished by an earlier run'));
      expect(again.stdout).toMatch(gameLine(FAULTY, 'failed +.*Z-machine stopped'));
      const summary = JSON.parse(readFileSync(suiteResultsPath(dataDir, suiteId), 'utf8')).summary;
      expect(summary).toMatchObject({ games: 4, played: 3, reusedGames: GAMES });
      for (const game of [...GAMES, FAULTY]) expect(decided(suiteId, game)).toEqual(decided('reference-suite', game));
    } finally {
      await server.stop();
    }
  });
});
