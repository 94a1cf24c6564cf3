/**
 * GameSession: one running Z-machine game with a Jericho-class API (step, state, ground truth).
 *
 * ZVM (ifvms) interprets the story; a private Glk instance (./glk) captures its output. Several
 * sessions can live in one process because each owns its VM, its Glk closure and its own copy of
 * the story bytes. The VM's behaviour for a harness lives in ./vmHooks, ground truth in
 * ./groundTruth, and the serialised snapshot in ./snapshotCodec.
 */
import {
  bindingFor,
  GameBinding,
  GENERIC_DEATH_TEXTS,
  GENERIC_VICTORY_TEXTS,
  GroundTruthMode,
  INFORM_WORKFLAG_ATTRIBUTE,
} from './bindings';
import { Dictionary } from './dictionary';
import { cleanObservation, validateCommand } from './commandText';
import { EngineError, GameOverError, InstructionBudgetError, SnapshotError, VmFaultError } from './errors';
import { asksFinalQuestion } from './finalQuestion';
import { CaptureGlkOte, createGlk, GlkApi, NO_FILES_DIALOG } from './glk';
import { decodeGrammar, Grammar } from './grammar';
import { GroundTruth, GroundTruthReader, Place } from './groundTruth';
import { GroundTruthProbe, probeGroundTruth } from './groundTruthProbe';
import { ScreenRecorder } from './screen';
import { ObjectTable, objectLayout, WorldDiff, WorldMask, WorldState, worldDiff, worldHash, ZObject } from './objects';
import { decodeSnapshot, encodeSnapshot } from './snapshotCodec';
import { inspectStory, LoadedStory, loadStoryFile, StoryInfo } from './story';
import { FrotzRandom } from './frotzRandom';
import { vmFaultError } from './vmFault';
import { installVmHooks } from './vmHooks';
import { bypassGlkForWhatGrueReads } from './glkBypass';
import { captureVm, restoreVm, VmParts } from './vmCapture';
import type { VmState } from './vmState';
import { createZvm, Zvm } from './zvm';
import { cellOf } from '../schemas/game';

export type { GroundTruth, Place } from './groundTruth';
export type { InputState, VmState } from './vmState';
export { MAX_COMMAND_LENGTH, validateCommand } from './commandText';

export interface SessionOptions {
  /** Fixes the game's random number generator. Same seed + same commands = same transcript. */
  seed?: number;
  /** Max JIT code blocks one command may run before the game is declared stuck. */
  blockBudget?: number;
  /** Override the binding looked up by md5 (null: force generic ground truth). */
  binding?: GameBinding | null;
}

export interface StepResult extends GroundTruth {
  command: string;
  observation: string;
}

/** Longest command accepted. Z-machine input buffers are at most 255 characters; most games use ~120. */
export const DEFAULT_BLOCK_BUDGET = 5_000_000;
/** A game still asking for keys after this many is not showing an opening screen. */
const MAX_OPENING_KEYPRESSES = 8;
export class GameSession {
  readonly story: StoryInfo;
  readonly binding: GameBinding | undefined;
  readonly groundTruthMode: GroundTruthMode;
  /** What the game printed before its first prompt. */
  readonly intro: string;
  readonly dictionary: Dictionary;
  readonly objects: ObjectTable;
  /** What a command's effects leave out (valid actions, their groups): daemons, scratch bits. */
  readonly mask: WorldMask;
  /** What the world state and its hash leave out: the mask and the binding's hash-only objects and attributes. */
  readonly hashMask: WorldMask;
  /** Without a binding: the player and the self-changing objects and attributes, found by experiment. */
  readonly groundTruthProbe: GroundTruthProbe | undefined;
  /** The story's bytes and RAM as a plain byte array (a live view of VM memory). */
  mem!: Uint8Array;

  private readonly bytes: Uint8Array;
  private vm!: Zvm;
  private glk!: GlkApi;
  private glkote!: CaptureGlkOte;
  private screen!: ScreenRecorder;
  /** Set when the game executed @quit; a restore revives it. */
  private quit = false;
  private readonly blockBudget: number;
  private readonly origRam: Uint8Array;
  private grammarCache: Grammar | undefined;
  private fault: unknown = null;
  private flags = { done: false, victory: false, died: false, ended: false };
  private readonly reader: GroundTruthReader;
  private readonly random: FrotzRandom;
  /** The story as messages name it: its file name and release/serial. */
  readonly storyName: string;

