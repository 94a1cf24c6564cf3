/**
 * Decodes the parser's grammar (verb/syntax) tables from the story file, for Infocom (fixed and
 * variable entry formats) and Inform (GV1 and GV2) games. The layout knowledge follows the
 * Inform Technical Manual and the published descriptions of Infocom's syntax tables; grue uses
 * it to build candidate commands without any hand-written, per-game verb list.
 */
import { Dictionary, DictWord } from './dictionary';
import type { StoryInfo } from './story';

export type GrammarFormat = 'infocom-fixed' | 'infocom-variable' | 'inform-gv1' | 'inform-gv2' | 'none';

/** One slot of a grammar line. */
export type Token =
  /** A word of the line; `alternatives`: the other words the story accepts in its place ('from'/'off'). */
  | { kind: 'word'; text: string; alternatives?: string[] }
  /**
   * An object slot. `held`: the parser wants something the player carries. `multi`: the slot
   * takes several objects or "all" (Inform's multi tokens, ZIL's MANY). `inside`: the object must
   * be in the line's other object (Inform's multiinside: "take X from Y"). `search`: the slot's
   * code as the story stores it (ZIL's search bits, Inform's token type), which decides where the
   * parser looks for its objects and what "all" stands for there.
   */
  | {
      kind: 'object';
      held: boolean;
      creature: boolean;
      multi: boolean;
      inside: boolean;
      search: number;
      /** ZIL's FIND: the attribute the parser looks for to fill the slot ("give X to Y": the actors'); absent when none. */
      find?: number;
    }
  /** Free text (Inform's `topic`): filled with nouns. */
  | { kind: 'topic' }
  /** Inform's `number` and `special` (a number or any one word): filled with the number words the scene shows (see candidates.ts). */
  | { kind: 'number' }
  /** Quoted strings, parsing routines: slots grue cannot fill generically. */
  | { kind: 'unfillable' };

export interface GrammarLine {
  /** The first dictionary word for this verb; synonyms share the line. */
  verb: string;
  synonyms: string[];
  /** The game's action number: lines with the same action and objects do the same thing. */
  action: number;
  tokens: Token[];
  meta: boolean;
}

export interface Grammar {
  format: GrammarFormat;
  lines: GrammarLine[];
  /** Words that are a complete movement command on their own. */
  directions: string[];
}

/** The compass as players type it. */
export const STANDARD_DIRECTIONS = [
  'north',
  'south',
  'east',
  'west',
  'northeast',
  'northwest',
  'southeast',
  'southwest',
  'up',
  'down',
  'in',
  'out',
];

const word = (m: Uint8Array, a: number) => (m[a] << 8) | m[a + 1];

/** Inform's elementary tokens `special` and `number`, as both grammar versions number them (Inform Technical Manual §8). */
const INFORM_SPECIAL = 7;
const INFORM_NUMBER = 8;

// Infocom dictionary flags (ZIL PS?* bits) and which data byte holds which number.
const PS_VERB = 0x40;
const PS_PREP = 0x08;
const PS_DIR = 0x10;
const P1_MASK = 0x03;
const P1_VERB = 0x01;
const P1_PREP = 0x00;

// Inform dictionary flags.
const IF_VERB = 0x01;
const IF_META = 0x02;
const IF_PREP = 0x08;

function detectFormat(mem: Uint8Array, info: StoryInfo): GrammarFormat {
  const base = info.staticBase;
  const first = word(mem, base);
  const second = word(mem, base + 2);
  if (first === 0 || first <= base || first >= mem.length) return 'none';
  const count = mem[first];
  if (!info.inform) {
    if (count === 0) return 'infocom-fixed';
    return (second - first) / count <= 7 ? 'infocom-variable' : 'infocom-fixed';
  }
  // Inform 6 stores its compiler version at 0x3C ("6.21" etc.); Inform 5 wrote GV1-like tables.
  if (mem[0x3c] !== 0x36) return 'inform-gv1';
  const span = second - first;
  if (span % 8 === 1 && (span - 1) / 8 === count) {
    // Ambiguous size; GV1 lines have at most 6 objects and small token values.
    let at = first + 1;
    for (let i = 0; i < count; i++, at += 8) {
      if (mem[at] > 6) return 'inform-gv2';
    }
    return 'inform-gv1';
  }
  return 'inform-gv2';
}

function verbWords(dict: Dictionary, format: GrammarFormat): Map<number, DictWord[]> {
  const out = new Map<number, DictWord[]>();
  for (const w of dict.words) {
    const flags = w.data[0];
    let index: number | null = null;
    if (format.startsWith('infocom')) {
      if (flags & PS_VERB) index = 255 - ((flags & P1_MASK) === P1_VERB ? w.data[1] : w.data[2]);
    } else if (flags & IF_VERB) {
      index = 255 - w.data[1];
    }
    if (index === null) continue;
    const list = out.get(index) ?? [];
    list.push(w);
    out.set(index, list);
  }
  return out;
}

