/**
 * A tiny version-3 story assembled byte by byte, for engine tests that need code or text no real
 * game offers on demand: an illegal instruction behind a command, malformed strings.
 *
 * Its main loop reads a command and answers: `crash` runs a 0x00 byte (no Z-machine
 * instruction), `garble` prints a malformed string, `score` adds a point, `pull` prints what a
 * routine called with 7 returns by @ret_popped from its empty stack, `underflow` does that in a
 * routine without locals, `recurse` calls a routine that calls itself forever, `far` calls a
 * routine beyond the end of the story, `badparse` reads the next command into a parse buffer
 * beyond the end of the story (an error in ZVM's input handling, outside its run loop); anything
 * else prints "ok" (or, built with `crashAfter`, scores and faults in the end: see syntheticStory).
 *
 * The abbreviation table's entry 0 points at a string that uses abbreviation 0 itself (illegal:
 * abbreviations may not contain abbreviations). Optionally the dictionary also holds a word cut
 * off mid-escape, and the header's first word is chosen so that a decoder which reads that cut-off
 * construction as abbreviation "NaN" (word 0) lands on the self-referencing string.
 */

const ABBREVIATIONS = 0x040;
const OBJECTS = 0x100;
const ROOM_PROPS = 0x150;
const PLAYER_PROPS = 0x170;
const GLOBALS = 0x200;
const TEXT_BUFFER = 0x3e0;
const PARSE_BUFFER = 0x420;
const DICTIONARY = 0x460;
const CODE = 0x500;
/** Abbreviation 0's text: "loop" followed by abbreviation 0 again. Word address 0x300, matching the header's first word. */
const SELF_ABBREVIATION = 0x600;
const GARBLED = 0x610;
const SIZE = 0x700;

/** Variable number of global n (§4.2.2). */
const global = (n: number) => 0x10 + n;
const COMMAND_WORD = global(16);
const SCORE = global(1);

/** Z-characters for lowercase letters and spaces (alphabet A0, §3.5.3). */
function zcharsOf(text: string): number[] {
  return [...text].map((c) => (c === ' ' ? 0 : c.charCodeAt(0) - 97 + 6));
}

/** Pack Z-characters three to a word, padding with 5 and setting the stop bit on the last word (§3.2). */
export function packZChars(zchars: number[], padTo = 0): number[] {
  const all = [...zchars];
  while (all.length < padTo || all.length % 3 !== 0) all.push(5);
  const bytes: number[] = [];
  for (let i = 0; i < all.length; i += 3) {
    const word = (all[i] << 10) | (all[i + 1] << 5) | all[i + 2] | (i + 3 >= all.length ? 0x8000 : 0);
    bytes.push(word >> 8, word & 0xff);
  }
  return bytes;
}

/** The command words. */
const COMMAND_WORDS: Array<{ zchars: number[]; word: string }> = [
  { zchars: zcharsOf('crash'), word: 'crash' },
  { zchars: zcharsOf('garble'), word: 'garble' },
  { zchars: zcharsOf('score'), word: 'score' },
  { zchars: zcharsOf('pull'), word: 'pull' },
  { zchars: zcharsOf('underf'), word: 'underflow' },
  { zchars: zcharsOf('recurs'), word: 'recurse' },
  { zchars: zcharsOf('far'), word: 'far' },
  { zchars: zcharsOf('badpar'), word: 'badparse' },
];
/** A dictionary word whose text ends in a cut-off ZSCII escape (5, 6, then one Z-character), like one of Ludicorp's. */
const CUT_OFF_WORD = { zchars: [...zcharsOf('cof'), 5, 6, 1], word: 'cof' };

/** What `garble` prints: "ab", abbreviation 0 ("loop", its own use of abbreviation 0 skipped), a cut-off escape (dropped). */
export const GARBLED_TEXT = 'abloop';

class Assembler {
  readonly bytes: number[] = [];
  private readonly labels = new Map<string, number>();
  private readonly fixups: Array<{ at: number; label: string; kind: 'branch' | 'jump' | 'packed' }> = [];

  constructor(private readonly origin: number) {}

  get here(): number {
    return this.origin + this.bytes.length;
  }

