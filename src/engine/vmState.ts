import type { RandomState } from './frotzRandom';

/** The in-memory state of a VM, as captureState() takes it and restoreState() puts it back. */

export interface InputState {
  type: 'line' | 'char';
  maxlen: number;
  upper: boolean;
}

/** Everything needed to put the VM back exactly where it was, held in memory. */
export interface VmState {
  ram: Uint8Array;
  stack: Uint8Array;
  frames: number[];
  frameptr: number;
  sp: number;
  pc: number;
  rng: RandomState;
  readData: { bufaddr?: number; parseaddr?: number; routine?: number; storer?: number; time?: number };
  io: Record<string, unknown>;
  input: InputState | null;
  /** `ended`: the game asked its final question (finalQuestion.ts); absent when it has not. */
  flags: { done: boolean; victory: boolean; died: boolean; quit: boolean; ended?: boolean };
  /** What the status line shows: the upper window's rows and height at the last input, and v3's status window. */
  screen: ScreenState;
}

export interface ScreenState {
  upper: string[];
  statusHeight: number;
  statusWindow: string[];
}
