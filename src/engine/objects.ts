/**
 * The Z-machine object tree, read straight from memory (spec §12), and the world state that
 * Jericho-style hashing and diffing are built on.
 */
import { createHash } from 'node:crypto';

export interface ObjectLayout {
  version: number;
  objectTable: number;
  /** Bytes per object entry: 9 in v3, 14 in v4+. */
  entrySize: number;
  attrBytes: number;
  /** Address of object 1's entry. */
  firstEntry: number;
  count: number;
}

export interface ZObject {
  id: number;
  name: string;
  parent: number;
  sibling: number;
  child: number;
  /** Attribute numbers that are set, ascending. */
  attributes: number[];
}

/** What makes two game states "the same world": where every object is and which attributes it has, plus the score. */
export interface WorldState {
  parents: Uint16Array;
  /** attrBytes per object, object 1 first. */
  attrs: Uint8Array;
  attrBytes: number;
  score: number;
  /** The bytes at the mask's watched addresses, in its order. */
  watched: Uint8Array;
  watchRam?: readonly number[];
}

/** An attribute change a one-way ignore matches: an object or attribute left out matches any. */
export interface AttributeMatch {
  object?: number;
  attribute?: number;
}

const matches = (rules: readonly AttributeMatch[] | undefined, object: number, attribute: number) =>
  rules !== undefined &&
  rules.some((r) => (r.object === undefined || r.object === object) && (r.attribute === undefined || r.attribute === attribute));

/** Whether the mask's one-way rules leave out setting (`set`) or clearing an attribute. */
export function ignoresAttributeChange(mask: WorldMask, set: boolean, object: number, attribute: number): boolean {
  return matches(set ? mask.ignoreWhenSet : mask.ignoreWhenCleared, object, attribute);
}

/** Whether the mask's one-way rules leave out moving `object` into `destination`. */
export function ignoresMove(mask: WorldMask, object: number, destination: number): boolean {
  if (mask.ignoreMovesInto?.has(destination)) return true;
  const only = mask.onlyMovesOfOrInto;
  return only !== undefined && object !== only && destination !== only;
}

/** A net change without what the mask's one-way rules leave out; the same object when they leave out nothing. */
export function withoutOneWayIgnores(diff: WorldDiff, mask: WorldMask): WorldDiff {
  if (!mask.ignoreWhenSet?.length && !mask.ignoreWhenCleared?.length && !mask.ignoreMovesInto?.size && mask.onlyMovesOfOrInto === undefined)
    return diff;
  return {
    ...diff,
    moved: diff.moved.filter((m) => !ignoresMove(mask, m.object, m.to)),
    attributesSet: diff.attributesSet.filter((a) => !ignoresAttributeChange(mask, true, a.object, a.attribute)),
    attributesCleared: diff.attributesCleared.filter((a) => !ignoresAttributeChange(mask, false, a.object, a.attribute)),
  };
}

export interface WorldDiff {
  moved: Array<{ object: number; from: number; to: number }>;
  attributesSet: Array<{ object: number; attribute: number }>;
  attributesCleared: Array<{ object: number; attribute: number }>;
  /** Watched RAM bytes that changed (present only when any did). */
  watched?: Array<{ addr: number; from: number; to: number }>;
}

/** Objects and attributes a binding says to leave out of hashes and diffs (daemons, parser scratch bits). */
export interface WorldMask {
  ignoreObjects: ReadonlySet<number>;
  ignoreAttributes: ReadonlySet<number>;
  ignoreObjectAttributes: ReadonlyArray<readonly [number, number]>;
  /**
   * RAM bytes whose change is a change to the world though no object moves: a game's own flags
   * for a spell said or a bear fed (Jericho's "special RAM"). Empty for most games.
   */
  watchRam?: readonly number[];
  /**
   * One-way ignores, Jericho's ignore_attr_diff, ignore_attr_clr and ignore_moved_obj as data: a
   * set (or a clear) of these attributes is no effect, the other way is; an object or attribute
   * left out matches any. Jericho leaves them out of the record it groups valid actions by.
   */
  ignoreWhenSet?: readonly AttributeMatch[];
  ignoreWhenCleared?: readonly AttributeMatch[];
  /** Moves into these objects are no effect (a limbo the game parks things in). */
  ignoreMovesInto?: ReadonlySet<number>;
  /** Only moves of this object, or into it, are effects. */
  onlyMovesOfOrInto?: number;
}

