/**
 * Z-machine text (standard 1.1 §3), decoded so that no string can hang or overflow the decoder:
 * - a string ends at its stop bit, at the byte length the caller gives (dictionary words,
 *   object names), or at the end of memory, whichever comes first;
 * - abbreviations are expanded one level deep: the standard (§3.3) does not allow an
 *   abbreviation's own text to use abbreviations, so inside one they are skipped rather than
 *   followed (a story that breaks the rule could otherwise point an abbreviation at itself);
 * - a multi-Z-character construction cut off by the end of the string (an abbreviation without
 *   its second Z-character, a ten-bit ZSCII escape without both halves, §3.3 and §3.4) is
 *   dropped, as frotz does, instead of reading past the end.
 */

/** What the decoder needs from the story: its alphabets and how ZSCII becomes text. */
export interface ZTextTables {
  /** Alphabets A0, A1 and A2 as 26 ZSCII codes each, for Z-characters 6 to 31 (§3.5). */
  alphabets: ReadonlyArray<ReadonlyArray<number>>;
  /** ZSCII codes to printable text (§3.8; the story's Unicode translation table included). */
  zsciiToText(codes: number[]): string;
}

/**
 * A decoded string: runs of text, and abbreviation numbers (0-95) where the string uses one.
 * Abbreviations stay numbers because a game may repoint them while it runs (Inform's dynamic
 * strings rewrite the abbreviations table), so they are looked up each time the string is printed.
 */
export type ZTextPiece = string | number;

/** Minimal read access to story memory: ZVM's DataView or a view over the same bytes. */
export interface ZMemory {
  readonly byteLength: number;
  getUint16(byteOffset: number): number;
}

const STOP_BIT = 0x8000;
const SHIFT_A1 = 4;
const SHIFT_A2 = 5;
const ESCAPE = 6;

/** The Z-characters of the string at `addr`, three per word (§3.2). */
export function readZChars(memory: ZMemory, addr: number, byteLength?: number): number[] {
  const end = Math.min(memory.byteLength, byteLength === undefined ? Infinity : addr + byteLength);
  const zchars: number[] = [];
  for (let at = addr; at >= 0 && at + 2 <= end; at += 2) {
    const word = memory.getUint16(at);
    zchars.push((word >> 10) & 0x1f, (word >> 5) & 0x1f, word & 0x1f);
    if (word & STOP_BIT) break;
  }
  return zchars;
}

/**
 * Decode Z-characters into text runs and abbreviation numbers. With `abbreviations` false (the
 * text of an abbreviation itself), abbreviation Z-characters and their partners are skipped.
 */
export function decodeZChars(zchars: number[], tables: ZTextTables, abbreviations: boolean): ZTextPiece[] {
  // No closure here: tsx names every function a const holds at run time (esbuild's keepNames),
  // a cost on each call of a function this hot (every string a game prints).
  const pieces: ZTextPiece[] = [];
  let run: number[] = [];
  let alphabet = 0;
  for (let i = 0; i < zchars.length; i++) {
    const zchar = zchars[i];
    // Shifts last one character in versions 3 and later (§3.2.3).
    const current = alphabet;
    alphabet = 0;
    if (zchar === 0) run.push(32);
    else if (zchar <= 3) {
      if (i + 1 >= zchars.length) break;
      const number = 32 * (zchar - 1) + zchars[++i];
      if (abbreviations) {
        if (run.length) pieces.push(tables.zsciiToText(run));
        run = [];
        pieces.push(number);
      }
    } else if (zchar === SHIFT_A1 || zchar === SHIFT_A2) alphabet = zchar - 3;
    else if (current === 2 && zchar === ESCAPE) {
      if (i + 2 >= zchars.length) break;
      run.push((zchars[i + 1] << 5) | zchars[i + 2]);
      i += 2;
    } else run.push(tables.alphabets[current][zchar - 6]);
  }
  if (run.length) pieces.push(tables.zsciiToText(run));
  return pieces;
}

/** Join decoded pieces, asking `abbreviation` for the text of each abbreviation number. */
export function joinZText(pieces: ZTextPiece[], abbreviation: (number: number) => string): string {
  if (pieces.length === 1 && typeof pieces[0] === 'string') return pieces[0];
  let text = '';
  for (const piece of pieces) text += typeof piece === 'string' ? piece : abbreviation(piece);
  return text;
}