  label(name: string): void {
    this.labels.set(name, this.here);
  }

  emit(...bytes: number[]): void {
    this.bytes.push(...bytes);
  }

  /** A two-byte branch on true to `label` (§4.7). */
  branch(label: string): void {
    this.fixups.push({ at: this.bytes.length, label, kind: 'branch' });
    this.emit(0, 0);
  }

  /** @jump to `label` (1OP:12 with a large constant, §15). */
  jump(label: string): void {
    this.emit(0x8c);
    this.fixups.push({ at: this.bytes.length, label, kind: 'jump' });
    this.emit(0, 0);
  }

  /** A routine's packed address (§1.2.3, version 3), as a large constant. */
  packed(label: string): void {
    this.fixups.push({ at: this.bytes.length, label, kind: 'packed' });
    this.emit(0, 0);
  }

  /** Routines start at even addresses in version 3. */
  align(): void {
    if (this.here % 2) this.emit(0xb4); // nop
  }

  resolve(): number[] {
    for (const { at, label, kind } of this.fixups) {
      const target = this.labels.get(label);
      if (target === undefined) throw new Error(`no label ${label}`);
      const offset = kind === 'packed' ? target / 2 : target - (this.origin + at + 2) + 2;
      if (kind === 'branch') {
        this.bytes[at] = 0x80 | ((offset >> 8) & 0x3f);
        this.bytes[at + 1] = offset & 0xff;
      } else {
        this.bytes[at] = (offset >> 8) & 0xff;
        this.bytes[at + 1] = offset & 0xff;
      }
    }
    return this.bytes;
  }
}

function mainRoutine(wordAddress: (word: string) => number, crashAfter?: number): number[] {
  const a = new Assembler(CODE);
  const hi = (n: number) => (n >> 8) & 0xff;
  const lo = (n: number) => n & 0xff;
  a.label('loop');
  a.emit(0xe4, 0x0f, hi(TEXT_BUFFER), lo(TEXT_BUFFER), hi(PARSE_BUFFER), lo(PARSE_BUFFER)); // sread text parse
  a.emit(0xcf, 0x1f, hi(PARSE_BUFFER), lo(PARSE_BUFFER), 1, COMMAND_WORD); // loadw parse 1 -> command word
  for (const word of ['crash', 'garble', 'score', 'pull', 'underflow', 'recurse', 'far', 'badparse']) {
    const entry = wordAddress(word);
    a.emit(0xc1, 0x8f, COMMAND_WORD, hi(entry), lo(entry)); // je command word, entry
    a.branch(word);
  }
  if (crashAfter !== undefined) {
    a.emit(0x95, SCORE); // inc score
    a.emit(0x43, SCORE, crashAfter); // jg score, crashAfter
    a.branch('crash');
  }
  a.emit(0xb2, ...packZChars(zcharsOf('ok'))); // print "ok"
  a.emit(0xbb); // new_line
  a.jump('loop');
  a.label('crash');
  a.emit(0x00, 0x00, 0x00); // long-form 2OP:0: no such instruction
  a.label('garble');
  a.emit(0x8d, hi(GARBLED / 2), lo(GARBLED / 2)); // print_paddr
  a.emit(0xbb);
  a.jump('loop');
  a.label('score');
  a.emit(0x95, SCORE); // inc score
  a.emit(0xb2, ...packZChars(zcharsOf('scored')));
  a.emit(0xbb);
  a.jump('loop');
  const callThenPrint = (routine: string, args: number[]) => {
    a.emit(0xe0, args.length ? 0x1f : 0x3f); // call routine [arg] -> sp
    a.packed(routine);
    a.emit(...args, 0x00);
    a.emit(0xe6, 0xbf, 0x00); // print_num sp
    a.emit(0xbb);
    a.jump('loop');
  };
  a.label('pull');
  callThenPrint('one local', [7]);
  a.label('underflow');
  callThenPrint('no locals', []);
  a.label('recurse');
  callThenPrint('recursive', []);
  a.label('far');
  a.emit(0xe0, 0x3f, 0x7f, 0xff, 0x00); // call the packed address 0x7fff, far beyond the story
  a.jump('loop');
  a.label('badparse');
  a.emit(0xe4, 0x0f, hi(TEXT_BUFFER), lo(TEXT_BUFFER), 0xff, 0xf0); // sread text 0xfff0: a parse buffer beyond the story
  a.jump('loop');
  a.align();
  a.label('one local');
  a.emit(0x01, 0x00, 0x00); // one local (the argument)
  a.emit(0xe8, 0x7f, 0x05, 0xb9); // push 5; pop
  a.emit(0xb8); // ret_popped with nothing left on the stack
  a.align();
  a.label('no locals');
  a.emit(0x00, 0xb8); // no locals; ret_popped with nothing pushed
  a.align();
  a.label('recursive');
  a.emit(0x00, 0xe0, 0x3f); // no locals; call itself -> sp
  a.packed('recursive');
  a.emit(0x00, 0xb8);
  return a.resolve();
}

