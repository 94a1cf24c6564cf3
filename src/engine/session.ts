/**
 * GameSession: one running Z-machine game with a Jericho-class API.
 *
 * ZVM (ifvms) interprets the story; a private Glk instance (./glk) captures its output. Several
 * sessions can live in one process because each owns its VM, its Glk closure and its own copy of
 * the story bytes. The game's RNG is ZVM's xorshift generator, seeded by us and never allowed to
 * fall back to Math.random, so the same seed and commands give the same transcript.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { bindingFor, GameBinding, GENERIC_DEATH_TEXTS, GENERIC_VICTORY_TEXTS, GroundTruthMode, INFORM_WORKFLAG_ATTRIBUTE, NumberSource } from './bindings';
import { Dictionary } from './dictionary';
import { EngineError, GameOverError, InstructionBudgetError, InvalidCommandError, SnapshotError, VmFaultError } from './errors';
import { CaptureGlkOte, createGlk, GlkApi, GlkWindow, NO_FILES_DIALOG } from './glk';
import { decodeGrammar, Grammar } from './grammar';
import { GroundTruthProbe, probeGroundTruth } from './groundTruthProbe';
import { ObjectTable, objectLayout, WorldDiff, WorldMask, WorldState, worldDiff, worldHash, ZObject } from './objects';
import { inspectStory, LoadedStory, loadStoryFile, StoryInfo } from './story';

// eslint-disable-next-line @typescript-eslint/no-var-requires
const { ZVM } = require('ifvms') as { ZVM: new () => Zvm };

/** The ZVM internals grue touches. ZVM has no public API for state, so this is our contract with it. */
interface Zvm {
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
  xorshift_seed: number;
  read_data: { buffer?: number[]; bufaddr?: number; parseaddr?: number; routine?: number; storer?: number; time?: number };
  io: Record<string, unknown> & { streams: unknown[] };
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
  save_undo(pc: number, variable: number): number;
  /** Applies the io fields' text style to Glk's current stream. */
  format(): void;
}

export interface SessionOptions {
  /** Fixes the game's random number generator. Same seed + same commands = same transcript. */
  seed?: number;
  /** Max JIT code blocks one command may run before the game is declared stuck. */
  blockBudget?: number;
  /** Override the binding looked up by md5 (null: force generic ground truth). */
  binding?: GameBinding | null;
}

export interface Place {
  id: number;
  name: string;
}

export interface GroundTruth {
  score: number;
  moves: number;
  location: Place;
  /** What the player is inside of or on, within the location (a bed, a car, a boat); absent when standing in the room itself. */
  within?: Place;
  inventory: Place[];
  done: boolean;
  victory: boolean;
  died: boolean;
}

export interface StepResult extends GroundTruth {
  command: string;
  observation: string;
}

/** Longest command accepted. Z-machine input buffers are at most 255 characters; most games use ~120. */
export const MAX_COMMAND_LENGTH = 200;
export const DEFAULT_BLOCK_BUDGET = 5_000_000;
const SNAPSHOT_MAGIC = 'GRUESNP1';

