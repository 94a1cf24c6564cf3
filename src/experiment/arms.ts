/**
 * An experiment's arms: a baseline config (the defaults plus the options given) and, for each
 * varied factor, the configs that change that one field — or, with `factorial`, every
 * combination of the varied factors' levels. Every config comes out of resolveCampaignConfig,
 * the one source of defaults, so an arm is exactly what `grue campaign` with those options runs.
 */
import { AssistSchema, CampaignConfig, CampaignOptions, EPISODE_DEFAULTS, EpisodeConfig, resolveCampaignConfig } from '../schemas/episode';
import { Arm, ConfigDiff, Factor, FactorSchema, MAX_ARMS } from '../schemas/experiment';

/** A design that cannot be run: an unknown factor, a model factor without models, too many arms. */
export class ExperimentDesignError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ExperimentDesignError';
  }
}

type Level = EpisodeConfig[FactorField];
type FactorField = 'thoughtbox' | 'compactEvery' | 'knowledgeEvery' | 'model' | 'assist';

interface FactorSpec {
  field: FactorField;
  /** The levels compared; the baseline's own value is added when it is not among them. */
  levels: (models: Array<string | null>) => Level[];
  label: (value: Level) => string;
}

const onOff = (value: Level) => (value === 0 ? 'off' : String(value));

const FACTORS: Record<Factor, FactorSpec> = {
  thoughtbox: { field: 'thoughtbox', levels: () => ['off', 'auto', 'always'], label: String },
  compaction: { field: 'compactEvery', levels: () => [0, EPISODE_DEFAULTS.compactEvery], label: onOff },
  knowledge: { field: 'knowledgeEvery', levels: () => [0, EPISODE_DEFAULTS.knowledgeEvery], label: onOff },
  assist: { field: 'assist', levels: () => AssistSchema.options, label: String },
  model: { field: 'model', levels: (models) => models, label: (value) => (value === null ? 'default' : String(value)) },
};

/** The factors of `--vary`: a comma-separated subset of FactorSchema's names, each once. */
export function parseFactors(text: string): Factor[] {
  const names = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  if (names.length === 0) throw new ExperimentDesignError(`--vary needs at least one factor: ${FactorSchema.options.join(', ')}.`);
  const factors: Factor[] = [];
  for (const name of names) {
    const parsed = FactorSchema.safeParse(name);
    if (!parsed.success)
      throw new ExperimentDesignError(`unknown factor "${name}" in --vary: choose from ${FactorSchema.options.join(', ')}.`);
    if (factors.includes(parsed.data)) throw new ExperimentDesignError(`factor "${name}" is given twice in --vary.`);
    factors.push(parsed.data);
  }
  return factors;
}

/** The models of `--models`: names, with `default` for the worker's configured model (null). */
export function parseModels(text: string): Array<string | null> {
  const models = text
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean)
    .map((m) => (m === 'default' ? null : m));
  if (models.length === 0)
    throw new ExperimentDesignError('--models needs at least one model name (or "default" for the worker\'s model).');
  if (new Set(models).size !== models.length) throw new ExperimentDesignError('--models names a model twice.');
  return models;
}

export interface Design {
  factors: Factor[];
  /** For the model factor (`default` = null = the worker's model). */
  models?: Array<string | null>;
  /** Every combination of the factors' levels instead of one factor at a time. */
  factorial?: boolean;
}

/** The arms, baseline first. */
export function designArms(options: CampaignOptions, design: Design): Arm[] {
  if (design.factors.length === 0) throw new ExperimentDesignError('an experiment varies at least one factor (--vary).');
  if (design.factors.includes('model') && !design.models?.length)
    throw new ExperimentDesignError('--vary model needs the models to compare: --models a,b (or "default" for the worker\'s model).');
  if (design.models?.length && !design.factors.includes('model'))
    throw new ExperimentDesignError('--models is only used with --vary model.');
  const baseline = resolveCampaignConfig(options);
  const levels = (factor: Factor): Level[] => {
    const spec = FACTORS[factor];
    const given = spec.levels(design.models ?? []);
    const own = baseline[spec.field];
    return given.includes(own) ? given : [own, ...given];
  };
  const cells: Array<Partial<Record<Factor, Level>>> = design.factorial
    ? design.factors.reduce<Array<Partial<Record<Factor, Level>>>>(
        (acc, factor) => acc.flatMap((cell) => levels(factor).map((value) => ({ ...cell, [factor]: value }))),
        [{}],
      )
    : [
        {},
        ...design.factors.flatMap((factor) =>
          levels(factor)
            .filter((value) => value !== baseline[FACTORS[factor].field])
            .map((value) => ({ [factor]: value })),
        ),
      ];
  if (cells.length > MAX_ARMS)
    throw new ExperimentDesignError(`this design has ${cells.length} arms; at most ${MAX_ARMS} (vary fewer factors, or drop --factorial).`);
  if (cells.length < 2)
    throw new ExperimentDesignError(
      `varying ${design.factors.join(', ')} gives no arm besides the baseline (every level is the baseline's).`,
    );

  const arms = cells.map((cell) => {
    const changes = Object.fromEntries(Object.entries(cell).map(([factor, value]) => [FACTORS[factor as Factor].field, value]));
    const config = resolveCampaignConfig({ ...options, ...changes });
    const diff = configDiff(baseline, config);
    const name = design.factorial
      ? design.factors.map((f) => `${f}=${FACTORS[f].label(config[FACTORS[f].field])}`).join(',')
      : Object.keys(cell)
          .map((f) => `${f}=${FACTORS[f as Factor].label(config[FACTORS[f as Factor].field])}`)
          .join(',') || 'baseline';
    return { name, diff, config };
  });
  // The baseline first, so tables and charts read from it.
  return [...arms.filter((a) => Object.keys(a.diff).length === 0), ...arms.filter((a) => Object.keys(a.diff).length > 0)];
}

/** The fields of `config` that differ from `baseline`. */
export function configDiff(baseline: CampaignConfig, config: CampaignConfig): ConfigDiff {
  return Object.fromEntries(Object.entries(config).filter(([key, value]) => baseline[key as keyof CampaignConfig] !== value)) as ConfigDiff;
}
