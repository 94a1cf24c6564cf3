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
  seed: number;
  readData: { bufaddr?: number; parseaddr?: number; routine?: number; storer?: number; time?: number };
  io: Record<string, unknown>;
  input: InputState | null;
  flags: { done: boolean; victory: boolean; died: boolean; quit: boolean };
}