const word = (m: Uint8Array, a: number) => (m[a] << 8) | m[a + 1];

export function objectLayout(mem: Uint8Array, version: number, objectTable: number, staticBase: number): ObjectLayout {
  const v3 = version <= 3;
  const entrySize = v3 ? 9 : 14;
  const firstEntry = objectTable + (v3 ? 62 : 126);
  const propOffset = v3 ? 7 : 12;
  // The table has no count: entries run until the lowest property table, which follows them.
  let lowestProps = staticBase;
  let count = 0;
  for (let at = firstEntry; at + entrySize <= lowestProps && count < (v3 ? 255 : 65535); at += entrySize) {
    const props = word(mem, at + propOffset);
    if (props < at + entrySize || props >= mem.length) break;
    if (props < lowestProps) lowestProps = props;
    count++;
  }
  return { version, objectTable, entrySize, attrBytes: v3 ? 4 : 6, firstEntry, count };
}

interface EntryWords {
  words: Uint32Array;
  /** The same memory as bytes. */
  bytes: Uint8Array;
}

export class ObjectTable {
  constructor(
    private readonly layout: ObjectLayout,
    private readonly decode: (addr: number, lengthBytes: number) => string,
  ) {}

  get count(): number {
    return this.layout.count;
  }

  /** The raw bytes of every object entry (attributes and tree links): a cheap "did anything move?" check. */
  entryBytes(mem: Uint8Array): Uint8Array {
    return mem.subarray(this.layout.firstEntry, this.layout.firstEntry + this.layout.count * this.layout.entrySize);
  }

  private entry(id: number): number {
    return this.layout.firstEntry + (id - 1) * this.layout.entrySize;
  }

  parent(mem: Uint8Array, id: number): number {
    const e = this.entry(id) + this.layout.attrBytes;
    return this.layout.version <= 3 ? mem[e] : word(mem, e);
  }

  sibling(mem: Uint8Array, id: number): number {
    const e = this.entry(id) + this.layout.attrBytes;
    return this.layout.version <= 3 ? mem[e + 1] : word(mem, e + 2);
  }

  child(mem: Uint8Array, id: number): number {
    const e = this.entry(id) + this.layout.attrBytes;
    return this.layout.version <= 3 ? mem[e + 2] : word(mem, e + 4);
  }

  hasAttribute(mem: Uint8Array, id: number, attr: number): boolean {
    return (mem[this.entry(id) + (attr >> 3)] & (0x80 >> (attr & 7))) !== 0;
  }

  propertyTable(mem: Uint8Array, id: number): number {
    return word(mem, this.entry(id) + (this.layout.version <= 3 ? 7 : 12));
  }

  name(mem: Uint8Array, id: number): string {
    if (id < 1 || id > this.count) return '';
    const table = this.propertyTable(mem, id);
    const words = mem[table];
    return words ? this.decode(table + 1, words * 2) : '';
  }

  /** The data of property `prop` on object `id`, or null when the object does not provide it. */
  property(mem: Uint8Array, id: number, prop: number): Uint8Array | null {
    return this.properties(mem, id).find((p) => p.num === prop)?.data ?? null;
  }

  /** Every property number and its data on one object. */
  properties(mem: Uint8Array, id: number): Array<{ num: number; data: Uint8Array }> {
    const out: Array<{ num: number; data: Uint8Array }> = [];
    let at = this.propertyTable(mem, id);
    at += 1 + mem[at] * 2;
    const v3 = this.layout.version <= 3;
    for (let guard = 0; guard < 64; guard++) {
      const size = mem[at];
      if (size === 0) break;
      let num: number;
      let len: number;
      if (v3) {
        num = size & 0x1f;
        len = (size >> 5) + 1;
        at += 1;
      } else {
        num = size & 0x3f;
        if (size & 0x80) {
          len = mem[at + 1] & 0x3f || 64;
          at += 2;
        } else {
          len = size & 0x40 ? 2 : 1;
          at += 1;
        }
      }
      out.push({ num, data: mem.subarray(at, at + len) });
      at += len;
    }
    return out;
  }

  children(mem: Uint8Array, id: number): number[] {
    const out: number[] = [];
    let c = this.child(mem, id);
    for (let guard = 0; c && guard <= this.count; guard++) {
      out.push(c);
      c = this.sibling(mem, c);
    }
    return out;
  }