  static fromFile(path: string, options: SessionOptions = {}): GameSession {
    return new GameSession(loadStoryFile(path), options);
  }

  static fromBytes(bytes: Uint8Array, options: SessionOptions = {}, label = 'story'): GameSession {
    return new GameSession(inspectStory(bytes, label), options);
  }

  constructor(loaded: LoadedStory, options: SessionOptions = {}) {
    this.story = loaded.info;
    this.storyName = `${loaded.label.split(/[\\/]/).pop()} (${loaded.info.id})`;
    this.binding = options.binding === null ? undefined : (options.binding ?? bindingFor(loaded.info.md5));
    this.groundTruthMode = this.binding ? 'binding' : this.story.version <= 3 ? 'status-line' : 'degraded';
    this.blockBudget = options.blockBudget ?? DEFAULT_BLOCK_BUDGET;
    this.random = new FrotzRandom(options.seed ?? 0);

    this.bytes = loaded.bytes;
    this.boot();
    // The story file's own RAM: the same for every session of the story, whatever its seed.
    this.origRam = this.bytes.slice(0, this.vm.staticmem);
    this.dismissKeyWaits();

    const decode = (addr: number, len: number) => String(this.vm.decode(addr, len));
    this.dictionary = new Dictionary(this.mem, this.story.dictionary, this.story.version, decode);
    this.objects = new ObjectTable(objectLayout(this.mem, this.story.version, this.story.objectTable, this.story.staticBase), decode);
    this.reader = new GroundTruthReader(this);
    this.intro = cleanObservation(this.screen.take().text);
    this.groundTruthProbe = this.binding ? undefined : this.probeOpening();
    const found = this.binding ?? this.groundTruthProbe;
    const ignoreAttributes = new Set([
      ...(found?.ignoreAttributes ?? []),
      ...(!this.binding && this.story.inform ? [INFORM_WORKFLAG_ATTRIBUTE] : []),
    ]);
    this.mask = {
      ignoreObjects: new Set(found?.ignoreObjects ?? []),
      ignoreAttributes,
      ignoreObjectAttributes: found?.ignoreObjectAttributes ?? [],
      watchRam: this.binding?.watchRam ?? [],
      ignoreWhenSet: this.binding?.ignoreWhenSet ?? [],
      ignoreWhenCleared: this.binding?.ignoreWhenCleared ?? [],
      ignoreMovesInto: new Set(this.binding?.ignoreMovesInto ?? []),
      ...(this.binding?.onlyMovesOfOrInto !== undefined ? { onlyMovesOfOrInto: this.binding.onlyMovesOfOrInto } : {}),
    };
    const hashOnlyObjects = this.binding?.hashOnlyObjects ?? [];
    const hashOnlyAttributes = this.binding?.hashOnlyAttributes ?? [];
    // The same object when the binding has nothing hash-only: the prober then hashes the state it already read.
    this.hashMask =
      hashOnlyObjects.length || hashOnlyAttributes.length
        ? {
            ...this.mask,
            ignoreObjects: new Set([...this.mask.ignoreObjects, ...hashOnlyObjects]),
            ignoreAttributes: new Set([...ignoreAttributes, ...hashOnlyAttributes]),
          }
        : this.mask;
    this.updateFlags(this.intro);
  }

  /** Run the ground-truth experiments from the opening; they restore the opening state (status line included) when done. */
  private probeOpening(): GroundTruthProbe | undefined {
    if (!this.glkote.pending || this.isOver) return undefined;
    return probeGroundTruth(this);
  }

  /**
   * Games that open on "press a key" (a title screen, a quotation) wait for single keys before the
   * first command; Jericho's reset presses them, and so does this: every command would otherwise
   * be eaten as a keypress. The text they print stays in the intro.
   */
  private dismissKeyWaits(): void {
    for (let presses = 0; presses < MAX_OPENING_KEYPRESSES; presses++) {
      if (this.isOver || this.glkote.pending?.type !== 'char') return;
      this.glkote.sendLine('');
      this.pump();
    }
  }

