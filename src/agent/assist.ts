/**
 * The assist level decided in one place. How much the engine tells the agent (see AssistSchema)
 * changes what the agent may choose from, what is certain without an oracle, where it returns
 * when a room is spent, how it explores, which moves the oracle may name and how its advice is
 * read, what a step teaches the room map, and what the engine's search hands over. Each level is
 * one object here; the policies, the selector and the turn pipeline ask it and never the level.
 *
 * - `probe`: every valid action with what it would do (world state, cell, score, death, victory).
 * - `valid`: Jericho's handicap, the valid commands without their outcomes.
 * - `none`: the player's view, no list: commands come from the game's reply.
 */
import type { ActionOption, Assist } from '../schemas/game';
import { actionWouldHelp, asCommand, matchAction, namesCommand } from './advice';
import { frontier, REACHES, TIER_REASONS, withoutStill } from './cells';
import { ExploreChoice, FALLBACK_COMMANDS, KnownChoice, MAX_TRIES, PolicyContext, timesTried } from './policyContext';
import { probedMove, twoMovesToPoints } from './probed';
import { accuracy, Reliability } from './reliability';
import { returnWithoutProbe, returnWithProbe } from './returns';
import { mappedByMoves, mappedByProbe } from './rooms';
import type { AgentState, StateSet } from './state';
import { nextUntried, playerCommands, safeCommands, withoutMenus } from './untried';
import { exploreTyped, mappedByTyping, returnTyped } from './typedExplore';
import { leastUsedVerbs } from './verbSpread';

/** The moves the oracle may name this turn, computed once and carried from the question to the answer. */
export interface AdviceChoices {
  /** Listed in the oracle's prompt and matched against its advice (empty: it types the command). */
  commands: string[];
  /** Why these moves (the novelty tier they open, with the probe), added to the advice's reason. */
  tierWhy: string | null;
}

export interface AssistStrategy {
  readonly level: Assist;
  /** What the engine's search hands the agent: outcomes per action, bare commands, or nothing (no search). */
  readonly shows: 'outcomes' | 'commands' | 'nothing';
  /** Earlier episodes' scoring is replayed by room (see placePlans.ts): where the list says which of a visit's commands can be made now. */
  readonly plansByPlace: boolean;
  /** The commands a policy may consider now. */
  candidates(ctx: PolicyContext): string[];
  /** What the probe makes certain (a win, a score), and the pool of safe options left to choose from. */
  certain(ctx: PolicyContext): { pool: ActionOption[]; choice: KnownChoice | null };
  /** Where nothing is certain and no learned path leads to points: the first of two moves that score (the probe's look-ahead). */
  aheadMove(ctx: PolicyContext, pool: ActionOption[]): KnownChoice | null;
  /** The commands a learned plan may start with here (null: any, as typed). */
  planStarts(ctx: PolicyContext, pool: ActionOption[]): ReadonlySet<string> | null;
  /** Go-Explore's return to an open room when the moves here are spent. */
  returnMove(ctx: PolicyContext, pool: ActionOption[]): KnownChoice | null;
  /** The move to try when nothing is certain. */
  explore(ctx: PolicyContext, pool: ActionOption[]): ExploreChoice;
  /** A move a reward remembered from earlier episodes may be replayed as. */
  replayable(ctx: PolicyContext, pool: ActionOption[]): (command: string) => boolean;
  /** With nothing to choose from, the move that is made without looking at advice (null: read the advice). */
  idleMove(ctx: PolicyContext, pool: ActionOption[]): { command: string; why: string } | null;
  /** The moves the oracle may name. */
  adviceChoices(ctx: PolicyContext, pool: ActionOption[]): AdviceChoices;
  /** The command a piece of advice names, among the choices (null: none). */
  matchAdvice(advice: string, choices: AdviceChoices, ctx: PolicyContext): string | null;
  /** No oracle call is worth making: nothing to choose between, or one move alone opens something new. */
  needsNoOracle(choices: AdviceChoices, thinkEveryTurn: boolean): boolean;
  /** The explorer has a move here that opens something up (a budgeted oracle is kept for when it has none). */
  explorerLeads(ctx: PolicyContext, pool: ActionOption[]): boolean;
  /** Whether advice besides the recommendation (a blocker's fix, alternatives) is taken. */
  trustsOtherAdvice(ctx: PolicyContext, reliability: Reliability): boolean;
  /** What the probe says advice would have done (null: nothing says). */
  judgeAdvice(advice: string, options: ActionOption[], visited: StateSet): boolean | null;
  /** Advice acted on counts as help only when it reached a place or item no episode had (see updater). */
  judgesHelpByFirsts(state: AgentState): boolean;
  /** The room map after a step from `before` to `now`. */
  mapRooms(now: AgentState, before: AgentState): AgentState;
}