  /** All objects below `id` in tree order, depth-first, to `maxDepth` levels. */
  descendants(mem: Uint8Array, id: number, maxDepth = 8): number[] {
    const out: number[] = [];
    const walk = (node: number, depth: number) => {
      if (depth > maxDepth) return;
      for (const c of this.children(mem, node)) {
        out.push(c);
        walk(c, depth + 1);
      }
    };
    walk(id, 1);
    return out;
  }

  object(mem: Uint8Array, id: number): ZObject {
    const attributes: number[] = [];
    for (let a = 0; a < this.layout.attrBytes * 8; a++) if (this.hasAttribute(mem, id, a)) attributes.push(a);
    return {
      id,
      name: this.name(mem, id),
      parent: this.parent(mem, id),
      sibling: this.sibling(mem, id),
      child: this.child(mem, id),
      attributes,
    };
  }

  tree(mem: Uint8Array): ZObject[] {
    const out: ZObject[] = [];
    for (let id = 1; id <= this.count; id++) out.push(this.object(mem, id));
    return out;
  }

  /**
   * Whether the world as worldState reads it (parents and attributes, masked) is what it was when
   * `entries` was copied from entryBytes: the probe's cheap answer for the many candidates that
   * touch only a masked daemon's object or a scratch attribute. Sibling, child and property links
   * are not compared; worldState holds none of them.
   */
  sameWorld(mem: Uint8Array, entries: Uint8Array, mask: WorldMask): boolean {
    const now = this.entryBytes(mem);
    // Most candidates touch no entry at all: a native comparison answers them without the loop.
    if (Buffer.compare(now, entries) === 0) return true;
    // A daemon that moves every turn (Zork's thief) changes some entry on nearly every candidate,
    // so the loop runs for most of them: four bytes at a time (both sides copied to aligned
    // scratch), with what the mask ignores cleared.
    const compared = this.comparedBits(mask);
    const scratch = (this.scratch ??= { now: this.entryWords(), before: this.entryWords() });
    scratch.now.bytes.set(now);
    scratch.before.bytes.set(entries);
    const nowWords = scratch.now.words;
    const beforeWords = scratch.before.words;
    for (let i = 0; i < compared.length; i++) if ((nowWords[i] ^ beforeWords[i]) & compared[i]) return false;
    return true;
  }

  private readonly comparedBitsByMask = new WeakMap<WorldMask, Uint32Array>();
  private scratch?: { now: EntryWords; before: EntryWords };

  /** Room for every entry byte, readable four bytes at a time. */
  private entryWords(): EntryWords {
    const words = new Uint32Array(Math.ceil((this.layout.count * this.layout.entrySize) / 4));
    return { words, bytes: new Uint8Array(words.buffer) };
  }

  /**
   * Per entry byte, the bits sameWorld compares: attributes but the ignored ones, the parent link;
   * nothing of an ignored object, nor the sibling, child and property links.
   */
  private comparedBits(mask: WorldMask): Uint32Array {
    const cached = this.comparedBitsByMask.get(mask);
    if (cached) return cached;
    const { count, entrySize, attrBytes, version } = this.layout;
    const parentEnd = attrBytes + (version <= 3 ? 1 : 2);
    const kept = attributeBytesKept(mask, attrBytes);
    const { words, bytes: bits } = this.entryWords();
    for (let id = 1; id <= count; id++) {
      if (mask.ignoreObjects.has(id)) continue;
      const entry = (id - 1) * entrySize;
      bits.set(kept, entry);
      bits.fill(0xff, entry + attrBytes, entry + parentEnd);
    }
    for (const [id, attribute] of mask.ignoreObjectAttributes) {
      if (id >= 1 && id <= count && attribute >> 3 < attrBytes) bits[(id - 1) * entrySize + (attribute >> 3)] &= ~(0x80 >> (attribute & 7));
    }
    this.comparedBitsByMask.set(mask, words);
    return words;
  }

