/**
 * What every policy decides from, and the shapes of its choices: the state's valid actions (as
 * much of them as the assist level shows), what this episode and earlier ones remember, and the
 * seeded RNG. Also the bookkeeping of how often a move was tried from a state.
 */
import type { EpisodeConfig } from '../schemas/episode';
import type { ActionOption, Assist } from '../schemas/game';
import type { CellMemory } from './cells';
import { shortState } from './dynamics';
import type { LearnedState } from './learned';
import type { Rng } from './rng';
import { AgentState, StateSet } from './state';
import { carriedNames } from './spent';
import { cellMemory, perilous, readingOf } from './cellMemory';
import { visitedSet } from './remember';
import { TypedCommand, typedCommands, typedContext } from './typed';
import { Typing } from './typing';

/** A room whose best untried typed command is worth less than this share of the mean shape is spent. */
export const SPENT_SHARE = 0.5;

/** Room id -> command -> the room it led to, as the probe (or the move itself) last showed it from there. */
export type Exits = Record<string, Record<string, number>>;

export interface RoomMemory {
  here: number;
  exits: Exits;
  open: ReadonlySet<number>;
}

export interface PolicyContext {
  assist: Assist;
  /** The probed valid actions (`probe`). */
  options: ActionOption[];
  /** The valid commands without outcomes (`valid`). */
  commands: string[];
  /** The game's last reply: under `none`, where a player finds what to type. */
  observation: string;
  worldHash: string;
  /** World states this episode has already been in. */
  visited: StateSet;
  /** Cells this episode and earlier ones reached, and where earlier ones died. */
  cells: CellMemory;
  learned: LearnedState;
  rng: Rng;
  /**
   * Times each state-action was taken this episode (keys from `triedKey`): a plan or a piece of
   * advice that keeps not working from one state is given up after MAX_TRIES.
   */
  tried: Readonly<Record<string, number>>;
  /** The rooms this episode mapped, and those it left with moves untried (see rooms.ts). */
  rooms?: RoomMemory;
  /** Under `none` with the story's lexicon: the commands a player would type here, most promising first (see typed.ts). */
  typed?: TypedCommand[];
  /** Under `none`: the worth below which a typed command does not keep its room open (see typedExplore.ts). */
  spentWorth?: number;
  /** Under `valid`: what the last command made possible, tried first among untried commands of one kind (see nextUntried). */
  enabled?: ReadonlySet<string>;
  /** Under `none`: advice is typed only when it is a command, not a placeholder or punctuation (see namesCommand); set from its patch. */
  typesOnlyCommands?: boolean;
  /** Under `none`, with typesOnlyCommands: words the parser refused here or did not know at all (advice naming one is not typed). */
  refusedWords?: ReadonlySet<string>;
}

export interface PolicyChoice {
  command: string;
  reason: 'won' | 'reward' | 'planned' | 'return' | 'remembered' | 'novel' | 'untried' | 'random' | 'fallback';
  /** Why, in a few words a person reads in the transcript and the progress line. */
  why: string;
}

/** What the probes or the agent's own experience make certain: no oracle is needed for it. */
export type KnownChoice = PolicyChoice & { reason: 'won' | 'reward' | 'planned' | 'return' };

/** What the agent tries when nothing is certain. */
export type ExploreChoice = PolicyChoice & { reason: 'novel' | 'untried' | 'random' | 'fallback' };

/** How often a planned or recommended step may be retried from the same state in one episode. */
export const MAX_TRIES = 2;
/** Walking back through known corridors repeats steps by design, so a return may retry more. */
export const MAX_RETURN_TRIES = 6;

export const triedKey = (worldHash: string, command: string) => `${shortState(worldHash)}|${command}`;

export const timesTried = (tried: Readonly<Record<string, number>>, worldHash: string, command: string) =>
  tried[triedKey(worldHash, command)] ?? 0;

/** When the engine finds nothing that changes the world, let time pass and look again. */
export const FALLBACK_COMMANDS = ['wait', 'look'];

export const steps = (count: number) => `${count} step${count === 1 ? '' : 's'}`;

/** What the policies see of the agent's state this turn. */
export function policyContextOf(state: AgentState, config: EpisodeConfig, rng: Rng): PolicyContext {
  const cells = cellMemory(state);
  return {
    assist: config.assist,
    options: state.options,
    commands: state.commands,
    observation: state.observation,
    worldHash: state.worldHash,
    visited: visitedSet(state),
    cells,
    learned: state.learned,
    rng,
    tried: state.tried,
    rooms: { here: state.truth.location.id, exits: state.exits, open: new Set(state.open.filter((room) => !perilous(state, room))) },
    ...(state.followsUp && state.enabled.length ? { enabled: new Set(state.enabled) } : {}),
    ...(state.typesOnlyCommands ? { typesOnlyCommands: true } : {}),
    // Only `none` starts with the story's lexicon (the game activity hands it over when the level shows nothing).
    ...(state.typing ? typedPart(state, state.typing, cells) : {}),
  };
}

/** Under `none`: the typed commands, the worth that keeps a room open, and (patched) the words the parser refused here. */
function typedPart(state: AgentState, typing: Typing, cells: CellMemory): Pick<PolicyContext, 'typed' | 'spentWorth' | 'refusedWords'> {
  const here = typedContext(
    typing,
    state.nouns,
    state.truth.location.id,
    carriedNames(state),
    readingOf(state, state.truth.location.id, cells.doneHere),
  );
  return {
    typed: typedCommands(here),
    spentWorth: typing.unknownWorth * SPENT_SHARE,
    ...(state.typesOnlyCommands ? { refusedWords: here.refused } : {}),
  };
}
