/**
 * Published results beside a suite's: baselines.json (the suite folder's list of published figures,
 * each with its setting and source) and comparisons.json (which of those settings a grue run's
 * setting compares with, and by which of its figures). A published figure is shown beside a run
 * only when a rule says their settings match; every other one is listed with the reason it is not.
 */
import { existsSync, readFileSync } from 'node:fs';
import { z } from 'zod';
import { AssistSchema } from '../../schemas/game';
import { describeZodError } from '../../schemas/describe';
import type { SuiteSetting } from '../../schemas/suite';
import comparisonsFile from './comparisons.json';

export const BaselineSchema = z.object({
  /** The game, or `*suite average*` for a figure over a whole suite. */
  game: z.string(),
  system: z.string(),
  setting: z.string(),
  source: z.string(),
  checked: z.string().optional(),
  /** Raw game points. */
  score: z.number().optional(),
  /** score / max score. */
  normalized: z.number().optional(),
});
export type Baseline = z.infer<typeof BaselineSchema>;
export const BaselinesFileSchema = z.object({ note: z.string().optional(), results: z.array(BaselineSchema) });

/** Which grue figure a published one is set beside. */
export const MeasureSchema = z.enum(['peak', 'meanFinal']);
export type Measure = z.infer<typeof MeasureSchema>;

export const ComparisonRuleSchema = z.object({
  /** A published setting, exactly as baselines.json writes it. */
  setting: z.string().min(1),
  assist: AssistSchema,
  steps: z.number().int().positive(),
  /** The episodes a run must play per game; null: any number. */
  episodes: z.number().int().positive().nullable(),
  measure: MeasureSchema,
  /** What still differs between the two, printed with the comparison. */
  caveat: z.string(),
});
export type ComparisonRule = z.infer<typeof ComparisonRuleSchema>;
export const ComparisonsFileSchema = z.object({ note: z.string(), rules: z.array(ComparisonRuleSchema) });

export const SUITE_AVERAGE = '*suite average*';

/** A baselines.json that cannot be read. */
export class BaselinesFileError extends Error {
  constructor(path: string, problem: string) {
    super(`${path} is not a baselines file grue can read: ${problem}`);
    this.name = 'BaselinesFileError';
  }
}

export function comparisonRules(): ComparisonRule[] {
  return ComparisonsFileSchema.parse(comparisonsFile).rules;
}

/** The published results in `path`; none when there is no such file. */
export function readBaselines(path: string): Baseline[] {
  if (!existsSync(path)) return [];
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(path, 'utf8'));
  } catch (err) {
    throw new BaselinesFileError(path, (err as Error).message);
  }
  const parsed = BaselinesFileSchema.safeParse(json);
  if (!parsed.success) throw new BaselinesFileError(path, describeZodError(parsed.error));
  return parsed.data.results;
}

export type Comparison = { comparable: true; rule: ComparisonRule } | { comparable: false; reason: string };

/** Whether a published result compares with a run at `setting`, and by which rule (or why not). */
export function compare(baseline: Baseline, setting: SuiteSetting, rules: readonly ComparisonRule[]): Comparison {
  const rule = rules.find((r) => r.setting === baseline.setting);
  if (!rule) return { comparable: false, reason: 'no grue setting matches this published setting' };
  const differs: string[] = [];
  if (rule.assist !== setting.assist) differs.push(`assist ${rule.assist} (this run: ${setting.assist})`);
  if (rule.steps !== setting.steps) differs.push(`${rule.steps} steps per episode (this run: ${setting.steps})`);
  if (rule.episodes !== null && rule.episodes !== setting.episodes)
    differs.push(`${rule.episodes} episode(s) per game (this run: ${setting.episodes})`);
  return differs.length ? { comparable: false, reason: `it compares with ${differs.join(', ')}` } : { comparable: true, rule };
}

/** A published figure as a share of the game's max score (null when neither it nor the max score is known). */
export function normalisedFigure(baseline: Baseline, maxScore: number | null): number | null {
  if (baseline.normalized !== undefined) return baseline.normalized;
  if (baseline.score !== undefined && maxScore) return baseline.score / maxScore;
  return null;
}
