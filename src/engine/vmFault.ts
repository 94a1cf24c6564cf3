/**
 * Turns whatever stopped the VM (a JavaScript error inside compiled Z-code or ZVM, a message from
 * Glk, the instruction budget) into a typed EngineError that names the story, the address of the
 * instruction and the instruction itself, so a person can look it up in a disassembly.
 */
import { EngineError, InstructionBudgetError, VmFaultError, VmLocation } from './errors';
import { describeOpcodeAt } from './zOpcodes';
import { BLOCK_SOURCE_PREFIX } from './zvmPatches';
import type { Zvm } from './zvm';

/** The story as fault messages name it. */
export interface FaultStory {
  name: string;
  version: number;
}

const UNKNOWN_OPCODE = /Unknown opcode #\d+ at pc=(\d+)/;
const BLOCK_FRAME = new RegExp(`${BLOCK_SOURCE_PREFIX}(\\d+):(\\d+):(\\d+)`);
/** Compiled blocks mark each instruction with a comment `/* pc/opcode *\/` (or several, `pc/op,pc/op`, for merged branches). */
const INSTRUCTION_LABEL = /\/\* (\d+)\/\d+[^*]*\*\/(?![\s\S]*\/\* \d+\/)/;

/**
 * The address of the instruction that failed. ZVM's disassembler names it in its message; an
 * error thrown by compiled code is traced through its stack to the block (./zvmPatches names
 * blocks by address) and, by column, to the instruction's label in the block's source. Otherwise
 * the VM's pc, which is the start of the block that was running.
 */
export function faultPc(vm: Zvm, err: unknown): number {
  const message = err instanceof Error ? err.message : String(err);
  const unknown = UNKNOWN_OPCODE.exec(message);
  if (unknown) return Number(unknown[1]);
  const frame = err instanceof Error && err.stack ? BLOCK_FRAME.exec(err.stack) : null;
  if (frame) {
    const [blockPc, line, column] = frame.slice(1).map(Number);
    const block = vm.jit[blockPc];
    if (typeof block === 'function') {
      const sourceLine = String(block).split('\n')[line - 1] ?? '';
      const label = INSTRUCTION_LABEL.exec(sourceLine.slice(0, column));
      return label ? Number(label[1]) : blockPc;
    }
  }
  return vm.pc;
}

export function locateFault(vm: Zvm, err: unknown, story: FaultStory): VmLocation {
  const pc = faultPc(vm, err);
  const memory = new Uint8Array(vm.m.buffer, vm.m.byteOffset, vm.m.byteLength);
  return { story: story.name, pc, instruction: describeOpcodeAt(memory, pc, story.version) };
}

/** The typed error for a fault: the budget error and ZVM's errors with their location, other engine errors as they are. */
export function vmFaultError(fault: unknown, vm: Zvm, story: FaultStory): EngineError {
  if (fault instanceof InstructionBudgetError) {
    return fault.location ? fault : new InstructionBudgetError(fault.budget, locateFault(vm, fault, story));
  }
  if (fault instanceof EngineError) return fault;
  const detail = fault instanceof Error ? `${fault.name === 'Error' ? '' : `${fault.name}: `}${fault.message}` : String(fault);
  return new VmFaultError(detail, locateFault(vm, fault, story));
}
