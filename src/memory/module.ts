/**
 * A memory module: one folder under src/memory/ holding its state schema, when it is due, the
 * activity that does its LLM (or engine) work, a pure merge of that work's result, and how it
 * shows itself in the LLM's context. The turn pipeline runs every registered module the same
 * way, so adding one adds a folder, a line in `./index.ts` and its activity — never a change to
 * the episode loop.
 */
import type { z } from 'zod';
import type { EpisodeConfig } from '../schemas/episode';
import type { GroundTruthData } from '../schemas/game';

/** What a module sees of the turn that was just played (or of the episode's end). */
export interface TurnView {
  turn: number;
  /** The command just run, with the location and score before and after it (null before the first turn). */
  command: string | null;
  before: GroundTruthData | null;
  truth: GroundTruthData;
  observation: string;
  worldHash: string;
  /** The engine's snapshot of the game as it is now (where a module can replay something). */
  snapshot: string;
  storyMd5: string;
  /** The agent's current subgoal (or overall goal): what retrieval matches against besides the room. */
  goal: string;
  /** The episode is ending: a module's last chance to do its work (e.g. wisdom at episode end). */
  ending: boolean;
}

/**
 * The activities memory modules do their work in (src/activities registers one of each name; a
 * new module that needs its own adds its name here and the activity there).
 */
export type MemoryActivity = 'compact' | 'updateKnowledge' | 'verifyKnowledge' | 'synthesizeWisdom';

/** One piece of a module's work: the activity to run and its input. */
export interface ModuleWork<Request = unknown> {
  activity: MemoryActivity;
  request: Request;
}

export interface MemoryModule<State, Request = unknown, Result = unknown> {
  readonly name: string;
  readonly schema: z.ZodType<State>;
  /**
   * The state an episode starts with: `inherited` is what the previous episode of a campaign
   * left; settings come from this episode's config (a module that needs an LLM stays idle under a
   * policy without one).
   */
  initial(inherited: State | undefined, config: EpisodeConfig): State;
  /** Bookkeeping from what the engine observed this turn: pure, no LLM, every turn. */
  observe(state: State, view: TurnView): State;
  /**
   * Bookkeeping at maintenance time, before `due` (pure, no activity): e.g. a gate that decides
   * this turn's work is not worth doing and records why.
   */
  prepare?(state: State, view: TurnView): State;
  /** The activities that do this module's LLM or engine work (registered by the worker). */
  readonly activities: readonly MemoryActivity[];
  /**
   * The work due now, else null. Asked again after each result is applied, so one turn can run a
   * sequence (an update, then checks of what it learned); the workflow bounds the rounds.
   */
  due(state: State, view: TurnView): ModuleWork<Request> | null;
  /** Merge the activity's result into the state (pure; applying the same result twice changes nothing more). */
  apply(state: State, result: Result, view: TurnView, work: ModuleWork<Request>): State;
  /** The work failed after its retries: the module keeps its last good state and notes the failure, so it is not due again this turn. */
  failed?(state: State, view: TurnView, work: ModuleWork<Request>): State;
  /**
   * What the module adds to the turn's record (a transcript line): fields the turn record's schema
   * knows (src/agent/records.ts), for the turn just maintained; nothing for most turns.
   */
  record?(state: State, turn: number): Record<string, unknown>;
  /** Files this module's state is viewed as (name -> JSON value, or text for a name ending .md), written after each applied result. */
  files?(state: State): Record<string, unknown>;
  /** The whole state as text for a person (`grue memory`). */
  describe(state: State): string;
  /** Tokens of LLM context the module may use (default 150). */
  readonly contextTokens?: number;
  /** A section of the LLM's context, at most about `budgetTokens` long ('' for nothing to say). */
  render(state: State, view: TurnView, budgetTokens: number): string;
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type AnyMemoryModule = MemoryModule<any, any, any>;

/** Identity with type inference, so a module's three types are checked where it is written. */
export const defineMemoryModule = <State, Request = unknown, Result = unknown>(m: MemoryModule<State, Request, Result>) => m;
