/**
 * The story's dictionary (spec §13): every word the parser knows, with the part-of-speech flags
 * the compiler left in each entry. Candidate commands are built only from these words.
 */
export interface DictWord {
  addr: number;
  text: string;
  /** The data bytes after the encoded text (flags first). */
  data: Uint8Array;
}

export class Dictionary {
  readonly words: DictWord[];
  /** Maximum letters the story stores per word (6 in v3, 9 in v4+); longer input is truncated when matched. */
  readonly resolution: number;
  private readonly byText = new Map<string, DictWord>();
  private readonly byAddr = new Map<number, DictWord>();

  constructor(mem: Uint8Array, addr: number, version: number, decode: (addr: number, lengthBytes: number) => string) {
    const textBytes = version <= 3 ? 4 : 6;
    this.resolution = version <= 3 ? 6 : 9;
    const separators = mem[addr];
    let at = addr + 1 + separators;
    const entryLength = mem[at];
    const rawCount = (mem[at + 1] << 8) | mem[at + 2];
    const count = rawCount & 0x8000 ? 0x10000 - rawCount : rawCount;
    at += 3;
    this.words = [];
    for (let i = 0; i < count; i++, at += entryLength) {
      if (at + entryLength > mem.length) break;
      const text = decode(at, textBytes);
      const w: DictWord = { addr: at, text, data: mem.subarray(at + textBytes, at + entryLength) };
      this.words.push(w);
      if (!this.byText.has(text)) this.byText.set(text, w);
      this.byAddr.set(at, w);
    }
  }

  /** The entry the parser would match for `word`, if any. */
  lookup(word: string): DictWord | undefined {
    return this.byText.get(word.toLowerCase().slice(0, this.resolution));
  }

  has(word: string): boolean {
    return this.lookup(word) !== undefined;
  }

  at(addr: number): DictWord | undefined {
    return this.byAddr.get(addr);
  }
}
