/**
 * The few ZVM methods whose behaviour must differ for a research harness, wrapped in place:
 * a bounded run loop, a pinned random number generator, no in-VM undo, and @quit recorded
 * rather than shutting Glk down. Each hook says why it exists.
 */
import { fasterDictionaryLookup } from './dictionaryLookup';
import { InstructionBudgetError } from './errors';
import { fasterTableCopy } from './tableCopy';
import { writeFrotzHeader } from './frotzHeader';
import type { FrotzRandom } from './frotzRandom';
import type { GlkApi } from './glk';
import type { Zvm } from './zvm';
import { applyZvmPatches } from './zvmPatches';
import type { CompiledBlock } from './superblocks';

/** What the hooks need from the session that owns the VM. */
export interface VmHost {
  readonly blockBudget: number;
  /** The story file as loaded: frotz's header starts from the story's own header bytes. */
  readonly storyBytes: Uint8Array;
  /** The game's random number generator (frotz's, seeded by the session). */
  readonly random: FrotzRandom;
  /** The run loop stopped on an error (thrown later, outside ZVM's callbacks). */
  onFault(err: unknown): void;
  /** The game executed @quit. */
  onQuit(): void;
}

export function installVmHooks(vm: Zvm, glk: GlkApi, host: VmHost): void {
  applyZvmPatches(vm);
  // The header as frotz in Jericho declares it, after every header update ZVM makes (start, restart).
  const originalUpdateHeader = vm.update_header;
  vm.update_header = function (this: Zvm) {
    originalUpdateHeader.call(this);
    writeFrotzHeader(this.m, host.storyBytes);
  };
  // frotz's generator instead of ZVM's xorshift (which falls back to Math.random); a restart reseeds it as frotz's does.
  vm.random = (range: number) => host.random.random(range);
  const originalRestart = vm.restart;
  vm.restart = function (this: Zvm, autorestoring?: unknown) {
    host.random.restart();
    originalRestart.call(this, autorestoring);
  };
  reuseStackViews(vm);
  fasterDictionaryLookup(vm);
  fasterTableCopy(vm);
  // UNDO is off: snapshots are the harness's undo, and an in-VM undo history would make a
  // restored game behave differently from the original (the history is not in the snapshot).
  vm.save_undo = () => -1;
  // @quit would shut Glk down for good; record it instead so a restore can bring the game back.
  glk.glk_exit = () => host.onQuit();
  boundedRunLoop(vm, host);
}

/**
 * ZVM rebuilds two typed-array views of the stack on every call and return; the views only
 * depend on the frame's offset and local count, so reuse them (a measurable share of run time).
 * Kept per frame offset and per local count: one depth is reached by routines of different counts,
 * often in turn (Inform's parser), and keeping one pair per offset rebuilt them at 13% of
 * Temple's search time.
 *
 * A frame that does not fit is a stack overflow, said as such: it read "RangeError: Invalid typed
 * array length". Night at the Computer Center's "go door" puts the player in the compass, where
 * "drop flashlight" recurses without end; frotz stops there too (its ERR_STK_OVF).
 */
function reuseStackViews(vm: Zvm): void {
  interface StackViews {
    l: Uint16Array;
    s: Uint16Array;
  }
  // By frame offset, then by local count (0-15).
  let views: Array<Array<StackViews | undefined> | undefined> = [];
  let viewsOf: Zvm['stack'] | null = null;
  let stackBytes: Uint8Array = new Uint8Array(0);
  vm.make_stacks = function (this: Zvm) {
    const stack = this.stack;
    if (viewsOf !== stack) {
      // A restart allocates a new stack.
      views = new Array(stack.byteLength).fill(undefined);
      viewsOf = stack;
      stackBytes = new Uint8Array(stack.buffer, stack.byteOffset, stack.byteLength);
    }
    const frameptr = this.frameptr;
    const locals = stackBytes[frameptr + 3] & 0x0f;
    if (frameptr + 8 + locals * 2 > stack.byteLength) {
      throw new Error(`stack overflow: the story's calls nest deeper than its ${stack.byteLength}-byte stack holds`);
    }
    let byCount = views[frameptr];
    if (byCount === undefined) {
      byCount = new Array(16).fill(undefined);
      views[frameptr] = byCount;
    }
    let v = byCount[locals];
    if (v === undefined) {
      v = {
        l: new Uint16Array(stack.buffer, stack.byteOffset + frameptr + 8, locals),
        s: new Uint16Array(stack.buffer, stack.byteOffset + frameptr + 8 + locals * 2),
      };
      byCount[locals] = v;
    }
    this.l = v.l;
    this.s = v.s;
  };
}

/**
 * Bounded run loop: a game that never asks for input is stopped, not waited on forever. The
 * budget counts blocks run, here and at each jump inside a superblock (./superblocks), so it
 * lives on the VM. Compiled blocks are also kept in an array indexed by address: ZVM's own cache
 * is a plain object, which V8 stores as a slow dictionary once it holds thousands of entries, and
 * the run loop looks a block up at every call and return.
 */
function boundedRunLoop(vm: Zvm, host: VmHost): void {
  let blocks: Array<CompiledBlock | undefined> = [];
  let blocksOf: ArrayBufferLike | null = null;
  const budgeted = vm as Zvm & { budget: number };
  // Set before the story starts, like every other property of the VM (see createZvm).
  budgeted.budget = host.blockBudget;
  vm.run = function (this: Zvm & { budget: number }) {
    if (blocksOf !== this.m.buffer) {
      blocks = new Array(this.m.byteLength).fill(undefined);
      blocksOf = this.m.buffer;
    }
    this.budget = host.blockBudget;
    this.stop = 0;
    try {
      while (!this.stop) {
        if (--this.budget < 0) throw new InstructionBudgetError(host.blockBudget);
        const pc = this.pc;
        let block = blocks[pc];
        if (block === undefined) {
          if (!this.jit[pc]) this.compile();
          block = this.jit[pc];
          blocks[pc] = block;
        }
        const result = block(this);
        if (result !== undefined && !isNaN(result)) this.ret(result);
      }
    } catch (err) {
      host.onFault(err);
      this.stop = 1;
    }
  };
}
