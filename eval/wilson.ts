/**
 * The Wilson score interval for a binomial proportion: unlike the normal approximation it stays
 * inside [0, 1] and is honest at small n and rates near 0 or 1, which is where an eval of a few
 * dozen states of small models lives.
 */

/** z for a two-sided 95% interval. */
export const Z95 = 1.959963984540054;

/** The interval [lo, hi] for `successes` out of `trials`; [0, 1] when there are no trials (nothing is known). */
export function wilsonInterval(successes: number, trials: number, z = Z95): [number, number] {
  if (!Number.isInteger(successes) || !Number.isInteger(trials) || successes < 0 || trials < 0 || successes > trials) {
    throw new RangeError(`wilsonInterval needs whole numbers 0 <= successes <= trials, got ${successes} of ${trials}`);
  }
  if (trials === 0) return [0, 1];
  const p = successes / trials;
  const z2 = z * z;
  const denominator = 1 + z2 / trials;
  const centre = (p + z2 / (2 * trials)) / denominator;
  const halfWidth = (z / denominator) * Math.sqrt((p * (1 - p)) / trials + z2 / (4 * trials * trials));
  // Clamp rounding noise: at p = 0 or 1 the bound is exactly 0 or 1.
  return [Math.max(0, centre - halfWidth), Math.min(1, centre + halfWidth)];
}