const untriedHere = (ctx: PolicyContext) => (command: string) => timesTried(ctx.tried, ctx.worldHash, command) < MAX_TRIES;

const matchAmong = (advice: string, choices: AdviceChoices) =>
  matchAction(
    advice,
    choices.commands.map((command) => ({ command })),
  )?.command ?? null;

const oneOrNone = (choices: AdviceChoices, thinkEveryTurn: boolean) =>
  choices.commands.length === 0 || (choices.commands.length === 1 && !thinkEveryTurn);

/** Exploration without outcomes: a command not yet tried from this state (the least risky kind first), else any. */
function exploreUntried(candidates: string[], ctx: PolicyContext): ExploreChoice {
  if (candidates.length === 0) return { command: ctx.rng.pick(FALLBACK_COMMANDS), reason: 'fallback', why: 'no valid action found' };
  const next = nextUntried(candidates, ctx);
  if (next)
    return {
      command: ctx.rng.pick(next.commands),
      reason: 'untried',
      why: next.fight
        ? 'fighting back: the reply tells of an attack or an armed foe'
        : next.risky
          ? 'not yet tried here (only risky moves are left)'
          : next.spent
            ? 'not yet tried from this state (everything left was made here three times)'
            : next.menu
              ? 'not yet tried from this state (only a menu is left)'
              : 'not yet tried here',
    };
  return {
    command: ctx.rng.pick(withoutMenus(safeCommands(candidates, ctx), ctx)),
    reason: 'random',
    why: 'everything here has been tried',
  };
}

const probe: AssistStrategy = {
  level: 'probe',
  plansByPlace: false,
  shows: 'outcomes',
  candidates: (ctx) => ctx.options.map((o) => o.command),
  certain: (ctx) => probedMove(ctx.options, ctx.rng, ctx.cells),
  aheadMove: (ctx, pool) => (ctx.cells.looksAhead ? twoMovesToPoints(pool, ctx.rng, ctx.cells.here, untriedHere(ctx)) : null),
  planStarts: (_ctx, pool) => new Set(pool.map((o) => o.command)),
  returnMove: (ctx, pool) => returnWithProbe(pool, ctx),
  explore(ctx, pool) {
    const best = frontier(pool, { ...ctx.cells, visited: ctx.visited });
    if (best) {
      const uses = ctx.cells.verbUses;
      const tried = best.tier === 'seen' && ctx.cells.leavesStill ? withoutStill(best.options, ctx.worldHash) : best.options;
      const options = uses && !REACHES.has(best.tier) ? leastUsedVerbs(tried, uses) : tried;
      return {
        command: ctx.rng.pick(options).command,
        reason: best.tier === 'seen' || best.tier === 'menu' ? 'random' : 'novel',
        why: TIER_REASONS[best.tier],
      };
    }
    return { command: ctx.rng.pick(FALLBACK_COMMANDS), reason: 'fallback', why: 'no valid action found' };
  },
  replayable: (_ctx, pool) => (command) => pool.some((o) => o.command === command),
  idleMove: (ctx, pool) => (pool.length === 0 ? { command: ctx.rng.pick(['look', 'wait']), why: 'no valid action found' } : null),
  /** The options of the best novelty tier not retried too often: advice steers within what the probes say is most promising. */
  adviceChoices(ctx, pool) {
    const best = frontier(pool, { ...ctx.cells, visited: ctx.visited });
    const fresh = untriedHere(ctx);
    return {
      commands: (best?.options ?? []).filter((o) => fresh(o.command)).map((o) => o.command),
      tierWhy: best ? TIER_REASONS[best.tier] : null,
    };
  },
  matchAdvice: (advice, choices) => matchAmong(advice, choices),
  needsNoOracle: oneOrNone,
  explorerLeads(ctx, pool) {
    const best = frontier(pool, { ...ctx.cells, visited: ctx.visited });
    return best !== null && REACHES.has(best.tier);
  },
  trustsOtherAdvice: () => true,
  judgeAdvice: (advice, options, visited) => actionWouldHelp(advice, options, visited),
  judgesHelpByFirsts: () => false,
  mapRooms: (now, before) => (now.options.length === 0 && before.options.length === 0 ? now : mappedByProbe(now, before)),
};