/**
 * With `cutOffDictionaryWord`, the dictionary also holds CUT_OFF_WORD. With `crashAfter` n, any
 * other command scores a point, and the one that would make it n + 1 runs the illegal instruction.
 */
export function syntheticStory(options: { cutOffDictionaryWord?: boolean; crashAfter?: number } = {}): Uint8Array {
  const words = options.cutOffDictionaryWord ? [...COMMAND_WORDS, CUT_OFF_WORD] : COMMAND_WORDS;
  const mem = new Uint8Array(SIZE);
  const setWord = (at: number, value: number) => {
    mem[at] = (value >> 8) & 0xff;
    mem[at + 1] = value & 0xff;
  };
  // Header (§11). The first word, 0x0300, doubles as the word address of abbreviation 0's text.
  mem[0x00] = 3;
  setWord(0x02, 1);
  setWord(0x04, CODE);
  setWord(0x06, CODE);
  setWord(0x08, DICTIONARY);
  setWord(0x0a, OBJECTS);
  setWord(0x0c, GLOBALS);
  setWord(0x0e, DICTIONARY);
  mem.set(
    [...'000001'].map((c) => c.charCodeAt(0)),
    0x12,
  );
  setWord(0x18, ABBREVIATIONS);
  setWord(0x1a, SIZE / 2);

  // Abbreviations: every entry points at the self-referencing string.
  for (let i = 0; i < 96; i++) setWord(ABBREVIATIONS + 2 * i, SELF_ABBREVIATION / 2);
  mem.set(packZChars([...zcharsOf('loop'), 1, 0]), SELF_ABBREVIATION);
  mem.set(packZChars([...zcharsOf('ab'), 1, 0, 5, 6]), GARBLED);

  // Objects (§12): 1 is the room, 2 the player inside it.
  const object = (n: number, parent: number, child: number, props: number) => {
    const at = OBJECTS + 62 + 9 * (n - 1);
    mem[at + 4] = parent;
    mem[at + 6] = child;
    setWord(at + 7, props);
  };
  object(1, 0, 2, ROOM_PROPS);
  object(2, 1, 0, PLAYER_PROPS);
  for (const [props, name] of [
    [ROOM_PROPS, 'test room'],
    [PLAYER_PROPS, 'yourself'],
  ] as const) {
    const text = packZChars(zcharsOf(name));
    mem[props] = text.length / 2;
    mem.set(text, props + 1);
  }
  setWord(GLOBALS, 1); // the player's location, shown on the status line

  mem[TEXT_BUFFER] = 60;
  mem[PARSE_BUFFER] = 8;

  // Dictionary (§13): no separators, 7-byte entries.
  const entries = DICTIONARY + 4;
  mem[DICTIONARY] = 0;
  mem[DICTIONARY + 1] = 7;
  setWord(DICTIONARY + 2, words.length);
  words.forEach(({ zchars }, i) => mem.set(packZChars(zchars, 6), entries + 7 * i));
  const wordAddress = (word: string) => entries + 7 * words.findIndex((w) => w.word === word);

  const code = mainRoutine(wordAddress, options.crashAfter);
  if (CODE + code.length > SELF_ABBREVIATION) throw new Error('the synthetic story code overlaps its strings');
  mem.set(code, CODE);
  return mem;
}
