/**
 * npm run bench:scoring -- [--suite DIR] [--games all|a,b] [--first K] [--out FILE]
 *
 * Does the valid-action search offer the moves that score? For each game of a suite folder (its
 * suite.json), the walkthrough is played with the game's seed after its reset commands; at the
 * state before each of its first K scoring steps (K = 3 by default; a step that ends the game is
 * left out), the search runs with the previous reply (as a turn runs it) and counts as having
 * found the move when one of its actions leaves the same world or scores the same points. A move
 * the search never offers is a move no explorer at `probe` or `valid` can make.
 *
 * Prints JSON: per game the scoring steps looked at and the misses (step, command, points), and
 * `{games, scoringSteps, found, share}` over the suite. The walkthrough is read here only to pick
 * the states; the agent never reads it.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { findValidActions, GameSession } from '../src/engine';
import { arg } from './cli';
import { readSuite } from './explore';
import type { SuiteGame } from '../src/schemas/jerichoSuite';

interface Miss {
  step: number;
  command: string;
  points: number;
  actions: number;
}

interface GameResult {
  game: string;
  scoringSteps: number;
  found: number;
  misses: Miss[];
  fault?: string;
}

const progress = (message: string) => process.stderr.write(`bench:scoring ${message}\n`);

function scoringMoves(suiteDir: string, entry: SuiteGame, first: number): GameResult {
  const result: GameResult = { game: entry.game, scoringSteps: 0, found: 0, misses: [] };
  const walkthrough = entry.walkthrough ?? [];
  try {
    const session = GameSession.fromFile(join(suiteDir, entry.file), { seed: entry.seed ?? 0 });
    let reply = session.intro;
    for (const command of entry.resetCommands) reply = session.step(command).observation;
    for (let i = 0; i < walkthrough.length && result.scoringSteps < first && !session.isDone; i++) {
      const before = session.captureState();
      const score = session.score;
      session.tryCommand(walkthrough[i]);
      const points = session.score - score;
      const scored = points > 0 && !session.isDone;
      const world = session.worldHash();
      session.restoreState(before);
      if (scored) {
        result.scoringSteps++;
        const actions = findValidActions(session, undefined, { reply });
        if (actions.some((a) => a.resultHash === world || a.scoreDelta === points)) result.found++;
        else result.misses.push({ step: i, command: walkthrough[i], points, actions: actions.length });
      }
      reply = session.step(walkthrough[i]).observation;
    }
  } catch (err) {
    result.fault = (err as Error).message;
  }
  return result;
}

function main(): void {
  const suiteDir = resolve(arg('suite', join('..', 'shared', 'jericho')));
  const only = arg('games', 'all');
  const first = Number(arg('first', '3'));
  const out = arg('out', '');
  const entries = readSuite(suiteDir).filter((e) => only === 'all' || only.split(',').includes(e.game));
  const games: GameResult[] = [];
  for (const entry of entries) {
    const game = scoringMoves(suiteDir, entry, first);
    progress(
      `${game.game}: ${game.found}/${game.scoringSteps}${game.misses.length ? ` missed ${game.misses.map((m) => `"${m.command}"`).join(', ')}` : ''}`,
    );
    games.push(game);
  }
  const scoringSteps = games.reduce((n, g) => n + g.scoringSteps, 0);
  const found = games.reduce((n, g) => n + g.found, 0);
  const report = {
    suite: suiteDir,
    first,
    games,
    summary: { games: games.length, scoringSteps, found, share: scoringSteps ? Number((found / scoringSteps).toFixed(3)) : 0 },
  };
  const json = JSON.stringify(report, null, 1);
  if (out) writeFileSync(out, `${json}\n`);
  process.stdout.write(`${json}\n`);
}

main();
