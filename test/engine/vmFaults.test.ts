import { GameSession, InstructionBudgetError, VmFaultError } from '../../src/engine';
import { decodeZChars, readZChars, ZTextTables } from '../../src/engine/zText';
import { GARBLED_TEXT, packZChars, syntheticStory } from './syntheticStory';

const STORY_NAME = 'synthetic.z3 (r1-s000001)';

function session(options = {}): GameSession {
  return GameSession.fromBytes(syntheticStory(), options, 'tests/synthetic.z3');
}

function caught(run: () => unknown): unknown {
  try {
    run();
  } catch (err) {
    return err;
  }
  throw new Error('expected an error');
}

describe('Z-text decoding is bounded', () => {
  const tables: ZTextTables = {
    alphabets: [0, 1, 2].map((a) => Array.from({ length: 26 }, (_, i) => (a === 0 ? 97 : a === 1 ? 65 : 48) + i)),
    zsciiToText: (codes) => String.fromCharCode(...codes),
  };
  const memory = (bytes: number[]) => new DataView(new Uint8Array(bytes).buffer);

  it('drops constructions cut off by the end of the string and keeps the text before them', () => {
    expect(decodeZChars([8, 20, 11, 5, 6, 1], tables, true)).toEqual(['cof']); // escape with one Z-character left
    expect(decodeZChars([8, 20, 5, 6], tables, true)).toEqual(['co']); // escape with neither half
    expect(decodeZChars([8, 20, 3], tables, true)).toEqual(['co']); // abbreviation without its second Z-character
    expect(decodeZChars([8, 20, 5, 6, 1, 2], tables, true)).toEqual(['co"']); // a whole escape: ZSCII 34
  });

  it('keeps abbreviations as numbers, and skips them inside an abbreviation', () => {
    expect(decodeZChars([6, 2, 3, 7], tables, true)).toEqual(['a', 35, 'b']);
    expect(decodeZChars([6, 2, 3, 7], tables, false)).toEqual(['ab']);
  });

  it('stops at the stop bit, the given length, or the end of memory', () => {
    const bytes = [...packZChars([6, 7, 8]), ...packZChars([9, 10, 11])];
    expect(readZChars(memory(bytes), 0)).toEqual([6, 7, 8]);
    bytes[0] &= 0x7f; // no stop bit on the first word: the string runs into the second
    expect(readZChars(memory(bytes), 0)).toEqual([6, 7, 8, 9, 10, 11]);
    expect(readZChars(memory(bytes), 0, 2)).toEqual([6, 7, 8]);
    bytes[2] &= 0x7f; // no stop bit anywhere: memory ends the string
    expect(readZChars(memory(bytes), 0)).toEqual([6, 7, 8, 9, 10, 11]);
    expect(readZChars(memory(bytes), 3)).toEqual([]); // half a word left
  });

  it('loads a story whose dictionary has a cut-off escape and whose abbreviation uses itself, and prints its malformed string', () => {
    const started = Date.now();
    const s = GameSession.fromBytes(syntheticStory({ cutOffDictionaryWord: true }), {}, 'synthetic.z3');
    expect(s.dictionary.words.map((w) => w.text)).toEqual(['crash', 'garble', 'score', 'pull', 'underf', 'recurs', 'far', 'badpar', 'cof']);
    expect(s.step('garble').observation).toBe(GARBLED_TEXT);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});

describe('a pull from an empty routine stack', () => {
  it("reads the routine's last local, as frotz does (@ret_popped in a routine called with 7 returns 7)", () => {
    expect(session().step('pull').observation).toBe('7');
  });

  it('is a typed stack underflow fault in a routine without locals', () => {
    const err = caught(() => session().step('underflow'));
    expect(err).toBeInstanceOf(VmFaultError);
    expect((err as VmFaultError).location).toMatchObject({ story: STORY_NAME, instruction: 'ret_popped (0OP:8, byte 0xb8)' });
    expect((err as Error).message).toMatch(/stack underflow/);
  });
});

describe('VM faults are typed errors that name the story, the pc and the instruction', () => {
  it('an illegal instruction: the step fails with the location, the session refuses to go on, and a restore revives it', () => {
    const s = session();
    const before = s.snapshot();
    s.step('score');
    const err = caught(() => s.step('crash')) as VmFaultError;
    expect(err).toBeInstanceOf(VmFaultError);
    expect(err.code).toBe('VM_FAULT');
    expect(err.location?.story).toBe(STORY_NAME);
    expect(s.mem[err.location?.pc ?? -1]).toBe(0x00);
    expect(err.location?.instruction).toBe('no instruction (2OP:0, byte 0x00)');
    expect(err.message).toContain(`${STORY_NAME} at pc ${err.location?.pc}, no instruction (2OP:0, byte 0x00)`);
    expect(err.message).toMatch(/restore a snapshot/);

    expect(() => s.step('score')).toThrow(/restore a snapshot before stepping again/);
    s.restore(before);
    expect(s.step('score')).toMatchObject({ observation: 'scored', score: 1 });
    expect(s.step('hello').observation).toBe('ok');
  });

  it('a JavaScript error inside compiled code (a call beyond the story) is traced to the call instruction', () => {
    const s = session();
    const before = s.snapshot();
    const err = caught(() => s.step('far')) as VmFaultError;
    expect(err).toBeInstanceOf(VmFaultError);
    expect(err.location?.instruction).toBe('call (VAR:0, byte 0xe0)');
    expect([...s.mem.subarray(err.location?.pc ?? 0, (err.location?.pc ?? 0) + 4)]).toEqual([0xe0, 0x3f, 0x7f, 0xff]);
    expect(err.detail).toMatch(/RangeError/);
    s.restore(before);
    expect(s.step('pull').observation).toBe('7');
  });

  it('an error in input handling, outside the run loop, is typed too, and a restore revives the session', () => {
    const s = session();
    const before = s.snapshot();
    s.step('badparse');
    const err = caught(() => s.step('hello')) as VmFaultError;
    expect(err).toBeInstanceOf(VmFaultError);
    expect(err.location?.story).toBe(STORY_NAME);
    expect(err.detail).toMatch(/RangeError/);
    s.restore(before);
    expect(s.step('score')).toMatchObject({ observation: 'scored', score: 1 });
    expect(s.step('hello').observation).toBe('ok');
  });

  it('endless recursion fills the Z-machine stack: a typed fault at the recursive call, not a crash', () => {
    const s = session();
    const before = s.snapshot();
    const err = caught(() => s.step('recurse'));
    expect(err).toBeInstanceOf(VmFaultError);
    expect((err as VmFaultError).location?.instruction).toBe('call (VAR:0, byte 0xe0)');
    s.restore(before);
    expect(s.step('hello').observation).toBe('ok');
  });

  it('the instruction budget error names the story and where the game was', () => {
    const s = session({ blockBudget: 500 });
    const before = s.snapshot();
    const err = caught(() => s.step('recurse')) as InstructionBudgetError;
    expect(err).toBeInstanceOf(InstructionBudgetError);
    expect(err.code).toBe('INSTRUCTION_BUDGET');
    expect(err.location).toMatchObject({ story: STORY_NAME, instruction: 'call (VAR:0, byte 0xe0)' });
    expect(err.message).toMatch(new RegExp(`^synthetic\\.z3 \\(r1-s000001\\) at pc \\d+, call .*without asking for input`));
    s.restore(before);
    expect(s.step('hello').observation).toBe('ok');
  });
});