/** Entry sizes of Infocom's variable-length syntax format, by object count (the top two bits of its first byte). */
const VARIABLE_ENTRY_SIZES = [2, 4, 7, 0];

/**
 * Infocom's preposition table: a word count, then per preposition its dictionary address and its
 * number (a word, or in later games a byte). It follows the action and pre-action tables, which
 * follow the syntax entries (ZIL's compiler lays them out in that order; infodump finds the table
 * the same way). Synonyms share a number and the first listed is the one the grammar was written
 * with ("with", not "using"). Returns null when the table is not where it should be.
 */
function infocomPrepositionTable(mem: Uint8Array, base: number, format: GrammarFormat, dict: Dictionary): Map<number, string> | null {
  const verbCount = (word(mem, base) - base) / 2;
  let end = 0;
  let actions = 0;
  for (let i = 0; i < verbCount; i++) {
    let at = word(mem, base + 2 * i);
    if (at <= 0 || at >= mem.length) return null;
    const count = mem[at++];
    for (let l = 0; l < count; l++) {
      const size = format === 'infocom-fixed' ? 8 : VARIABLE_ENTRY_SIZES[(mem[at] >> 6) & 3];
      if (!size) return null;
      actions = Math.max(actions, format === 'infocom-fixed' ? mem[at + 7] : mem[at + 1]);
      at += size;
    }
    end = Math.max(end, at);
  }
  while (end < mem.length && mem[end] === 0) end++;
  const table = end + 2 * 2 * (actions + 1);
  if (table + 6 > mem.length) return null;
  const count = word(mem, table);
  const byteNumbers = mem[table + 4] !== 0;
  const out = new Map<number, string>();
  for (let i = 0, at = table + 2; i < count; i++, at += byteNumbers ? 3 : 4) {
    const entry = dict.at(word(mem, at));
    if (!entry) return null;
    const number = byteNumbers ? mem[at + 2] : word(mem, at + 2);
    if (!out.has(number)) out.set(number, entry.text);
  }
  return out.size ? out : null;
}

/** Prepositions by number from the dictionary's own data, for stories whose table is not found. */
function infocomDictionaryPrepositions(dict: Dictionary): Map<number, string> {
  const out = new Map<number, string>();
  for (const w of dict.words) {
    const flags = w.data[0];
    if (!(flags & PS_PREP)) continue;
    const num = (flags & P1_MASK) === P1_PREP ? w.data[1] : w.data[2];
    if (!out.has(num)) out.set(num, w.text);
  }
  return out;
}

function inform5Prepositions(dict: Dictionary): Map<number, string> {
  // Inform 5/GV1 numbers prepositions ("adjectives") 255 downwards in the third data byte.
  const out = new Map<number, string>();
  for (const w of dict.words) {
    if (w.data[0] & IF_PREP && w.data.length > 2 && !out.has(w.data[2])) out.set(w.data[2], w.text);
  }
  return out;
}

function isMetaInform(words: DictWord[]): boolean {
  return words.some((w) => (w.data[0] & IF_META) !== 0);
}

// ZIL syntax search bits: SHAVE (the object must be carried; the parser may pick it up first, and
// candidates assume it is held) and SMANY (several objects or "all").
const ZIL_HAVE = 0x02;
const ZIL_MANY = 0x04;

function infocomObject(locBits: number, find: number): Token {
  return {
    kind: 'object',
    held: (locBits & ZIL_HAVE) !== 0,
    creature: false,
    multi: (locBits & ZIL_MANY) !== 0,
    inside: false,
    search: locBits,
    ...(find ? { find } : {}),
  };
}

/** Inform's object token types: 0 noun, 1 held, 2 multi, 3 multiheld, 4 multiexcept, 5 multiinside, 6 creature. */
function informObject(type: number): Token {
  return {
    kind: 'object',
    held: type === 1 || type === 3,
    creature: type === 6,
    multi: type >= 2 && type <= 5,
    inside: type === 5,
    search: type,
  };
}

