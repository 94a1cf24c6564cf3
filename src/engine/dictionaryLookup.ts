/**
 * ZVM's @read and @tokenise look each typed word up in a plain object keyed by the word's encoded
 * bytes joined into a string ("12,34,56,78"). A story's dictionary has hundreds to thousands of
 * entries, so V8 keeps that object as a slow hash, and every lookup first builds the string: a few
 * percent of the valid-action search, which types tens of thousands of commands a state. Here the
 * encoded bytes are read as one number (4 bytes in versions 1-3, 6 after: under 2^48, exact in a
 * double) and looked up in a Map. Everything else is ZVM's tokenise as it was (zvm/text.js):
 * the same word splitting, encoding, buffer limits and `flag` rule, and, as in ZVM, a dictionary
 * is read once, when a command is first looked up in it. A typed word's encoding is kept too: the
 * search types the same few hundred words over and over.
 */
import type { Zvm } from './zvm';

/** The ZVM internals tokenise uses, beyond the contract in ./zvm. */
interface TokenisingZvm {
  m: DataView;
  ram: DataView;
  version: number;
  version3: boolean;
  dict: number;
  encode(zscii: number[]): number[];
  tokenise(bufaddr: number, parseaddr: number, dictionary?: number, flag?: number): void;
}

interface Dictionary {
  separators: number[];
  /** Encoded word (see encodedKey) -> the entry's address. */
  entries: Map<number, number>;
}

/** The encoded bytes of a dictionary word as one number. */
function encodedKey(bytes: ArrayLike<number>, length: number): number {
  let key = 0;
  for (let i = 0; i < length; i++) key = key * 256 + bytes[i];
  return key;
}

function readDictionary(memory: DataView, start: number, wordBytes: number): Dictionary {
  let addr = start;
  const separatorCount = memory.getUint8(addr++);
  const separators: number[] = [];
  for (let i = 0; i < separatorCount; i++) separators.push(memory.getUint8(addr++));
  const entryLength = memory.getUint8(addr++);
  // A negative count marks an unsorted dictionary (§13.5); ZVM reads the count unsigned, and so does this.
  const end = addr + 2 + entryLength * memory.getUint16(addr);
  addr += 2;
  const bytes = new Uint8Array(memory.buffer, memory.byteOffset, memory.byteLength);
  const entries = new Map<number, number>();
  for (; addr < end; addr += entryLength) entries.set(encodedKey(bytes.subarray(addr, addr + wordBytes), wordBytes), addr);
  return { separators, entries };
}

/** Typed words whose encoding is kept; past this many the cache starts over (typed text is unbounded). */
const MAX_KEPT_WORDS = 20_000;

export function fasterDictionaryLookup(vm: Zvm): void {
  const zvm = vm as unknown as TokenisingZvm;
  const dictionaries = new Map<number, Dictionary>();
  // The story's alphabets and version never change, so neither does a word's encoding.
  const encodedWords = new Map<string, number>();
  const keyOf = (self: TokenisingZvm, letters: number[], wordBytes: number): number => {
    const word = String.fromCharCode(...letters);
    let key = encodedWords.get(word);
    if (key === undefined) {
      if (encodedWords.size >= MAX_KEPT_WORDS) encodedWords.clear();
      key = encodedKey(self.encode(letters), wordBytes);
      encodedWords.set(word, key);
    }
    return key;
  };
  zvm.tokenise = function (this: TokenisingZvm, bufaddr: number, parseaddr: number, dictionaryAddr?: number, flag?: number) {
    const wordBytes = this.version3 ? 4 : 6;
    const at = dictionaryAddr || this.dict;
    let dictionary = dictionaries.get(at);
    if (!dictionary) {
      dictionary = readDictionary(this.m, at, wordBytes);
      dictionaries.set(at, dictionary);
    }
    const memory = this.m;
    const ram = this.ram;
    const { separators, entries } = dictionary;
    let i = 1;
    let bufferLength = 1e3;
    // In versions 5 and later the buffer says how many characters were typed.
    if (this.version > 4) bufferLength = memory.getUint8(bufaddr + i++) + 2;
    // Words and their start positions; each separator is a word of its own, spaces are none.
    const words: Array<{ letters: number[]; position: number }> = [];
    let word: number[] | null = null;
    for (; i < bufferLength; i++) {
      const letter = memory.getUint8(bufaddr + i);
      if (letter === 0) break;
      if (letter === 32 || separators.includes(letter)) {
        if (letter !== 32) words.push({ letters: [letter], position: i });
        word = null;
      } else {
        if (!word) {
          word = [];
          words.push({ letters: word, position: i });
        }
        word.push(letter);
      }
    }
    const maxWords = Math.min(words.length, memory.getUint8(parseaddr));
    for (let count = 0; count < maxWords; count++) {
      const { letters, position } = words[count];
      const entry = entries.get(keyOf(this, letters, wordBytes)) ?? 0;
      // With the flag set, a word not in the dictionary leaves its slot as it was.
      if (!flag || entry) {
        ram.setUint16(parseaddr + 2 + count * 4, entry);
        ram.setUint8(parseaddr + 4 + count * 4, letters.length);
        ram.setUint8(parseaddr + 5 + count * 4, position);
      }
    }
    ram.setUint8(parseaddr + 1, maxWords);
  };
}
