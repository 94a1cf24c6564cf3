/**
 * A valid action and how single tries of candidates are grouped into them: candidates with equal
 * effects (see candidateProber in validActions.ts) form one group, led by the earliest candidate.
 * Shared by the serial search and the probe threads.
 */
import type { WorldDiff } from './objects';

export interface ValidAction {
  command: string;
  /** Other candidates that had exactly the same effect. */
  equivalents: string[];
  diff: WorldDiff;
  scoreDelta: number;
  endsGame: boolean;
  /** World hash after the command. */
  resultHash: string;
  outcome: 'continue' | 'died' | 'won' | 'ended';
  /** The Go-Explore cell the command leads to (see cellOf). */
  resultCell: string;
  /** A scene's move (see findSceneActions): its resultHash also covers the globals it set. */
  scene?: true;
  /**
   * Equal for commands with the same effect: the net change, the object operations that made it
   * (see objectOps.ts), the score change and whether the game ended.
   */
  effect: string;
  /**
   * The command moved things or set attributes and left the world as it was (Jericho counts such
   * a command, e.g. "push the key to the chest" with the key in the chest). Listed after the
   * commands that change something.
   */
  noNetChange?: true;
  /**
   * The command lets a turn pass and changes nothing else: "wait" where a clock runs (the game's
   * daemons run their operations). Offered as "wait", among the commands that change nothing.
   */
  passesTime?: true;
}

/** One candidate that changed the world, with its place in the candidate list. */
export interface ProbeHit {
  index: number;
  /** Equal keys mean equal effects. */
  key: string;
  action: ValidAction;
  /** The objects the command's operations moved, each once, those put back where they were too. */
  moved: number[];
  /** The object of each of the command's operations (moves, then attributes set, then cleared), as often as each is operated on. */
  touched: number[];
}

/** Tries one candidate from the prober's start state: its hit, or null when it changed nothing. */
export type Prober = (command: string, index: number) => ProbeHit | null;

/** Hits grouped by effect, each group led by its earliest candidate; the order does not depend on how the hits were found. */
export function groupHits(hits: ProbeHit[]): Map<string, ValidAction> {
  const groups = new Map<string, ValidAction>();
  for (const hit of [...hits].sort((a, b) => a.index - b.index)) {
    const group = groups.get(hit.key);
    if (group) group.equivalents.push(hit.action.command);
    else groups.set(hit.key, { ...hit.action, equivalents: [] });
  }
  return groups;
}
