/**
 * Corrections to ZVM (ifvms 1.1.6), applied at run time because node_modules is installed fresh
 * everywhere. Each patch says what ZVM gets wrong and what the Z-machine standard 1.1 (or frotz,
 * the interpreter Jericho is built on) does instead. They are applied to each VM before it runs.
 */
import type { Zvm } from './zvm';
import { frotzObjectTree } from './zvmObjects';
import { decodeZChars, joinZText, readZChars, ZTextPiece, ZTextTables } from './zText';
import { type CompiledBlock, type DisassemblingZvm, superblockSource } from './superblocks';

/** The ZVM internals these patches replace or call, beyond the contract in ./zvm. */
interface PatchableZvm extends DisassemblingZvm {
  version: number;
  abbr_addr: number;
  alphabets: number[][];
  opcodes: Record<number, unknown>;
  zscii_to_text(codes: number[], texts: string[]): string;
  print(type: number, value: number): void;
  indirect(variable: number, value?: number): number;
  incdec(variable: number, change: number): number;
  /** Added here: the value a pull from the routine's empty evaluation stack yields. */
  pull_from_empty_stack(): number;
}

interface AstModule {
  Variable: { prototype: { v: number; indirect?: number; toString(): string } };
  Opcode: unknown;
  opcode_builder(base: unknown, func: () => string): unknown;
}

const ast = require('ifvms/src/common/ast.js') as AstModule;

/** Compiled code blocks are named `zcode@<pc>` in stack traces, so a fault can be traced to its block (./vmFault). */
export const BLOCK_SOURCE_PREFIX = 'zcode@';

export function applyZvmPatches(vm: Zvm): void {
  const patchable = vm as PatchableZvm;
  boundedTextDecoding(patchable);
  pullsFromAnEmptyStack(patchable);
  namedCodeBlocks(patchable);
  frotzObjectTree(vm);
}

/**
 * ZVM's decoder (zvm/text.js decode) follows abbreviations lazily and without limit, and reads on
 * past a construction cut off by the end of a string: a ZSCII escape with one Z-character left
 * skips the escape but then treats that Z-character as a new one, and an abbreviation Z-character
 * at the very end looks up entry NaN (read as the header's first word). Ludicorp's dictionary has
 * such a word ("coffee" and a cut-off escape), whose stray abbreviation leads to a string that
 * uses itself, and loading overflowed the JavaScript stack. ./zText decodes within bounds instead.
 *
 * ZVM also cached decoded strings in its table of compiled code (`jit`), and @print_paddr looked
 * there first, so a string and a code block at the same address could be mistaken for each other;
 * decoded strings get a cache of their own.
 */
function boundedTextDecoding(vm: PatchableZvm): void {
  const tables: ZTextTables = {
    get alphabets() {
      return vm.alphabets;
    },
    zsciiToText: (codes) => vm.zscii_to_text(codes, []),
  };
  // Strings in static or high memory never change, so their decoding is kept (abbreviations aside).
  const strings = new Map<number, ZTextPiece[]>();
  const abbreviationTexts = new Map<number, string>();
  const abbreviation = (number: number): string => {
    // The abbreviations table holds word addresses (§3.3).
    const addr = vm.m.getUint16(vm.abbr_addr + 2 * number) * 2;
    let text = abbreviationTexts.get(addr);
    if (text === undefined) {
      text = joinZText(decodeZChars(readZChars(vm.m, addr), tables, false), () => '');
      if (addr >= vm.staticmem) abbreviationTexts.set(addr, text);
    }
    return text;
  };
  const decode = function (this: PatchableZvm, addr: number, byteLength?: number): string {
    const cacheable = byteLength === undefined && addr >= this.staticmem;
    let pieces = cacheable ? strings.get(addr) : undefined;
    if (!pieces) {
      pieces = decodeZChars(readZChars(this.m, addr, byteLength), tables, true);
      if (cacheable) strings.set(addr, pieces);
    }
    return joinZText(pieces, abbreviation);
  };
  vm.decode = decode;
  const print = vm.print;
  vm.print = function (this: PatchableZvm, type: number, value: number) {
    // Type 2 is text at a byte address (@print, @print_ret, @print_addr, @print_paddr).
    if (type === 2) this._print(decode.call(this, value));
    else print.call(this, type, value);
  };
}

