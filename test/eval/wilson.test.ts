import { wilsonInterval } from '../../eval/wilson';

const rounded = ([lo, hi]: [number, number]) => [Number(lo.toFixed(4)), Number(hi.toFixed(4))];

describe('wilsonInterval (95%)', () => {
  it('matches published values', () => {
    // 13 of 35 (the old eval's 0.371) solved independently as the roots of (p - x)^2 = z^2 x (1 - x) / n; 0/10, 10/10 and 50/100 are textbook values.
    expect(rounded(wilsonInterval(13, 35))).toEqual([0.2317, 0.5366]);
    expect(rounded(wilsonInterval(0, 10))).toEqual([0, 0.2775]);
    expect(rounded(wilsonInterval(10, 10))).toEqual([0.7225, 1]);
    expect(rounded(wilsonInterval(50, 100))).toEqual([0.4038, 0.5962]);
  });

  it('contains the observed rate, stays inside [0, 1] and narrows as trials grow', () => {
    for (const [k, n] of [
      [1, 3],
      [7, 68],
      [30, 68],
      [67, 68],
    ]) {
      const [lo, hi] = wilsonInterval(k, n);
      expect(lo).toBeGreaterThanOrEqual(0);
      expect(hi).toBeLessThanOrEqual(1);
      expect(lo).toBeLessThan(k / n);
      expect(hi).toBeGreaterThan(k / n);
    }
    const width = (k: number, n: number) => wilsonInterval(k, n)[1] - wilsonInterval(k, n)[0];
    expect(width(20, 60)).toBeLessThan(width(10, 30));
  });

  it('knows nothing from no trials, and refuses impossible counts', () => {
    expect(wilsonInterval(0, 0)).toEqual([0, 1]);
    expect(() => wilsonInterval(5, 4)).toThrow(RangeError);
    expect(() => wilsonInterval(-1, 4)).toThrow(/0 <= successes <= trials/);
    expect(() => wilsonInterval(1.5, 4)).toThrow(RangeError);
  });
});