  /** Start a fresh VM and Glk on the story and run to the first input request. */
  private boot(): void {
    this.vm = createZvm();
    this.glk = createGlk();
    this.glkote = new CaptureGlkOte();
    this.screen = new ScreenRecorder(this.vm);
    this.quit = false;
    installVmHooks(this.vm, this.glk, {
      blockBudget: this.blockBudget,
      storyBytes: this.bytes,
      random: this.random,
      onFault: (err) => {
        this.fault = err;
      },
      onQuit: () => {
        this.quit = true;
      },
    });
    this.screen.install();
    bypassGlkForWhatGrueReads(this.vm, this.glk, this.glkote);
    const opts = { vm: this.vm, Glk: this.glk, GlkOte: this.glkote, Dialog: NO_FILES_DIALOG };
    // ZVM writes into the buffer it is given: every session gets its own copy.
    this.vm.prepare(this.bytes.slice(), opts);
    this.glk.init(opts);
    this.pump();
    this.mem = new Uint8Array(this.vm.m.buffer, this.vm.m.byteOffset, this.vm.m.byteLength);
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
    const fault = this.fault ?? this.glkote.fatal;
    if (!fault) return;
    // Glk's fatal message stays: Glk has shut down, and restoreState starts it over when it sees one.
    this.fault = null;
    this.broken = true;
    throw vmFaultError(fault, this.vm, { name: this.storyName, version: this.story.version });
  }

  /** Set after a fault: the VM is mid-instruction and only a restore makes it usable again. */
  private broken = false;

  get isOver(): boolean {
    return this.quit;
  }

  /** The game printed its victory text (kept until a restore says otherwise). */
  get victory(): boolean {
    return this.flags.victory;
  }

  /** The game printed a death text on its last command (kept until a restore says otherwise). */
  get died(): boolean {
    return this.flags.died;
  }

  /** The game has ended: death, victory, or @quit. */
  get isDone(): boolean {
    return this.flags.done;
  }

  /** The game waits for a single key (a menu, "press any key"), not a line: a command sends its first letter. */
  get waitsForKey(): boolean {
    return this.glkote.pending?.type === 'char';
  }

  /** Run one command; returns the game's response and the ground truth after it. */
  step(command: string): StepResult {
    const ran = validateCommand(command);
    const observation = this.send(ran);
    return { command: ran, observation, ...this.groundTruth() };
  }

  /** Feed a command and return the cleaned response, updating end-of-game flags. */
  private send(command: string): string {
    if (this.broken)
      throw new EngineError('VM_FAULT', 'This session stopped with an error earlier; restore a snapshot before stepping again.', true);
    if (this.isOver || !this.glkote.pending) throw new GameOverError();
    this.glkote.sendLine(command);
    this.pump();
    const text = cleanObservation(this.screen.take().text);
    this.updateFlags(text);
    return text;
  }

  private updateFlags(text: string): void {
    const deaths = this.binding?.deathTexts.length ? this.binding.deathTexts : GENERIC_DEATH_TEXTS;
    const wins = this.binding?.victoryTexts.length ? this.binding.victoryTexts : GENERIC_VICTORY_TEXTS;
    const died = deaths.some((t) => text.includes(t));
    const victory = wins.some((t) => text.includes(t));
    const ended = this.flags.ended || asksFinalQuestion(text);
    this.flags = {
      died,
      victory: victory || this.flags.victory,
      done: died || victory || this.flags.victory || this.isOver || ended,
      ended,
    };
  }

  // --- ground truth -------------------------------------------------------------------------

  get score(): number {
    return this.reader.score;
  }

  get moves(): number {
    return this.reader.moves;
  }

  get maxScore(): number | undefined {
    return this.reader.maxScore;
  }

  /** The player object: from the binding, else found by experiment, else guessed by its name. */
  get player(): number | undefined {
    return this.reader.player;
  }

  get locationId(): number {
    return this.reader.locationId;
  }

  get location(): Place {
    return this.reader.location;
  }

  get inventory(): Place[] {
    return this.reader.inventory;
  }

  /** The object holding the player when that is not the location itself: a bed, a car, a boat. */
  get within(): Place | undefined {
    return this.reader.within;
  }

