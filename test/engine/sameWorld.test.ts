import { ObjectTable, type ObjectLayout, type WorldMask } from '../../src/engine';

// A v3 object table of three objects in bare memory: 4 attribute bytes, parent, sibling, child, properties.
const LAYOUT: ObjectLayout = { version: 3, objectTable: 0, entrySize: 9, attrBytes: 4, firstEntry: 62, count: 3 };
const NO_MASK: WorldMask = { ignoreObjects: new Set(), ignoreAttributes: new Set(), ignoreObjectAttributes: [] };

function setup() {
  const mem = new Uint8Array(200);
  const table = new ObjectTable(LAYOUT, () => '');
  const entry = (id: number) => LAYOUT.firstEntry + (id - 1) * LAYOUT.entrySize;
  mem[entry(2) + 4] = 1; // object 2 in object 1
  mem[entry(1) + 0] = 0x80; // object 1 has attribute 0
  const copy = () => Uint8Array.from(table.entryBytes(mem));
  return { mem, table, entry, copy };
}

describe('ObjectTable.sameWorld (the probe skipping candidates that change nothing worldState reads)', () => {
  it('answers as comparing worldState would, for each kind of byte a command can change', () => {
    const cases: Array<{ what: string; change: (mem: Uint8Array, entry: (id: number) => number) => void; mask: WorldMask }> = [
      { what: 'nothing', change: () => {}, mask: NO_MASK },
      { what: 'an attribute', change: (m, e) => void (m[e(3) + 1] |= 0x04), mask: NO_MASK },
      { what: 'a masked attribute', change: (m, e) => void (m[e(3) + 1] |= 0x04), mask: { ...NO_MASK, ignoreAttributes: new Set([13]) } },
      {
        what: "one object's masked attribute",
        change: (m, e) => void (m[e(3) + 1] |= 0x04),
        mask: { ...NO_MASK, ignoreObjectAttributes: [[3, 13]] },
      },
      {
        what: "another object's masked attribute",
        change: (m, e) => void (m[e(3) + 1] |= 0x04),
        mask: { ...NO_MASK, ignoreObjectAttributes: [[2, 13]] },
      },
      { what: 'a parent', change: (m, e) => void (m[e(3) + 4] = 1), mask: NO_MASK },
      { what: "an ignored object's parent", change: (m, e) => void (m[e(3) + 4] = 1), mask: { ...NO_MASK, ignoreObjects: new Set([3]) } },
      { what: 'a sibling link', change: (m, e) => void (m[e(2) + 5] = 3), mask: NO_MASK },
      {
        what: 'a masked and an unmasked bit of one byte',
        change: (m, e) => void (m[e(1)] ^= 0xc0),
        mask: { ...NO_MASK, ignoreAttributes: new Set([0]) },
      },
    ];
    for (const { what, change, mask } of cases) {
      const { mem, table, entry, copy } = setup();
      const before = copy();
      const state = table.worldState(mem, 0, mask);
      change(mem, entry);
      const after = table.worldState(mem, 0, mask);
      const sameByState =
        Buffer.from(state.parents.buffer).equals(Buffer.from(after.parents.buffer)) &&
        Buffer.from(state.attrs).equals(Buffer.from(after.attrs));
      expect({ what, same: table.sameWorld(mem, before, mask) }).toEqual({ what, same: sameByState });
    }
  });

  it('tells a change from none', () => {
    const { mem, table, entry, copy } = setup();
    const before = copy();
    expect(table.sameWorld(mem, before, NO_MASK)).toBe(true);
    mem[entry(3) + 4] = 2;
    expect(table.sameWorld(mem, before, NO_MASK)).toBe(false);
  });
});

describe('ObjectTable.worldState', () => {
  it('reads each parent and the attributes the mask keeps', () => {
    const { mem, table, entry } = setup();
    mem[entry(3) + 3] = 0x01; // object 3 has attribute 31
    const all = table.worldState(mem, 7, NO_MASK);
    expect([...all.parents]).toEqual([0, 0, 1, 0]);
    expect([...all.attrs]).toEqual([0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0x01]);
    expect(all.score).toBe(7);
    const masked = table.worldState(mem, 0, {
      ...NO_MASK,
      ignoreAttributes: new Set([0]),
      ignoreObjects: new Set([2]),
      ignoreObjectAttributes: [[3, 31]],
    });
    expect([...masked.parents]).toEqual([0, 0, 0, 0]);
    expect([...masked.attrs].every((byte) => byte === 0)).toBe(true);
  });

  it('reads a version 4 parent as a word', () => {
    const layout: ObjectLayout = { version: 5, objectTable: 0, entrySize: 14, attrBytes: 6, firstEntry: 126, count: 2 };
    const mem = new Uint8Array(200);
    const table = new ObjectTable(layout, () => '');
    mem[126 + 14 + 6] = 0x01; // object 2's parent: 0x0101
    mem[126 + 14 + 7] = 0x01;
    expect([...table.worldState(mem, 0, NO_MASK).parents]).toEqual([0, 0, 0x0101]);
  });
});
