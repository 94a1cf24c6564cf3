/**
 * What the experiments grue runs on a game (the ground-truth probe, the score search, the
 * vocabulary and the valid-action search) use of a session. GameSession provides it; the
 * experiments depend on this, not on the session, so the session can run them while it starts.
 */
import type { GameBinding } from './bindings';
import type { Dictionary } from './dictionary';
import type { ObjectTable } from './objects';
import type { StoryInfo } from './story';
import type { VmState } from './vmState';

export interface SessionView {
  readonly story: StoryInfo;
  /** The story's bytes and RAM as one array (a live view of VM memory). */
  readonly mem: Uint8Array;
  readonly objects: ObjectTable;
  readonly dictionary: Dictionary;
  readonly statusLine: string;
  captureState(): VmState;
  restoreState(state: VmState): void;
  /** Step without validation or ground truth; returns the raw response. */
  tryCommand(command: string): string;
  /**
   * A fresh session of the same story with its own binding and instruction budget, for experiments
   * that may leave it broken (the score search). Throws InstructionBudgetError when the budget is
   * too small to start the story.
   */
  scratch(options: { binding: GameBinding; blockBudget: number }): SessionView;
}
