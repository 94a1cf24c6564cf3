/**
 * Taking a running VM's state and putting it back: RAM, stack and registers, the RNG, ZVM's output
 * state and Glk's pending input request, and what the screen recorder and the v3 status window
 * show. The session decides when (and keeps its own flags); this knows how.
 */
import { SnapshotError } from './errors';
import type { FrotzRandom } from './frotzRandom';
import type { CaptureGlkOte, GlkApi } from './glk';
import type { ScreenRecorder } from './screen';
import type { VmState } from './vmState';
import type { Zvm } from './zvm';

/** The parts of a session that hold VM state. */
export interface VmParts {
  vm: Zvm;
  glk: GlkApi;
  glkote: CaptureGlkOte;
  screen: ScreenRecorder;
  random: FrotzRandom;
  /** The story's bytes and RAM as one array. */
  mem: Uint8Array;
}

/** ZVM's output state (styles, windows, cursor) that a state carries. */
const IO_FIELDS = [
  'reverse',
  'bold',
  'italic',
  'bg',
  'fg',
  'mono',
  'transcript',
  'currentwin',
  'height',
  'glkheight',
  'maxheight',
  'seenheight',
  'width',
  'row',
  'col',
];

export function captureVm({ vm, glkote, screen, random, mem }: VmParts, flags: VmState['flags']): VmState {
  const stackUsed = vm.frameptr + 8 + (new Uint8Array(vm.stack.buffer, vm.stack.byteOffset)[vm.frameptr + 3] & 0x0f) * 2 + vm.sp * 2;
  const io: Record<string, unknown> = {};
  for (const k of IO_FIELDS) io[k] = vm.io[k];
  io.screen = vm.io.streams[1];
  const pending = glkote.pending;
  const rd = vm.read_data ?? {};
  const upper = pending ? pending.windowId === vm.upperwin?.disprock && pending.windowId !== vm.mainwin?.disprock : false;
  return {
    ram: mem.slice(0, vm.staticmem),
    stack: new Uint8Array(vm.stack.buffer, vm.stack.byteOffset, stackUsed).slice(),
    frames: vm.frames.slice(),
    frameptr: vm.frameptr,
    sp: vm.sp,
    pc: vm.pc,
    rng: random.state,
    readData: { bufaddr: rd.bufaddr, parseaddr: rd.parseaddr, routine: rd.routine, storer: rd.storer, time: rd.time },
    io,
    input: pending ? { type: pending.type, maxlen: rd.buffer?.length ?? 0, upper } : null,
    flags,
    screen: { ...screen.capture(), statusWindow: vm.statuswin ? glkote.gridOf(vm.statuswin.disprock) : [] },
  };
}

/** Load a state into the VM; `afterQuit` when the game had executed @quit, so ZVM stopped waiting for events. */
export function restoreVm(parts: VmParts, state: VmState, afterQuit: boolean): void {
  const { vm, glk, glkote, screen, random, mem } = parts;
  mem.set(state.ram, 0);
  new Uint8Array(vm.stack.buffer, vm.stack.byteOffset, state.stack.length).set(state.stack);
  vm.frames = state.frames.slice();
  vm.frameptr = state.frameptr;
  vm.sp = state.sp;
  vm.make_stacks();
  vm.pc = state.pc;
  random.state = state.rng;
  vm.undo = [];
  vm.undo_len = 0;
  for (const k of IO_FIELDS) vm.io[k] = state.io[k];
  vm.io.streams[1] = state.io.screen;
  vm.io.streams[3] = [];
  // Glk's current output window and style live outside the VM: a command that left them on the
  // upper window (Adventure's help menu) would otherwise swallow the next command's text.
  (glk.glk_set_window as (win: unknown) => void)(vm.upperwin && state.io.currentwin ? vm.upperwin : vm.mainwin);
  vm.format();
  if (afterQuit) {
    vm.quit = 0;
    vm.glk_event = new (glk.RefStruct as new () => object)();
    (glk.glk_select as (ev: object) => void)(vm.glk_event);
  }
  reissueInput(parts, state);
  screen.restore(state.screen.upper, state.screen.statusHeight);
  if (vm.statuswin) glkote.setGrid(vm.statuswin.disprock, state.screen.statusWindow);
}

/** Make Glk's pending input request match the one the state was waiting on. */
function reissueInput({ vm, glk, glkote }: VmParts, state: VmState): void {
  const current = glkote.pending;
  const wanted = state.input;
  if (!wanted) throw new SnapshotError('The state was not waiting for input, so it cannot be resumed.');
  const win = (wanted.upper && vm.upperwin) || vm.mainwin;
  if (!win) throw new SnapshotError('The game has no window to take input.');
  const rd = { ...state.readData } as Zvm['read_data'];
  const same =
    current &&
    current.type === wanted.type &&
    current.windowId === win.disprock &&
    (wanted.type === 'char' || vm.read_data.buffer?.length === wanted.maxlen);
  if (same) {
    rd.buffer = vm.read_data.buffer;
    vm.read_data = rd;
    return;
  }
  for (const w of [vm.mainwin, vm.upperwin]) {
    if (!w) continue;
    if (w.line_request) glk.glk_cancel_line_event(w, null);
    if (w.char_request) glk.glk_cancel_char_event(w);
  }
  if (wanted.type === 'line') {
    rd.buffer = new Array(wanted.maxlen).fill(0);
    glk.glk_request_line_event_uni(win, rd.buffer, 0);
  } else {
    glk.glk_request_char_event_uni(win);
  }
  vm.read_data = rd;
  // No Glk event happened, so no display update will announce the request: record it ourselves.
  glkote.pending = { windowId: win.disprock, type: wanted.type };
}