interface InputState {
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

const IO_FIELDS = ['reverse', 'bold', 'italic', 'bg', 'fg', 'mono', 'transcript', 'currentwin', 'height', 'glkheight', 'maxheight', 'seenheight', 'width', 'row', 'col'];

/** Check a command before it reaches the VM. */
export function validateCommand(command: unknown): string {
  if (typeof command !== 'string') throw new InvalidCommandError(`A command must be a string, got ${typeof command}.`);
  if (command.length > MAX_COMMAND_LENGTH) {
    throw new InvalidCommandError(`Command is ${command.length} characters long; the limit is ${MAX_COMMAND_LENGTH}.`);
  }
  const bad = command.search(/[^\x20-\x7e]/);
  if (bad >= 0) {
    const code = command.charCodeAt(bad).toString(16).padStart(4, '0');
    throw new InvalidCommandError(`Command contains a non-printable or non-ASCII character (U+${code}) at position ${bad}; use plain printable ASCII.`);
  }
  return command;
}

function toSeed(seed: number): number {
  // Mix the user's seed so small seeds (0, 1, 2) give unrelated streams; never 0 (0 means Math.random to ZVM).
  let x = (Math.trunc(seed) ^ 0x9e3779b9) | 0;
  x = Math.imul(x ^ (x >>> 16), 0x85ebca6b);
  x = Math.imul(x ^ (x >>> 13), 0xc2b2ae35);
  x ^= x >>> 16;
  return x | 0 || 0x2545f491;
}

function cleanObservation(text: string): string {
  return text
    .replace(/\r/g, '')
    .replace(/\n>\s*$/, '')
    .replace(/^>\s*$/, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/^\n+/, '')
    .trimEnd();
}

export class GameSession {
  readonly story: StoryInfo;
  readonly binding: GameBinding | undefined;
  readonly groundTruthMode: GroundTruthMode;
  /** What the game printed before its first prompt. */
  readonly intro: string;
  readonly dictionary: Dictionary;
  readonly objects: ObjectTable;
  readonly mask: WorldMask;
  /** Without a binding: the player and the self-changing objects and attributes, found by experiment. */
  readonly groundTruthProbe: GroundTruthProbe | undefined;
  /** The story's bytes and RAM as a plain byte array (a live view of VM memory). */
  mem!: Uint8Array;

  private readonly bytes: Uint8Array;
  private vm!: Zvm;
  private glk!: GlkApi;
  private glkote!: CaptureGlkOte;
  /** Set when the game executed @quit; a restore revives it. */
  private quit = false;
  private readonly blockBudget: number;
  private readonly origRam: Uint8Array;
  private grammarCache: Grammar | undefined;
  private fault: unknown = null;
  private flags = { done: false, victory: false, died: false };
  private playerGuess: number | undefined;
  private lastSeed: number;

  static fromFile(path: string, options: SessionOptions = {}): GameSession {
    return new GameSession(loadStoryFile(path), options);
  }

  static fromBytes(bytes: Uint8Array, options: SessionOptions = {}, label = 'story'): GameSession {
    return new GameSession(inspectStory(bytes, label), options);
  }

  constructor(loaded: LoadedStory, options: SessionOptions = {}) {
    this.story = loaded.info;
    this.binding = options.binding === null ? undefined : (options.binding ?? bindingFor(loaded.info.md5));
    this.groundTruthMode = this.binding ? 'binding' : this.story.version <= 3 ? 'status-line' : 'degraded';
    this.blockBudget = options.blockBudget ?? DEFAULT_BLOCK_BUDGET;
    this.lastSeed = toSeed(options.seed ?? 0);

    this.bytes = loaded.bytes;
    this.boot();
    this.origRam = this.mem.slice(0, this.vm.staticmem);

    const decode = (addr: number, len: number) => String(this.vm.decode(addr, len));
    this.dictionary = new Dictionary(this.mem, this.story.dictionary, this.story.version, decode);
    this.objects = new ObjectTable(objectLayout(this.mem, this.story.version, this.story.objectTable, this.story.staticBase), decode);
    this.intro = cleanObservation(this.glkote.takeText());
    this.groundTruthProbe = this.binding ? undefined : this.probeOpening();
    const found = this.binding ?? this.groundTruthProbe;
    const ignoreAttributes = new Set([...(found?.ignoreAttributes ?? []), ...(!this.binding && this.story.inform ? [INFORM_WORKFLAG_ATTRIBUTE] : [])]);
    this.mask = {
      ignoreObjects: new Set(found?.ignoreObjects ?? []),
      ignoreAttributes,
      ignoreObjectAttributes: found?.ignoreObjectAttributes ?? [],
      watchRam: this.binding?.watchRam ?? [],
    };
    this.updateFlags(this.intro);
  }