export function decodeGrammar(mem: Uint8Array, info: StoryInfo, dict: Dictionary): Grammar {
  const format = detectFormat(mem, info);
  const directions: string[] = [];
  if (format.startsWith('infocom')) {
    for (const w of dict.words) if (w.data[0] & PS_DIR && !directions.includes(w.text)) directions.push(w.text);
  } else {
    for (const d of STANDARD_DIRECTIONS) if (dict.has(d)) directions.push(d);
  }
  if (format === 'none') return { format, lines: [], directions };

  const verbs = verbWords(dict, format);
  const base = info.staticBase;
  const firstEntry = word(mem, base);
  const verbCount = (firstEntry - base) / 2;
  const preps = format.startsWith('infocom')
    ? (infocomPrepositionTable(mem, base, format, dict) ?? infocomDictionaryPrepositions(dict))
    : inform5Prepositions(dict);
  const lines: GrammarLine[] = [];

  for (let i = 0; i < verbCount; i++) {
    const words = verbs.get(i);
    if (!words || words.length === 0) continue;
    const verb = words[0].text;
    const synonyms = words.map((w) => w.text);
    const meta = format.startsWith('inform') && isMetaInform(words);
    let at = word(mem, base + 2 * i);
    if (at <= 0 || at >= mem.length) continue;
    const count = mem[at++];
    for (let l = 0; l < count && at < mem.length; l++) {
      const tokens: Token[] = [];
      let action: number;
      if (format === 'infocom-fixed') {
        const [objs, p1, p2, find1, find2, loc1, loc2, act] = mem.subarray(at, at + 8);
        at += 8;
        action = act;
        const prep = (p: number) => (p >= 0x80 && preps.has(p) ? tokens.push({ kind: 'word', text: preps.get(p)! }) : undefined);
        prep(p1);
        if (objs >= 1) tokens.push(infocomObject(loc1, find1));
        prep(p2);
        if (objs >= 2) tokens.push(infocomObject(loc2, find2));
      } else if (format === 'infocom-variable') {
        const head = mem[at];
        const objs = (head >> 6) & 3;
        const size = VARIABLE_ENTRY_SIZES[objs];
        if (!size) break;
        action = mem[at + 1];
        const prepOf = (b: number) => {
          if (!(b & 0x3f)) return;
          const text = preps.get(b | 0xc0) ?? preps.get(b & 0x3f);
          if (text) tokens.push({ kind: 'word', text });
        };
        prepOf(head);
        if (objs >= 1) tokens.push(infocomObject(mem[at + 3], mem[at + 2]));
        if (objs >= 2) {
          prepOf(mem[at + 4]);
          tokens.push(infocomObject(mem[at + 6], mem[at + 5]));
        }
        at += size;
      } else if (format === 'inform-gv1') {
        const entry = mem.subarray(at, at + 8);
        at += 8;
        action = entry[7];
        let objs = entry[0];
        for (let t = 1; t < 7; t++) {
          const v = entry[t];
          if (v === 0 && objs === 0) break;
          if (v >= 0xb0) {
            const text = preps.get(v);
            tokens.push(text ? { kind: 'word', text } : { kind: 'unfillable' });
            continue;
          }
          objs--;
          if (v <= 6 || (v >= 16 && v < 48) || (v >= 80 && v < 112) || (v >= 128 && v < 176)) {
            tokens.push(v <= 6 ? informObject(v) : informObject(0));
          } else tokens.push(v === INFORM_SPECIAL || v === INFORM_NUMBER ? { kind: 'number' } : { kind: 'unfillable' });
        }
      } else {
        const head = word(mem, at);
        at += 2;
        action = head & 0x3ff;
        for (let guard = 0; guard < 32 && at < mem.length; guard++) {
          const type = mem[at];
          if (type === 0x0f) {
            at += 1;
            break;
          }
          const data = word(mem, at + 1);
          at += 3;
          // A token flagged 0x10 is an alternative to the one before it ('in'/'into'): the first
          // stands for the line, the others are kept beside it.
          if (type & 0x10) {
            const previous = tokens[tokens.length - 1];
            const w = (type & 0x0f) === 2 ? dict.at(data) : undefined;
            if (previous?.kind === 'word' && w) previous.alternatives = [...(previous.alternatives ?? []), w.text];
            continue;
          }
          switch (type & 0x0f) {
            case 1:
              if (data <= 6) tokens.push(informObject(data));
              else if (data === 9) tokens.push({ kind: 'topic' });
              else if (data === INFORM_SPECIAL || data === INFORM_NUMBER) tokens.push({ kind: 'number' });
              else tokens.push({ kind: 'unfillable' });
              break;
            case 2: {
              const w = dict.at(data);
              tokens.push(w ? { kind: 'word', text: w.text } : { kind: 'unfillable' });
              break;
            }
            case 3:
            case 4:
            case 5:
              tokens.push(informObject(0));
              break;
            default:
              tokens.push({ kind: 'unfillable' });
          }
        }
      }
      lines.push({ verb, synonyms, action, tokens, meta });
    }
  }
  return { format, lines, directions };
}
