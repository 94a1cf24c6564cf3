/**
 * `target.push(...items)` without spreading: a spread passes every item as an argument on the
 * stack, and a pass of ~125,000 candidates or more (Sherlock's North Ambulatory: 141,562) threw
 * "Maximum call stack size exceeded" out of the game activity.
 */
export function appendAll<T>(target: T[], items: readonly T[]): void {
  for (const item of items) target.push(item);
}