  /** The cell the game is in (cellOf): the ground truth's ids, without its names. */
  cell(): string {
    return cellOf({ ...this.reader.cellIds(), score: this.score });
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
      ...(this.flags.ended ? { ended: true as const } : {}),
    };
  }

  // --- world --------------------------------------------------------------------------------

  objectTree(): ZObject[] {
    return this.objects.tree(this.mem);
  }

  /** The world as the agent tells states apart (its hash: cells, novelty, the learned dynamics). */
  worldState(): WorldState {
    return this.objects.worldState(this.mem, this.score, this.hashMask);
  }

  /** The world as a command's effects are read (valid actions): only the narrower mask left out. */
  effectState(): WorldState {
    return this.objects.worldState(this.mem, this.score, this.mask);
  }

  /** worldHash() of the current state, given its effectState() just read: reused when the two masks are one. */
  worldHashAfter(effect: WorldState): string {
    return this.hashMask === this.mask ? worldHash(effect) : this.worldHash();
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
    const statusWindow = this.vm.statuswin;
    if (statusWindow) return this.glkote.gridOf(statusWindow.disprock).join('\n').trimEnd();
    return this.screen.statusLine;
  }

  // --- state --------------------------------------------------------------------------------

  /** Fast in-memory copy of the VM state; see snapshot() for the serializable form. */
  captureState(): VmState {
    if (this.broken) throw new EngineError('VM_FAULT', 'Cannot capture the state of a session that stopped with an error.', true);
    // Fixed key order: snapshots of equal states must be equal bytes.
    const flags = {
      done: this.flags.done,
      victory: this.flags.victory,
      died: this.flags.died,
      quit: this.isOver,
      // Only when set, so the snapshots of every other state keep their bytes.
      ...(this.flags.ended ? { ended: true } : {}),
    };
    return captureVm(this.parts(), flags);
  }

  /** Put the VM back into a state from captureState() (same story). */
  restoreState(state: VmState): void {
    if (state.flags.quit) throw new SnapshotError('Cannot restore a state in which the game had already quit.');
    if (state.ram.length !== this.origRam.length) throw new SnapshotError('This state belongs to a different story file.');
    if (this.glkote.fatal || this.glkote.exited) {
      // Glk shut down after an error outside the VM's run loop: start over, then load the state.
      this.boot();
      this.screen.take();
    }
    this.fault = null;
    this.broken = false;
    this.flags = { done: state.flags.done, victory: state.flags.victory, died: state.flags.died, ended: state.flags.ended ?? false };
    const wasQuit = this.quit;
    this.quit = false;
    restoreVm(this.parts(), state, wasQuit);
  }

  private parts(): VmParts {
    return { vm: this.vm, glk: this.glk, glkote: this.glkote, screen: this.screen, random: this.random, mem: this.mem };
  }

  /** Serializable snapshot: RAM (as a delta from the story's original RAM), stack, registers, RNG and pending input, compressed. */
  snapshot(): Uint8Array {
    return encodeSnapshot(this.captureState(), this.origRam, this.story.md5);
  }

  restore(snapshot: Uint8Array): void {
    this.restoreState(decodeSnapshot(snapshot, this.origRam, this.story.md5));
  }

  /** A fresh session of this story for experiments that may break it (see SessionView). */
  scratch(options: { binding: GameBinding; blockBudget: number }): GameSession {
    return GameSession.fromBytes(this.bytes, options);
  }

  /** The story file's bytes, as loaded (probe threads load their own VM from them). */
  get storyFile(): Uint8Array {
    return this.bytes;
  }

  /** Step without validation or ground truth: for trying many candidates quickly. Returns the raw response. */
  tryCommand(command: string): string {
    return this.send(command);
  }

  /** What `read` sees after the command (given its reply), the session put back where it was. */
  afterTrying<T>(command: string, read: (reply: string) => T): T {
    const start = this.captureState();
    try {
      return read(this.tryCommand(command));
    } finally {
      this.restoreState(start);
    }
  }

  /**
   * The reply to a command tried on the side, the session put back where it was; null when the
   * story faults or runs away on it. The search asks the parser about words no player would type
   * alone, and some reach a story's bug (Balances' "examine" of one word reads get_parent of no
   * object): such a word tells nothing, as a candidate that crashes is no valid action.
   */
  replyOrFault(command: string): string | null {
    return this.readOrFault(command, (reply) => reply);
  }

  /** What `read` sees after the command, as `afterTrying`; null when the story faults or runs away on it (see `replyOrFault`). */
  readOrFault<T>(command: string, read: (reply: string) => T): T | null {
    try {
      return this.afterTrying(command, read);
    } catch (err) {
      if (err instanceof VmFaultError || err instanceof InstructionBudgetError) return null;
      throw err;
    }
  }
}
