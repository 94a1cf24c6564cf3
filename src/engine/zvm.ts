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

/**
 * V8 keeps an object as a slow dictionary (every `e.pc`, `e.m`, `e.sp` of the compiled Z-code a
 * hash lookup) once it has lost a property or gained more than a dozen through keyed stores, and
 * ZVM does both: start() deletes `this.data`, and restart() adds twenty fields with utils.extend,
 * a `for ... in` copy. So the prototype gets an accessor for `data` (the story is kept beside the
 * VM, and the delete removes nothing), and the fields restart() sets are declared first by plain
 * named stores, so extend only overwrites them. The VM then keeps fast properties and monomorphic
 * inline caches. (Making it a prototype restores fast properties too, but V8 does not cache
 * stores to prototypes, so every `e.pc=` of the compiled Z-code became a generic store.)
 */
const storyData = new WeakMap<object, unknown>();
const ZvmWithoutOwnData = Object.create((ZVM as unknown as { prototype: object }).prototype, {
  data: {
    get(this: object) {
      return storyData.get(this);
    },
    set(this: object, value: unknown) {
      storyData.set(this, value);
    },
  },
}) as object;

/** The fields ZVM's restart() (zvm/runtime.js) sets through utils.extend. */
const RESTART_FIELDS = [
  'stack',
  'frameptr',
  'frames',
  's',
  'sp',
  'l',
  'undo',
  'undo_len',
  'glk_blocking_call',
  'version',
  'version3',
  'pc',
  'properties',
  'objects',
  'globals',
  'eof',
  'extension',
  'extension_count',
  'addr_multipler',
  'opcodes',
];
// Named stores (`vm.pc=...`) are what V8 allows many of; a loop over names would be keyed again.
const declareRestartFields = new Function('vm', RESTART_FIELDS.map((field) => `vm.${field}=undefined;`).join('')) as (vm: Zvm) => void;

export function createZvm(): Zvm {
  const vm = new ZVM();
  Object.setPrototypeOf(vm, ZvmWithoutOwnData);
  declareRestartFields(vm);
  return vm;
}