  /** Run the ground-truth experiments from the opening, leaving the session exactly as it was (status line included). */
  private probeOpening(): GroundTruthProbe | undefined {
    if (!this.glkote.pending || this.isOver) return undefined;
    const statusLine = this.glkote.grid.slice();
    try {
      return probeGroundTruth(this);
    } finally {
      this.glkote.grid.length = 0;
      this.glkote.grid.push(...statusLine);
      this.glkote.takeText();
    }
  }

  /** Start a fresh VM and Glk on the story and run to the first input request. */
  private boot(): void {
    this.vm = new ZVM();
    this.glk = createGlk();
    this.glkote = new CaptureGlkOte();
    this.quit = false;
    this.installHooks();
    const opts = { vm: this.vm, Glk: this.glk, GlkOte: this.glkote, Dialog: NO_FILES_DIALOG };
    // ZVM writes into the buffer it is given: every session gets its own copy.
    this.vm.prepare(this.bytes.slice(), opts);
    this.glk.init(opts);
    this.pump();
    this.mem = new Uint8Array(this.vm.m.buffer, this.vm.m.byteOffset, this.vm.m.byteLength);
  }

  /** Wrap the few ZVM methods whose behaviour must differ for a research harness. */
  private installHooks(): void {
    const vm = this.vm;
    const session = this;
    const originalUpdateHeader = vm.update_header;
    // ZVM resets its RNG to Math.random on every restart/restore; pin it to our seed instead.
    vm.update_header = function (this: Zvm) {
      originalUpdateHeader.call(this);
      this.xorshift_seed = session.lastSeed;
    };
    // @random 0 asks for "true" randomness; give a deterministic reseed derived from the current state.
    const originalRandom = vm.random;
    vm.random = function (this: Zvm, range: number) {
      if (range === 0) {
        this.xorshift_seed = toSeed(this.xorshift_seed);
        return 0;
      }
      return originalRandom.call(this, range);
    };
    // ZVM rebuilds two typed-array views of the stack on every call and return; the views only
    // depend on the frame's offset and local count, so reuse them (a measurable share of run time).
    // One pair of views per frame offset, replaced when a frame there has another local count.
    let views: Array<{ locals: number; l: Uint16Array; s: Uint16Array } | undefined> = [];
    let viewsOf: ArrayBufferLike | null = null;
    vm.make_stacks = function (this: Zvm) {
      const stack = this.stack;
      if (viewsOf !== stack.buffer) {
        // A restart allocates a new stack.
        views = new Array(stack.byteLength).fill(undefined);
        viewsOf = stack.buffer;
      }
      const frameptr = this.frameptr;
      const locals = stack.getUint8(frameptr + 3) & 0x0f;
      let v = views[frameptr];
      if (v === undefined || v.locals !== locals) {
        v = {
          locals,
          l: new Uint16Array(stack.buffer, stack.byteOffset + frameptr + 8, locals),
          s: new Uint16Array(stack.buffer, stack.byteOffset + frameptr + 8 + locals * 2),
        };
        views[frameptr] = v;
      }
      this.l = v.l;
      this.s = v.s;
    };
    // UNDO is off: snapshots are the harness's undo, and an in-VM undo history would make a
    // restored game behave differently from the original (the history is not in the snapshot).
    vm.save_undo = () => -1;
    // @quit would shut Glk down for good; record it instead so a restore can bring the game back.
    this.glk.glk_exit = () => {
      session.quit = true;
    };
    // Bounded run loop: a game that never asks for input is stopped, not waited on forever.
    // Compiled blocks are also kept in an array indexed by address: ZVM's own cache is a plain
    // object, which V8 stores as a slow dictionary once it holds thousands of entries, and blocks
    // end at every routine call, so this lookup runs once every few instructions.
    let blocks: Array<((vm: Zvm) => number | undefined) | undefined> = [];
    let blocksOf: ArrayBufferLike | null = null;
    vm.run = function (this: Zvm) {
      if (blocksOf !== this.m.buffer) {
        blocks = new Array(this.m.byteLength).fill(undefined);
        blocksOf = this.m.buffer;
      }
      let budget = session.blockBudget;
      this.stop = 0;
      try {
        while (!this.stop) {
          if (--budget < 0) throw new InstructionBudgetError(session.blockBudget);
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
        session.fault = err;
        this.stop = 1;
      }
    };
  }

  /** Answer file prompts until the game waits for input, quits, or faults. */
  private pump(): void {
    for (let guard = 0; guard < 16; guard++) {
      this.throwFault();
      if (this.glkote.special) {
        this.glkote.refuseFilePrompt();
        continue;
      }
      break;
    }
    this.throwFault();
  }

  private throwFault(): void {
    const fault = this.fault ?? (this.glkote.fatal ? new VmFaultError(this.glkote.fatal) : null);
    if (!fault) return;
    this.fault = null;
    this.glkote.fatal = null;
    this.broken = true;
    if (fault instanceof EngineError) throw fault;
    throw new VmFaultError(fault instanceof Error ? fault.message : String(fault));
  }

  /** Set after a fault: the VM is mid-instruction and only a restore makes it usable again. */
  private broken = false;

  get isOver(): boolean {
    return this.quit;
  }

  /** The game has ended: death, victory, or @quit. */
  get isDone(): boolean {
    return this.flags.done;
  }

  /** Run one command; returns the game's response and the ground truth after it. */
  step(command: string): StepResult {
    const ran = validateCommand(command);
    const observation = this.send(ran);
    return { command: ran, observation, ...this.groundTruth() };
  }

  /** Feed a command and return the cleaned response, updating end-of-game flags. */
  private send(command: string): string {
    if (this.broken) throw new EngineError('VM_FAULT', 'This session stopped with an error earlier; restore a snapshot before stepping again.', true);
    if (this.isOver || !this.glkote.pending) throw new GameOverError();
    this.glkote.takeText();
    this.glkote.sendLine(command);
    this.pump();
    const text = cleanObservation(this.glkote.takeText());
    this.updateFlags(text);
    return text;
  }

  private updateFlags(text: string): void {
    const deaths = this.binding?.deathTexts.length ? this.binding.deathTexts : GENERIC_DEATH_TEXTS;
    const wins = this.binding?.victoryTexts.length ? this.binding.victoryTexts : GENERIC_VICTORY_TEXTS;
    const died = deaths.some((t) => text.includes(t));
    const victory = wins.some((t) => text.includes(t));
    this.flags = {
      died,
      victory: victory || this.flags.victory,
      done: died || victory || this.flags.victory || this.isOver,
    };
  }

  // --- ground truth -------------------------------------------------------------------------

  private global(index: number): number {
    return (this.mem[this.story.globals + 2 * index] << 8) | this.mem[this.story.globals + 2 * index + 1];
  }

  private readNumber(source: NumberSource): number {
    if (source.kind === 'victory') return this.flags.victory ? source.value : 0;
    const raw = source.kind === 'global' ? this.global(source.index) : (this.mem[source.addr] << 8) | this.mem[source.addr + 1];
    return ((raw << 16) >> 16) + source.offset;
  }

  get score(): number {
    if (this.binding) return this.readNumber(this.binding.score);
    if (this.groundTruthMode === 'degraded') return this.statusNumber(/score:?\s*(-?\d+)/i);
    return this.readNumber({ kind: 'global', index: 1, offset: 0 });
  }

  get moves(): number {
    if (this.binding) return this.readNumber(this.binding.moves);
    if (this.groundTruthMode === 'degraded') return this.statusNumber(/(?:moves|turns):?\s*(\d+)/i);
    return this.readNumber({ kind: 'global', index: 2, offset: 0 });
  }

  private statusNumber(re: RegExp): number {
    const m = re.exec(this.statusLine);
    return m ? Number(m[1]) : 0;
  }

  get maxScore(): number | undefined {
    return this.binding?.maxScore;
  }

  /** The player object: from the binding, else found by experiment, else guessed by its name. */
  get player(): number | undefined {
    if (this.binding?.playerObject) return this.binding.playerObject;
    if (this.groundTruthProbe?.playerObject) return this.groundTruthProbe.playerObject;
    if (this.playerGuess !== undefined) return this.playerGuess || undefined;
    let found: number | undefined;
    for (let id = 1; id <= this.objects.count && !found; id++) {
      // Names the Inform library and Infocom give the player object; it must be inside something.
      if (/^(yourself|you|self|player|cretin|adventurer|\(self object\))$/i.test(this.objects.name(this.mem, id).trim()) && this.objects.parent(this.mem, id)) found = id;
    }
    this.playerGuess = found ?? 0;
    return found;
  }

  get locationId(): number {
    const player = this.player;
    if (this.groundTruthMode === 'degraded' && !player) return this.statusLocationId();
    if (player && (this.binding?.location === 'playerParent' || this.groundTruthMode === 'degraded')) {
      // Climb out of vehicles and containers to the room.
      let at = this.objects.parent(this.mem, player);
      for (let guard = 0; guard < 8; guard++) {
        const up = this.objects.parent(this.mem, at);
        if (!up) break;
        at = up;
      }
      return at;
    }
    const g0 = this.global(0);
    return g0 > 0 && g0 <= this.objects.count ? g0 : 0;
  }

  get location(): Place {
    const id = this.locationId;
    if (!id && this.groundTruthMode === 'degraded') return { id: 0, name: this.statusLine.split(/\s{2,}/)[0]?.trim() ?? '' };
    return { id, name: id ? this.objects.name(this.mem, id) : '' };
  }

  /** Degraded mode without a player object: the object named like the status line's room. */
  private statusLocationId(): number {
    const name = this.statusLine.split(/\s{2,}/)[0]?.trim();
    if (!name) return 0;
    for (let id = 1; id <= this.objects.count; id++) if (this.objects.name(this.mem, id) === name) return id;
    return 0;
  }

  get inventory(): Place[] {
    const player = this.player;
    if (!player) return [];
    return this.objects.children(this.mem, player).map((id) => ({ id, name: this.objects.name(this.mem, id) }));
  }

  /** The object holding the player when that is not the location itself: a bed, a car, a boat. */
  get within(): Place | undefined {
    const player = this.player;
    if (!player) return undefined;
    const holder = this.objects.parent(this.mem, player);
    if (!holder || holder === this.locationId) return undefined;
    return { id: holder, name: this.objects.name(this.mem, holder) };
  }

  groundTruth(): GroundTruth {
    const within = this.within;
    return {
      score: this.score,
      moves: this.moves,
      location: this.location,
      ...(within ? { within } : {}),
      inventory: this.inventory,
      done: this.flags.done,
      victory: this.flags.victory,
      died: this.flags.died,
    };
  }

  // --- world --------------------------------------------------------------------------------

  objectTree(): ZObject[] {
    return this.objects.tree(this.mem);
  }

  worldState(): WorldState {
    return this.objects.worldState(this.mem, this.score, this.mask);
  }

  worldHash(): string {
    return worldHash(this.worldState());
  }

  static worldDiff(a: WorldState, b: WorldState): WorldDiff {
    return worldDiff(a, b);
  }

  get grammar(): Grammar {
    this.grammarCache ??= decodeGrammar(this.mem, this.story, this.dictionary);
    return this.grammarCache;
  }

  /** The status line as last drawn (v3 games, or a v4+ game's upper window). */
  get statusLine(): string {
    return this.glkote.grid.join('\n').trimEnd();
  }

  // --- state --------------------------------------------------------------------------------

  /** Fast in-memory copy of the VM state; see snapshot() for the serializable form. */
  captureState(): VmState {
    const vm = this.vm;
    if (this.broken) throw new EngineError('VM_FAULT', 'Cannot capture the state of a session that stopped with an error.', true);
    const stackUsed = vm.frameptr + 8 + (new Uint8Array(vm.stack.buffer, vm.stack.byteOffset)[vm.frameptr + 3] & 0x0f) * 2 + vm.sp * 2;
    const io: Record<string, unknown> = {};
    for (const k of IO_FIELDS) io[k] = vm.io[k];
    io.screen = vm.io.streams[1];
    const pending = this.glkote.pending;
    const rd = vm.read_data ?? {};
    return {
      ram: this.mem.slice(0, vm.staticmem),
      stack: new Uint8Array(vm.stack.buffer, vm.stack.byteOffset, stackUsed).slice(),
      frames: vm.frames.slice(),
      frameptr: vm.frameptr,
      sp: vm.sp,
      pc: vm.pc,
      seed: vm.xorshift_seed,
      readData: { bufaddr: rd.bufaddr, parseaddr: rd.parseaddr, routine: rd.routine, storer: rd.storer, time: rd.time },
      io,
      input: pending ? { type: pending.type, maxlen: rd.buffer?.length ?? 0, upper: pending.windowId === vm.upperwin?.disprock && pending.windowId !== vm.mainwin?.disprock } : null,
      // Fixed key order: snapshots of equal states must be equal bytes.
      flags: { done: this.flags.done, victory: this.flags.victory, died: this.flags.died, quit: this.isOver },
    };
  }

  /** Put the VM back into a state from captureState() (same story). */
  restoreState(state: VmState): void {
    if (state.flags.quit) throw new SnapshotError('Cannot restore a state in which the game had already quit.');
    if (state.ram.length !== this.origRam.length) throw new SnapshotError('This state belongs to a different story file.');
    if (this.glkote.fatal || this.glkote.exited) {
      // Glk shut down after an error outside the VM's run loop: start over, then load the state.
      this.boot();
      this.glkote.takeText();
    }
    const vm = this.vm;
    this.mem.set(state.ram, 0);
    new Uint8Array(vm.stack.buffer, vm.stack.byteOffset, state.stack.length).set(state.stack);
    vm.frames = state.frames.slice();
    vm.frameptr = state.frameptr;
    vm.sp = state.sp;
    vm.make_stacks();
    vm.pc = state.pc;
    vm.xorshift_seed = state.seed;
    vm.undo = [];
    vm.undo_len = 0;
    for (const k of IO_FIELDS) vm.io[k] = state.io[k];
    vm.io.streams[1] = state.io.screen;
    vm.io.streams[3] = [];
    // Glk's current output window and style live outside the VM: a command that left them on the
    // upper window (Adventure's help menu) would otherwise swallow the next command's text.
    (this.glk.glk_set_window as (win: unknown) => void)(vm.upperwin && state.io.currentwin ? vm.upperwin : vm.mainwin);
    vm.format();
    this.fault = null;
    this.broken = false;
    this.flags = { done: state.flags.done, victory: state.flags.victory, died: state.flags.died };
    if (this.quit) {
      // After @quit ZVM stopped waiting for events; wait again.
      this.quit = false;
      vm.quit = 0;
      vm.glk_event = new (this.glk.RefStruct as new () => object)();
      (this.glk.glk_select as (ev: object) => void)(vm.glk_event);
    }
    this.reissueInput(state);
    this.glkote.takeText();
  }

  /** Make Glk's pending input request match the one the state was waiting on. */
  private reissueInput(state: VmState): void {
    const vm = this.vm;
    const glk = this.glk;
    const current = this.glkote.pending;
    const wanted = state.input;
    if (!wanted) throw new SnapshotError('The state was not waiting for input, so it cannot be resumed.');
    const win = (wanted.upper && vm.upperwin) || vm.mainwin;
    if (!win) throw new SnapshotError('The game has no window to take input.');
    const rd = { ...state.readData } as Zvm['read_data'];
    const same = current && current.type === wanted.type && current.windowId === win.disprock && (wanted.type === 'char' || vm.read_data.buffer?.length === wanted.maxlen);
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
    this.glkote.pending = { windowId: win.disprock, type: wanted.type };
  }

  /** Serializable snapshot: RAM (as a delta from the story's original RAM), stack, registers, RNG and pending input, compressed. */
  snapshot(): Uint8Array {
    const s = this.captureState();
    const delta = new Uint8Array(s.ram.length);
    for (let i = 0; i < delta.length; i++) delta[i] = s.ram[i] ^ this.origRam[i];
    const header = Buffer.from(
      JSON.stringify({
        md5: this.story.md5,
        frames: s.frames,
        frameptr: s.frameptr,
        sp: s.sp,
        pc: s.pc,
        seed: s.seed,
        readData: s.readData,
        io: s.io,
        input: s.input,
        flags: s.flags,
        ramLength: s.ram.length,
        stackLength: s.stack.length,
      }),
    );
    const body = Buffer.alloc(4 + header.length + delta.length + s.stack.length);
    body.writeUInt32BE(header.length, 0);
    header.copy(body, 4);
    body.set(delta, 4 + header.length);
    body.set(s.stack, 4 + header.length + delta.length);
    return new Uint8Array(Buffer.concat([Buffer.from(SNAPSHOT_MAGIC), deflateRawSync(body, { level: 6 })]));
  }

  restore(snapshot: Uint8Array): void {
    this.restoreState(this.decodeSnapshot(snapshot));
  }

  private decodeSnapshot(snapshot: Uint8Array): VmState {
    const buf = Buffer.from(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength);
    if (buf.length < SNAPSHOT_MAGIC.length || buf.subarray(0, SNAPSHOT_MAGIC.length).toString('latin1') !== SNAPSHOT_MAGIC) {
      throw new SnapshotError('Not a grue snapshot (bad magic bytes).');
    }
    let body: Buffer;
    let header: {
      md5: string;
      frames: number[];
      frameptr: number;
      sp: number;
      pc: number;
      seed: number;
      readData: VmState['readData'];
      io: Record<string, unknown>;
      input: InputState | null;
      flags: VmState['flags'];
      ramLength: number;
      stackLength: number;
    };
    try {
      body = inflateRawSync(buf.subarray(SNAPSHOT_MAGIC.length));
      const headerLength = body.readUInt32BE(0);
      header = JSON.parse(body.subarray(4, 4 + headerLength).toString('utf8'));
      body = body.subarray(4 + headerLength);
    } catch (err) {
      throw new SnapshotError(`Snapshot is corrupt: ${(err as Error).message}`);
    }
    if (header.md5 !== this.story.md5) {
      throw new SnapshotError(`Snapshot belongs to story ${header.md5}, not to this session's story ${this.story.md5}.`);
    }
    if (body.length !== header.ramLength + header.stackLength || header.ramLength !== this.origRam.length) {
      throw new SnapshotError('Snapshot is corrupt: its memory sections have the wrong size.');
    }
    const ram = new Uint8Array(header.ramLength);
    for (let i = 0; i < ram.length; i++) ram[i] = body[i] ^ this.origRam[i];
    return {
      ram,
      stack: new Uint8Array(body.subarray(header.ramLength)),
      frames: header.frames,
      frameptr: header.frameptr,
      sp: header.sp,
      pc: header.pc,
      seed: header.seed,
      readData: header.readData,
      io: header.io,
      input: header.input,
      flags: header.flags,
    };
  }

  /** The story file's bytes, as loaded (probe threads load their own VM from them). */
  get storyFile(): Uint8Array {
    return this.bytes;
  }

  /** Step without validation or ground truth: for trying many candidates quickly. Returns the raw response. */
  tryCommand(command: string): string {
    return this.send(command);
  }
}
