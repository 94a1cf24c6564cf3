/**
 * How Jericho 3.3.1 reads an object's name, quirks included, so its readings can be told valid or
 * not: its get_text (frotz/src/common/text.c) writes an abbreviation's expansion without moving
 * past it, so the following letters overwrite it and the name loses every abbreviation.
 */

const ALPHABETS = ['abcdefghijklmnopqrstuvwxyz', 'ABCDEFGHIJKLMNOPQRSTUVWXYZ', '\0\n0123456789.,!?_#\'"/\\-:()'];

/**
 * An object's short name as Jericho reads it: its get_text writes an abbreviation's expansion
 * without moving past it, so what follows overwrites it and the end of the name cuts off the rest;
 * every abbreviation drops out. `garbled` says whether the name had one.
 */
export function jerichoName(mem: Uint8Array, addr: number, words: number, version: number): { text: string; garbled: boolean } {
  const custom = version >= 5 ? (mem[0x34] << 8) | mem[0x35] : 0;
  const letter = (alphabet: number, index: number) =>
    custom && !(alphabet === 2 && index < 2) ? String.fromCharCode(mem[custom + 26 * alphabet + index]) : ALPHABETS[alphabet][index];
  let text = '';
  let garbled = false;
  let shift = 0;
  let pending: 'abbreviation' | 'high' | 'low' | undefined;
  let high = 0;
  for (let w = 0; w < words; w++) {
    const word = (mem[addr + 2 * w] << 8) | mem[addr + 2 * w + 1];
    for (const c of [(word >> 10) & 31, (word >> 5) & 31, word & 31]) {
      if (pending === 'abbreviation') pending = undefined;
      else if (pending === 'high') [high, pending] = [c, 'low'];
      else if (pending === 'low') {
        text += String.fromCharCode((high << 5) | c);
        pending = undefined;
      } else if (c === 0) text += ' ';
      else if (c <= 3) [garbled, pending] = [true, 'abbreviation'];
      else if (c <= 5) {
        shift = c - 3;
        continue;
      } else if (shift === 2 && c === 6) pending = 'high';
      else text += letter(shift, c - 6);
      shift = 0;
    }
  }
  return { text, garbled };
}
