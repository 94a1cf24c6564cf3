/**
 * ZVM compiles Z-code one block at a time, a block ending at the first branch taken, jump, call or
 * return, and its run loop looks up and calls a block for each. Inform's library is made of short
 * routines full of `if (x) return y;`, so most blocks are one or two instructions: on Adventure a
 * parser-rejected command runs about 7,800 blocks for 1,100 calls. A superblock is one JavaScript
 * function holding every block reachable from its entry by branches and jumps (never through a
 * call or return, which change the frame), so a branch inside a routine is a `continue` instead of
 * a trip through the run loop.
 *
 * Each block's code is ZVM's own; only its exits to blocks in the same superblock are rewritten.
 * The instruction budget counts blocks as before: every jump inside a superblock spends one
 * (`vm.budget`, shared with the run loop in ./vmHooks), so a loop inside one routine is stopped
 * at the same block it always was.
 */
import type { Zvm } from './zvm';

/** What compiling needs from ZVM beyond the contract in ./zvm. */
export interface DisassemblingZvm extends Zvm {
  disassemble(): { pc: number; toString(): string };
  /** Blocks left before the run loop stops the game (see ./vmHooks). */
  budget: number;
}

export type CompiledBlock = (e: Zvm) => number | undefined;

/** Blocks per superblock, at most (16 measured 15% faster than none on Adventure and no slower than 64). */
export const MAX_SUPERBLOCK_BLOCKS = 16;

/** The preamble ZVM puts at the top of every block (its RoutineContext). */
const BLOCK_PREAMBLE = 'var l=e.l,s=e.s,t=0;\n';
/** A branch taken: `{e.pc=<target>;return}` (Brancher in ifvms' ast.js); nothing else sets the pc and returns inside braces. */
const BRANCH_EXIT = /e\.pc=(\d+);return(?=\})/g;
/** @jump, always a block's last instruction: `e.pc=<signed offset>+<address>` (opcodes.js). */
const JUMP_EXIT = /e\.pc=(-?\d+)\+(\d+)$/;

/** The addresses a block's code may continue at without a call or a return. */
function exitsOf(body: string): number[] {
  const exits = [...body.matchAll(BRANCH_EXIT)].map((m) => Number(m[1]));
  const jump = JUMP_EXIT.exec(body);
  if (jump) exits.push(Number(jump[1]) + Number(jump[2]));
  return exits;
}

/** Disassembles the block at `pc`; ZVM's disassembler moves the pc and may set `stop`, so both are put back. */
function blockAt(vm: DisassemblingZvm, pc: number): string {
  const { pc: was, stop } = vm;
  vm.pc = pc;
  try {
    const code = String(vm.disassemble());
    return code.startsWith(BLOCK_PREAMBLE) ? code.slice(BLOCK_PREAMBLE.length) : code;
  } finally {
    vm.pc = was;
    vm.stop = stop;
  }
}

/** A jump to `target` inside the superblock: spend a block of the budget, or hand back to the run loop when it is spent. */
const jumpTo = (target: number) => `pc=${target};if(--e.budget<0){e.pc=${target};return}continue run`;

/**
 * The source of the superblock entered at `entry`: its blocks in the order found, each a `case`
 * of one switch. An entry that cannot be disassembled throws (the run loop reports the fault);
 * another block that cannot be is left out, its address an exit to the run loop as before.
 */
export function superblockSource(vm: DisassemblingZvm, entry: number, maxBlocks = MAX_SUPERBLOCK_BLOCKS): string {
  const bodies = new Map<number, string>();
  const queue = [entry];
  const skipped = new Set<number>();
  while (queue.length > 0 && bodies.size < maxBlocks) {
    const pc = queue.shift()!;
    if (bodies.has(pc) || skipped.has(pc)) continue;
    let body: string;
    try {
      body = blockAt(vm, pc);
    } catch (err) {
      if (pc === entry) throw err;
      skipped.add(pc);
      continue;
    }
    bodies.set(pc, body);
    queue.push(...exitsOf(body));
  }
  const cases = [...bodies].map(([pc, body]) => {
    const inside = body
      .replace(BRANCH_EXIT, (exit, target: string) => (bodies.has(Number(target)) ? jumpTo(Number(target)) : exit))
      .replace(JUMP_EXIT, (exit, offset: string, base: string) => {
        const target = Number(offset) + Number(base);
        return bodies.has(target) ? jumpTo(target) : exit;
      });
    return `case ${pc}:\n${inside};\nreturn;`;
  });
  return `${BLOCK_PREAMBLE}var pc=${entry};\nrun:for(;;){switch(pc){\n${cases.join('\n')}\n}\ne.pc=pc;return}`;
}
