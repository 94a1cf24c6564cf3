/**
 * The hard-turn puzzle states of bench/puzzle-states.json, and how a labelled state is replayed:
 * shared with eval/oracle.ts, whose states have the same game/prefix/useful shape.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { z } from 'zod';
import { diffKey, findValidActions, GameSession, resolveStory, ValidAction, WorldDiff, worldDiff } from '../src/engine';

const ROOT = resolve(__dirname, '..');

/** What eval/oracle-states.json labels: a state reached by replaying `prefix`, and the commands that make progress from it. */
export const LabelledStateSchema = z.object({
  /** A path relative to the repository root (../shared/games/zork1.z3) or a name resolveStory knows (lighthouse). */
  game: z.string().min(1),
  prefix: z.array(z.string()),
  useful: z.array(z.string().min(1)).min(1),
});
export type LabelledState = z.infer<typeof LabelledStateSchema>;

export const PuzzleStateSchema = LabelledStateSchema.extend({
  name: z.string().regex(/^[a-z0-9-]+$/),
  kind: z.string().min(1),
  /** The tempting moves that fail or kill here: what an agent that does not think would try. */
  naive: z.array(z.string().min(1)).min(1),
  note: z.string().min(1),
});
export type PuzzleState = z.infer<typeof PuzzleStateSchema>;

export const PuzzleStatesSchema = z.object({ description: z.string(), states: z.array(PuzzleStateSchema).min(1) });
export type PuzzleStates = z.infer<typeof PuzzleStatesSchema>;

export const PUZZLE_STATES_FILE = join(__dirname, 'puzzle-states.json');

export function loadPuzzleStates(file = PUZZLE_STATES_FILE): PuzzleStates {
  return PuzzleStatesSchema.parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** The story file a state names, or null when it is absent (../shared/games is not beside every clone). */
export function storyFor(game: string): string | null {
  const path = resolve(ROOT, game);
  if (existsSync(path)) return path;
  try {
    return resolveStory(game);
  } catch {
    return null;
  }
}

/** A world effect as a string: equal strings mean the same objects moved, the same attributes changed and the same score change. */
export const effectKey = (diff: WorldDiff, scoreDelta: number): string => `${diffKey(diff)}#${scoreDelta}`;
export const NO_EFFECT = effectKey({ moved: [], attributesSet: [], attributesCleared: [] }, 0);
export const actionEffect = (v: ValidAction): string => effectKey(v.diff, v.scoreDelta);

/** The world effect of `command` from the session's current state; the session is left where it was. */
export function effect(session: GameSession, command: string): string {
  const state = session.captureState();
  const before = session.worldState();
  try {
    session.tryCommand(command);
    const after = session.worldState();
    return effectKey(worldDiff(before, after), after.score - before.score);
  } finally {
    session.restoreState(state);
  }
}

export interface PreparedPuzzle {
  /** A session standing at the state; callers that step it can come back with restore(snapshot). */
  session: GameSession;
  snapshot: Uint8Array;
  /** What the game printed last: the reply to the prefix's last command, or the intro. */
  observation: string;
  lastAction: string | null;
  validActions: ValidAction[];
  /** The effect of each labelled useful command. */
  usefulEffects: Set<string>;
  /** The valid actions whose effect is one of the useful commands'. */
  usefulCommands: Set<string>;
}

/** Replay a labelled state's prefix (seed 1, as every labelled set is recorded) and work out what counts as solving it. */
export function preparePuzzle(state: LabelledState): PreparedPuzzle {
  const path = storyFor(state.game);
  if (!path) throw new Error(`${state.game} is not available (see ../shared/games/README.md)`);
  const session = GameSession.fromFile(path, { seed: 1 });
  let observation = session.intro;
  for (const command of state.prefix) {
    observation = session.step(command).observation;
    if (session.isDone) throw new Error(`${state.game}: the game ended at "${command}" of the prefix`);
  }
  const validActions = findValidActions(session);
  const usefulEffects = new Set(state.useful.map((u) => effect(session, u)));
  const usefulCommands = new Set(validActions.filter((v) => usefulEffects.has(actionEffect(v))).map((v) => v.command));
  return {
    session,
    snapshot: session.snapshot(),
    observation,
    lastAction: state.prefix.at(-1) ?? null,
    validActions,
    usefulEffects,
    usefulCommands,
  };
}
