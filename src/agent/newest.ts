/**
 * Records and lists bounded by dropping their oldest entries, as the agent's carried records are.
 * Object key order puts integer-like keys (room ids) first, in ascending order, so for a record
 * keyed by room ids the keys kept are the highest ids, not the newest; the bound is what matters.
 */

/** `record` less its first keys, so that at most `max` remain. */
export function keepNewest<T>(record: Record<string, T>, max: number): Record<string, T> {
  const keys = Object.keys(record);
  if (keys.length <= max) return record;
  return Object.fromEntries(keys.slice(keys.length - max).map((k) => [k, record[k]]));
}

/** `record` with `key` set to `value` and made its last key, at most `max` keys kept. */
export function withNewestEntry<T>(record: Record<string, T>, key: string, value: T, max: number): Record<string, T> {
  const { [key]: _, ...others } = record;
  const kept = Object.keys(others).slice(-(max - 1));
  return { ...Object.fromEntries(kept.map((id) => [id, others[id]])), [key]: value };
}

/** A new item at the end of a bounded list (kept once, newest last). */
export function pushOnce<T extends string | number>(list: readonly T[], item: T, max: number): T[] {
  return list.includes(item) ? [...list] : [...list, item].slice(-max);
}
