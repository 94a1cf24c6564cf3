/**
 * The ZVM (ifvms) internals grue touches. ZVM has no public API for its state, so this interface
 * is our contract with it: every field here is read or written by the session, its hooks or the
 * snapshot code, and a new ifvms release must keep them.
 */
import type { GlkWindow } from './glk';

export interface Zvm {
  prepare(data: Uint8Array, options: object): void;
  m: DataView;
  staticmem: number;
  pc: number;
  stack: DataView;
  frames: number[];
  frameptr: number;
  sp: number;
  s: Uint16Array;
  l: Uint16Array;
  read_data: { buffer?: number[]; bufaddr?: number; parseaddr?: number; routine?: number; storer?: number; time?: number };
  io: Record<string, unknown> & { streams: unknown[] };
  version3: boolean;
  statuswin: GlkWindow | null;
  quit?: number;
  glk_event: object;
  stop: number;
  jit: Record<number, (e: Zvm) => number | undefined>;
  mainwin: GlkWindow | null;
  upperwin: GlkWindow | null;
  undo: unknown[];
  undo_len: number;
  run(): void;
  compile(): void;
  ret(result: number): void;
  make_stacks(): void;
  decode(addr: number, length: number): string;
  random(range: number): number;
  update_header(): void;
  restart(autorestoring?: unknown): void;
  save_undo(pc: number, variable: number): number;
  /** Prints text to the current window (all game text passes here). */
  _print(text: string): void;
  erase_window(window: number): void;
  remove_obj(obj: number): void;
  get_parent(obj: number): number;
  /** Address of the object table, less the size of one entry (ZVM indexes entries from 1). */
  objects: number;
  split_window(lines: number): void;
  /** Applies the io fields' text style to Glk's current stream. */
  format(): void;
}

const { ZVM } = require('ifvms') as { ZVM: new () => Zvm };

export function createZvm(): Zvm {
  return new ZVM();
}

/**
 * ZVM's start() deletes a property of the VM (`delete this.data`), and V8 then keeps the object as
 * a dictionary: every `e.pc`, `e.m`, `e.sp` the compiled blocks read is a hash lookup. V8 gives an
 * object fast properties again when it becomes a prototype and a property is read through it, so
 * the VM is made one, once it has started. Measured on Jericho-suite states (2026-11-26, loaded
 * 2-core machine): a command costs 0.37 ms instead of 0.55 on Zork I, 2.0 instead of 3.6 on
 * detective, 12.7 instead of 19.1 on partyfoul.
 */
export function restoreFastProperties(vm: Zvm): void {
  const Heir = function () {} as unknown as new () => Zvm;
  Heir.prototype = vm;
  void new Heir().pc;
}
