/**
 * What the engine's probe makes certain (the `probe` assist): a winning move, else the best
 * immediate score gain; the first of two moves that score (see twoMovesToPoints); and the pool of
 * options that neither kill the player, end the game without a win, lead where an earlier episode
 * died, nor cost points (each kind kept only when nothing else is left).
 */
import type { ActionOption } from '../schemas/game';
import { carriedIn, CellMemory, placeOf } from './cells';
import type { KnownChoice } from './policyContext';
import type { Rng } from './rng';

/**
 * The options that neither kill, end the game without a win, lead where an earlier episode died,
 * nor (with `avoidLosses`) lower the score, nor (with `avoidDoom`) lead to a death a few idle turns
 * later (see doom.ts) — each left out only while something else remains. A move that costs points
 * changes the score, so its world state is new every time: dragon's explorer typed "rescue" 98
 * turns in a row at 2 points each and ended at -198 of 25. A doomed move looks like any other new
 * place to the probe: Hitchhiker's explorer walked from the front of the house to the lane, where
 * the falling house kills, ending its one episode at turn 21.
 */
export function safePool(options: ActionOption[], memory: Pick<CellMemory, 'deadly' | 'avoidLosses' | 'avoidDoom'>): ActionOption[] {
  const alive = options.filter((o) => o.outcome !== 'died' && o.outcome !== 'ended');
  const lasting = memory.avoidDoom ? alive.filter((o) => o.diesWithin === undefined) : alive;
  // Where every move is doomed (idling kills here too), the warning tells them apart no more.
  const base = lasting.length ? lasting : alive;
  const safe = base.filter((o) => !memory.deadly.has(placeOf(o.resultCell)));
  const costless = memory.avoidLosses ? safe.filter((o) => o.scoreDelta >= 0) : safe;
  return costless.length ? costless : safe.length ? safe : base.length ? base : options;
}

export function probedMove(
  options: ActionOption[],
  rng: Rng,
  cells: Pick<CellMemory, 'deadly' | 'here' | 'avoidLosses' | 'avoidDoom' | 'refusesLosingWins'>,
): { pool: ActionOption[]; choice: KnownChoice | null } {
  // A win ends the episode: one that takes points (Night's dropped printer, -1 where the game's
  // own ending is worth 10) ends it below where it stands, so with `refusesLosingWins` it is no win.
  const won = options.find((o) => o.outcome === 'won' && (!cells.refusesLosingWins || o.scoreDelta >= 0));
  if (won) return { pool: options, choice: { command: won.command, reason: 'won', why: 'the probe shows it wins' } };
  const pool = safePool(options, cells);
  const scoring = pool.filter((o) => o.scoreDelta > 0);
  if (scoring.length === 0) return { pool, choice: null };
  const best = cheapestGains(scoring, cells.here);
  const choice = rng.pick(best);
  return { pool, choice: { command: choice.command, reason: 'reward', why: `the probe shows +${choice.scoreDelta} points` } };
}

/**
 * Where no move scores now, the first of two moves that score together (see lookAhead.ts), or of
 * the shortest longer way the search found where no two do (see searchAhead.ts), chosen
 * as scoring moves are (the most points per thing given up: Zork I's troll is passed as well by
 * attacking it as by giving it the sword); not one tried twice from here already (its follow-up
 * did not score after all). It comes after a learned path to a reward (see knownMove): an earlier
 * episode's path is over exact world states, and a two-move gain found another way leaves it.
 */
export function twoMovesToPoints(pool: ActionOption[], rng: Rng, here: string, fresh: (command: string) => boolean): KnownChoice | null {
  const leading = pool.filter((o) => o.ahead && o.scoreDelta >= 0 && fresh(o.command));
  if (leading.length === 0) return null;
  const choice = rng.pick(cheapestGains(leading, here, (o) => o.ahead!.scoreDelta));
  return {
    command: choice.command,
    reason: 'planned',
    why: `the probe shows +${choice.ahead!.scoreDelta} points in ${choice.ahead!.moves ?? 'two'} moves (then "${choice.ahead!.command}")`,
  };
}

/**
 * The scoring moves with the most points per thing given up (those that give up nothing first),
 * then the biggest gain. "put all in trophy case" scores what the treasures put in one by one
 * score, but also shuts the lit lamp away: Zork I's agent then walked down into the dark cellar
 * and was eaten, episode after episode. Put one by one, the lamp stays in hand.
 */
function cheapestGains(scoring: ActionOption[], here: string, points = (option: ActionOption) => option.scoreDelta): ActionOption[] {
  const carriedNow = carriedIn(here);
  const worth = (option: ActionOption) => {
    const givenUp = Math.max(0, carriedNow - carriedIn(option.resultCell));
    return givenUp === 0 ? Infinity : points(option) / givenUp;
  };
  const bestWorth = Math.max(...scoring.map(worth));
  const cheapest = scoring.filter((option) => worth(option) === bestWorth);
  const bestGain = Math.max(...cheapest.map(points));
  return cheapest.filter((option) => points(option) === bestGain);
}