/**
 * ZVM compiles a pull from the stack as `s[--e.sp]` on a typed array that starts at the routine's
 * first stack slot, so a pull from an empty stack reads index -1 (undefined) and leaves sp at -1.
 * The standard (§6.3) makes such a pull illegal, but Infocom's own games do it: Seastalker's
 * routine at 47032 ends in a @ret_popped that runs with nothing on its stack. Undefined is not a
 * return value to ZVM's run loop, so execution fell through into the bytes after the instruction
 * ("Unknown opcode #0"). frotz (the interpreter Jericho uses) keeps a routine's local variables
 * just below its evaluation stack (process.c, call()), so there the pull reads the routine's last
 * local, and Seastalker goes on as its authors saw it. Here every pull and peek on an empty stack
 * does the same; in a routine without locals (or outside any routine) it is a stack underflow fault.
 */
function pullsFromAnEmptyStack(vm: PatchableZvm): void {
  compileBoundedPulls();
  const lastLocal = (vm: PatchableZvm): number => {
    if (vm.l.length === 0) {
      throw new Error('stack underflow: a value was pulled from an empty stack in a routine without local variables');
    }
    return vm.l.length - 1;
  };
  vm.pull_from_empty_stack = function (this: PatchableZvm) {
    return this.l[lastLocal(this)];
  };
  // @load, @store and @pull name the stack by number and only peek at, or replace, its top.
  const indirect = vm.indirect;
  vm.indirect = function (this: PatchableZvm, variable: number, value?: number) {
    if (variable !== 0 || this.sp > 0) return arguments.length > 1 ? indirect.call(this, variable, value) : indirect.call(this, variable);
    const local = lastLocal(this);
    if (arguments.length > 1) this.l[local] = value ?? 0;
    return this.l[local];
  };
  const incdec = vm.incdec;
  vm.incdec = function (this: PatchableZvm, variable: number, change: number) {
    if (variable !== 0 || this.sp > 0) return incdec.call(this, variable, change);
    const local = lastLocal(this);
    this.l[local] += change;
    return this.l[local];
  };
  // Versions 1-4 have @pop, compiled as a bare `s[--e.sp]`; its table is rebuilt on every restart.
  const restart = vm.restart;
  vm.restart = function (this: PatchableZvm, autorestoring?: unknown) {
    restart.call(this, autorestoring);
    if (this.version < 5) this.opcodes[185] = ast.opcode_builder(ast.Opcode, () => 'e.sp>0?e.sp--:e.pull_from_empty_stack()');
  };
}

let pullsCompiledBounded = false;

/** Reads of variable 0 in compiled code (shared by every VM in the process, so patched once). */
function compileBoundedPulls(): void {
  if (pullsCompiledBounded) return;
  pullsCompiledBounded = true;
  const variable = ast.Variable.prototype;
  const toString = variable.toString;
  variable.toString = function (this: typeof variable) {
    if (this.v === 0 && !this.indirect) return '(e.sp>0?s[--e.sp]:e.pull_from_empty_stack())';
    return toString.call(this);
  };
}

/**
 * ZVM's blocks, joined into superblocks (./superblocks), each named after its entry address: a
 * JavaScript error inside compiled code then says which superblock it came from, and by column
 * which instruction (every instruction keeps ZVM's `/* pc/opcode *\/` label).
 */
function namedCodeBlocks(vm: PatchableZvm): void {
  vm.compile = function (this: PatchableZvm) {
    const entry = this.pc;
    const source = `${superblockSource(this, entry)}\n//# sourceURL=${BLOCK_SOURCE_PREFIX}${entry}`;
    this.jit[entry] = new Function('e', source) as CompiledBlock;
  };
}
