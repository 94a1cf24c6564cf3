/**
 * Superblocks join ZVM's blocks of one routine into one function (src/engine/superblocks.ts). The
 * blocks here are written as ZVM writes them: `var l=e.l,s=e.s,t=0;` first, a branch taken as
 * `{e.pc=<target>;return}`, @jump last as `e.pc=<offset>+<address>`, a call as `e.call(...)`.
 */
import { superblockSource, type DisassemblingZvm } from '../../src/engine/superblocks';

const PREAMBLE = 'var l=e.l,s=e.s,t=0;\n';

/** A VM whose disassembler returns the given block code by address and throws elsewhere (an unknown opcode). */
function vmWith(blocks: Record<number, string>): DisassemblingZvm & Record<string, unknown> {
  const vm = {
    pc: 0,
    stop: 0,
    budget: 0,
    disassemble(this: { pc: number; stop: number }) {
      const pc = this.pc;
      this.pc += 3;
      const code = blocks[pc];
      if (code === undefined) {
        this.stop = 1;
        throw new Error(`Unknown opcode #0 at pc=${pc}`);
      }
      return { pc, toString: () => PREAMBLE + code };
    },
  };
  return vm as unknown as DisassemblingZvm & Record<string, unknown>;
}

type Block = (e: Record<string, unknown>) => number | undefined;
const compiled = (source: string) => new Function('e', source) as Block;

describe('a superblock', () => {
  // Block 10 tests a counter and returns 1 when it is spent; block 20 counts down and jumps back to 10.
  const countdown = {
    10: '/* 10/1 */ if(!(e.n===0)) {e.pc=20;return};/* 14/176 */ return 1',
    20: '/* 20/2 */ e.n--;/* 22/140 */ e.pc=-12+22',
  };

  it('runs branches and jumps between the blocks of a routine without leaving the function, spending a block of the budget on each', () => {
    const vm = vmWith(countdown);
    const source = superblockSource(vm, 10);
    expect(source).toContain('case 10:');
    expect(source).toContain('case 20:');
    expect(source.match(/continue run/g)).toHaveLength(2);
    const e = { l: [], s: [], n: 3, pc: 0, budget: 100 };
    expect(compiled(source)(e)).toBe(1);
    expect(e.n).toBe(0);
    // Three times round: 10→20, 20→10 each, the same blocks ZVM's run loop would have counted.
    expect(e.budget).toBe(94);
    // The disassembler's pc and stop flag are put back.
    expect(vm.pc).toBe(0);
    expect(vm.stop).toBe(0);
  });

  it('hands back to the run loop at the target when the budget is spent, so an endless loop is still stopped', () => {
    const e = { l: [], s: [], n: 1_000_000, pc: 0, budget: 5 };
    expect(compiled(superblockSource(vmWith(countdown), 10))(e)).toBeUndefined();
    expect(e.budget).toBe(-1);
    expect(e.pc).toBe(10);
  });

  it('leaves exits to blocks it does not hold as they were: calls, pauses and blocks that cannot be disassembled', () => {
    const vm = vmWith({
      10: '/* 10/1 */ if(e.x===1) {e.pc=30;return};/* 14/1 */ if(e.x===2) {e.pc=40;return};/* 18/224 */ e.call(99,-1,24,[])',
      40: '/* 40/228 */ e.stop=1;e.pc=46;e.read(1,2)',
    });
    const source = superblockSource(vm, 10);
    // 30 holds no instruction: it stays an exit, and the run loop reports the fault if it is ever reached.
    expect(source).toContain('{e.pc=30;return}');
    expect(source).toContain('e.stop=1;e.pc=46;e.read(1,2)');
    const calls: unknown[][] = [];
    const e = { l: [], s: [], x: 0, pc: 0, budget: 10, stop: 0, call: (...args: unknown[]) => calls.push(args), read: () => undefined };
    expect(compiled(source)(e)).toBeUndefined();
    expect(calls).toEqual([[99, -1, 24, []]]);
    Object.assign(e, { x: 1 });
    compiled(source)(e);
    expect(e.pc).toBe(30);
    Object.assign(e, { x: 2 });
    compiled(source)(e);
    expect(e).toMatchObject({ pc: 46, stop: 1 });
  });

  it('holds at most the given number of blocks', () => {
    const chain: Record<number, string> = {};
    for (let pc = 10; pc < 200; pc += 10) chain[pc] = `if(e.go) {e.pc=${pc + 10};return};return 0`;
    const source = superblockSource(vmWith(chain), 10, 4);
    expect(source.match(/case \d+:/g)).toEqual(['case 10:', 'case 20:', 'case 30:', 'case 40:']);
    expect(source).toContain('{e.pc=50;return}');
  });

  it('throws when its entry cannot be disassembled, and puts the pc and stop flag back', () => {
    const vm = vmWith({});
    expect(() => superblockSource(vm, 10)).toThrow(/Unknown opcode #0 at pc=10/);
    expect(vm.pc).toBe(0);
    expect(vm.stop).toBe(0);
  });
});
