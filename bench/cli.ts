/** Argument and statistics helpers every benchmark uses; nothing here starts Temporal or loads its native code. */

/** The value after `--name`, or `fallback` when the flag or its value is absent. */
export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** The `p` quantile (0..1) of `values`, nearest rank; 0 for none. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p + 0.5))];
}
