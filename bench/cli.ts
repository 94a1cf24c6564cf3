/** Argument and statistics helpers every benchmark uses; nothing here starts Temporal or loads its native code. */
import { InvalidArgumentError } from 'commander';

/** The value after `--name`, or `fallback` when the flag or its value is absent. */
export function arg(name: string, fallback: string): string {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 && process.argv[i + 1] ? process.argv[i + 1] : fallback;
}

/** A commander parser for a whole-number flag from `min` to `max`, refusing anything else by the flag's name. */
export function wholeNumber(name: string, min: number, max = Number.POSITIVE_INFINITY) {
  return (raw: string): number => {
    const value = Number(raw);
    if (!Number.isInteger(value) || value < min || value > max) {
      const range = Number.isFinite(max) ? `from ${min} to ${max}` : `${min} or more`;
      throw new InvalidArgumentError(`${name} must be a whole number ${range} (got "${raw}").`);
    }
    return value;
  };
}

/** The `p` quantile (0..1) of `values`, nearest rank; 0 for none. */
export function percentile(values: number[], p: number): number {
  if (!values.length) return 0;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((sorted.length - 1) * p + 0.5))];
}