  worldState(mem: Uint8Array, score: number, mask: WorldMask): WorldState {
    // Read for every candidate that changed something: one plain loop over the entries, with no
    // subarray views or per-object calls.
    const { count: n, attrBytes: ab, entrySize, firstEntry, version } = this.layout;
    const parents = new Uint16Array(n + 1);
    const attrs = new Uint8Array(n * ab);
    const ignoring = mask.ignoreObjects.size > 0;
    const keep = attributeBytesKept(mask, ab);
    for (let id = 1, entry = firstEntry; id <= n; id++, entry += entrySize) {
      if (ignoring && mask.ignoreObjects.has(id)) continue;
      const link = entry + ab;
      parents[id] = version <= 3 ? mem[link] : (mem[link] << 8) | mem[link + 1];
      for (let k = 0, to = (id - 1) * ab; k < ab; k++) attrs[to + k] = mem[entry + k] & keep[k];
    }
    for (const [id, attr] of mask.ignoreObjectAttributes) {
      if (id >= 1 && id <= n && attr >> 3 < ab) attrs[(id - 1) * ab + (attr >> 3)] &= ~(0x80 >> (attr & 7));
    }
    const watchRam = mask.watchRam ?? [];
    const watched = new Uint8Array(watchRam.length);
    watchRam.forEach((addr, i) => (watched[i] = mem[addr]));
    return { parents, attrs, attrBytes: ab, score, watched, watchRam };
  }
}

const keptBytes = new WeakMap<WorldMask, Uint8Array>();

/** Per attribute byte, the bits a mask keeps: every object's attributes but the ignored ones. */
function attributeBytesKept(mask: WorldMask, attrBytes: number): Uint8Array {
  let keep = keptBytes.get(mask);
  if (!keep || keep.length !== attrBytes) {
    keep = new Uint8Array(attrBytes).fill(0xff);
    for (const attribute of mask.ignoreAttributes) if (attribute >> 3 < attrBytes) keep[attribute >> 3] &= ~(0x80 >> (attribute & 7));
    keptBytes.set(mask, keep);
  }
  return keep;
}

export function worldHash(state: WorldState): string {
  const h = createHash('md5');
  h.update(new Uint8Array(state.parents.buffer, state.parents.byteOffset, state.parents.byteLength));
  h.update(state.attrs);
  h.update(String(state.score));
  if (state.watched.length) h.update(state.watched);
  return h.digest('hex');
}

export function worldDiff(a: WorldState, b: WorldState): WorldDiff {
  const diff: WorldDiff = { moved: [], attributesSet: [], attributesCleared: [] };
  const n = Math.min(a.parents.length, b.parents.length);
  for (let id = 1; id < n; id++) {
    if (a.parents[id] !== b.parents[id]) diff.moved.push({ object: id, from: a.parents[id], to: b.parents[id] });
  }
  const ab = a.attrBytes;
  const len = Math.min(a.attrs.length, b.attrs.length);
  for (let i = 0; i < len; i++) {
    const x = a.attrs[i];
    const y = b.attrs[i];
    if (x === y) continue;
    const object = Math.floor(i / ab) + 1;
    for (let bit = 0; bit < 8; bit++) {
      const m = 0x80 >> bit;
      const attribute = (i % ab) * 8 + bit;
      if (!(x & m) && y & m) diff.attributesSet.push({ object, attribute });
      else if (x & m && !(y & m)) diff.attributesCleared.push({ object, attribute });
    }
  }
  const watched: NonNullable<WorldDiff['watched']> = [];
  const addrs = b.watchRam ?? [];
  for (let i = 0; i < Math.min(a.watched.length, b.watched.length); i++) {
    if (a.watched[i] !== b.watched[i]) watched.push({ addr: addrs[i], from: a.watched[i], to: b.watched[i] });
  }
  if (watched.length) diff.watched = watched;
  return diff;
}

export function isEmptyDiff(d: WorldDiff): boolean {
  return d.moved.length === 0 && d.attributesSet.length === 0 && d.attributesCleared.length === 0 && !d.watched?.length;
}

/** A canonical string for a diff, so equal diffs group together. */
export function diffKey(d: WorldDiff): string {
  return [
    d.moved.map((m) => `m${m.object}:${m.from}>${m.to}`).join(','),
    d.attributesSet.map((s) => `+${s.object}.${s.attribute}`).join(','),
    d.attributesCleared.map((s) => `-${s.object}.${s.attribute}`).join(','),
    ...(d.watched?.length ? [d.watched.map((w) => `@${w.addr}=${w.to}`).join(',')] : []),
  ].join('|');
}
