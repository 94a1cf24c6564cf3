import { withoutOneWayIgnores, type WorldDiff, type WorldMask } from '../../src/engine';
import { maskedOps } from '../../src/engine/objectOps';

/**
 * Jericho's ignore_attr_diff, ignore_attr_clr and ignore_moved_obj, kept in the bindings as
 * one-way rules: the record a valid action is grouped by, and its net change, leave out what they
 * name, in the one direction they name it.
 */
const BASE: WorldMask = { ignoreObjects: new Set(), ignoreAttributes: new Set(), ignoreObjectAttributes: [] };

describe('one-way ignores of a binding', () => {
  it("leaves out Zork I's clears of the player's flags but keeps their sets (ignore_attr_clr)", () => {
    const mask: WorldMask = {
      ...BASE,
      ignoreWhenCleared: [
        { object: 4, attribute: 1 },
        { object: 217, attribute: 2 },
      ],
    };
    const ops = { moves: [], sets: [4, 1], clears: [4, 1, 217, 1, 217, 2] };
    expect(maskedOps(ops, mask)).toEqual({ moves: [], sets: [4, 1], clears: [217, 1] });
  });

  it('matches any object or any attribute where the rule leaves it out (Lost Pig ignores every clear)', () => {
    const mask: WorldMask = { ...BASE, ignoreWhenSet: [{ attribute: 14 }], ignoreWhenCleared: [{}] };
    const ops = { moves: [], sets: [93, 14, 87, 31], clears: [93, 15, 100, 14] };
    expect(maskedOps(ops, mask)).toEqual({ moves: [], sets: [87, 31], clears: [] });
  });

  it('leaves out moves into a limbo, and keeps only moves of or into one object where the binding says so', () => {
    expect(maskedOps({ moves: [103, 483, 103, 236], sets: [], clears: [] }, { ...BASE, ignoreMovesInto: new Set([483]) }).moves).toEqual([
      103, 236,
    ]);
    const only: WorldMask = { ...BASE, onlyMovesOfOrInto: 87 };
    expect(maskedOps({ moves: [176, 84, 87, 12, 5, 87], sets: [], clears: [] }, only).moves).toEqual([87, 12, 5, 87]);
  });

  it('filters a net change the same way, and returns the same change when the mask has no one-way rule', () => {
    const diff: WorldDiff = {
      moved: [
        { object: 103, from: 483, to: 236 },
        { object: 9, from: 1, to: 483 },
      ],
      attributesSet: [
        { object: 5, attribute: 14 },
        { object: 5, attribute: 3 },
      ],
      attributesCleared: [{ object: 4, attribute: 1 }],
    };
    const mask: WorldMask = {
      ...BASE,
      ignoreMovesInto: new Set([483]),
      ignoreWhenSet: [{ attribute: 14 }],
      ignoreWhenCleared: [{ object: 4 }],
    };
    expect(withoutOneWayIgnores(diff, mask)).toEqual({
      moved: [{ object: 103, from: 483, to: 236 }],
      attributesSet: [{ object: 5, attribute: 3 }],
      attributesCleared: [],
    });
    expect(withoutOneWayIgnores(diff, BASE)).toBe(diff);
  });
});