const valid: AssistStrategy = {
  level: 'valid',
  plansByPlace: true,
  shows: 'commands',
  candidates: (ctx) => ctx.commands,
  certain: () => ({ pool: [], choice: null }),
  aheadMove: () => null,
  planStarts: (ctx) => new Set(ctx.commands),
  returnMove: (ctx) => returnWithoutProbe(ctx.commands, ctx),
  explore: (ctx) => exploreUntried(ctx.commands, ctx),
  replayable: (ctx) => (command) => ctx.commands.includes(command),
  idleMove: () => null,
  /** The untried commands of the least risky kind left, as the explorer would take them. */
  adviceChoices: (ctx) => ({ commands: nextUntried(ctx.commands, ctx)?.commands ?? [], tierWhy: null }),
  matchAdvice: (advice, choices) => matchAmong(advice, choices),
  needsNoOracle: oneOrNone,
  // Going places, taking and opening are the explorer's own strength; which of the other verbs to try on what is the oracle's.
  explorerLeads: (ctx) => nextUntried(ctx.commands, ctx)?.forward === true,
  /**
   * Nothing vets the oracle's other advice without the probe: it is taken as often as its
   * recommendation would be. Taken every time, the 270M model's alternatives walked Zork I's forest
   * and canyon turn after turn, however low its learned reliability had fallen.
   */
  trustsOtherAdvice: (ctx, reliability) => ctx.rng.next() < accuracy(reliability, 'recommendation'),
  judgeAdvice: () => null,
  // A list without outcomes: every untried move reaches a new state, so only firsts say advice helped.
  judgesHelpByFirsts: (state) => state.commands.length > 0,
  mapRooms: (now, before) => (before.commands.length > 0 ? mappedByMoves(now, before) : now),
};

/**
 * With the story's lexicon (see typed.ts) the commands are built from its grammar and the nouns
 * its replies name, in the order the prior learned across games; without one (a history recorded
 * before the lexicon existed), from the reply's words alone.
 */
const none: AssistStrategy = {
  level: 'none',
  plansByPlace: false,
  shows: 'nothing',
  candidates: (ctx) => (ctx.typed ? ctx.typed.map((c) => c.command) : playerCommands(ctx.observation)),
  certain: () => ({ pool: [], choice: null }),
  aheadMove: () => null,
  planStarts: () => null,
  returnMove: (ctx) => (ctx.typed ? returnTyped(ctx.typed, ctx, ctx.spentWorth ?? 0) : null),
  explore: (ctx) => (ctx.typed ? exploreTyped(ctx.typed, ctx) : exploreUntried(playerCommands(ctx.observation), ctx)),
  replayable: () => () => true,
  idleMove: () => null,
  adviceChoices: () => ({ commands: [], tierWhy: null }),
  /** Whatever the advice says, as a player would type it, if it is a command and not retried too often here. */
  matchAdvice(advice, _choices, ctx) {
    const command = asCommand(advice);
    if (command && ctx.typesOnlyCommands && !namesCommand(command)) return null;
    // A word the parser refused here, or did not know anywhere, is refused again: the explorer strikes it too.
    if (command && command.split(' ').some((word) => ctx.refusedWords?.has(word))) return null;
    return command && untriedHere(ctx)(command) ? command : null;
  },
  needsNoOracle: () => false,
  // The typed commands come in the order learned across games; only a stall says it has lost its way.
  explorerLeads: () => true,
  trustsOtherAdvice: () => true,
  judgeAdvice: () => null,
  judgesHelpByFirsts: () => false,
  mapRooms: (now, before) => (now.typing ? mappedByTyping(now, before) : now),
};

const STRATEGIES: Record<Assist, AssistStrategy> = { probe, valid, none };

export function assistFor(level: Assist): AssistStrategy {
  return STRATEGIES[level];
}
