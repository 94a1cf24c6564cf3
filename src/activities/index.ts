import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import { createProvider, loadLlmConfig } from '../llm';
import { Slots, slotsFor, withSlots } from '../llm/slots';
import type { LlmProvider } from '../llm/types';
import type { MemoryActivity } from '../memory';
import { createCampaignCheckpointActivities } from './campaignCheckpoint';
import { createCompactionActivities } from './compaction';
import { createFileActivities, EpisodeHistoryReader } from './files';
import { createGameActivities } from './game';
import { createKnowledgeActivities } from './knowledge';
import { createOracleActivities } from './oracle';
import { StorySessions } from './stories';
import { createSuiteFileActivities } from './suiteFiles';
import { createThoughtboxActivities } from './thoughtbox';

/** Makes a model's provider; `null` is the worker's configured model. */
export type ProviderFactory = (model: string | null) => LlmProvider;

/** The worker's configured LLM, with the model replaced when an episode names one (secrets stay in the environment). */
export function providerFor(model: string | null): LlmProvider {
  return createProvider(loadLlmConfig(model ? { ...process.env, GRUE_LLM_MODEL: model } : process.env));
}

/**
 * The episode's choice of model travels beside an LLM activity's input as `llmModel` (see the
 * episode config); it is taken off here, so each activity validates only its own input.
 */
export const LLM_MODEL_KEY = 'llmModel';
const ModelEnvelopeSchema = z.object({ [LLM_MODEL_KEY]: z.string().min(1).max(200).optional() });

/** The episode's model, beside an LLM activity's own input. */
export type ModelChoice = { [LLM_MODEL_KEY]?: string };

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type ActivitySet = Record<string, (input: any) => Promise<unknown>>;

/** The same activities, each taking the model choice beside its input. */
type ChoosingModel<A extends ActivitySet> = { [K in keyof A]: (input: Parameters<A[K]>[0] & ModelChoice) => ReturnType<A[K]> };

function routedByModel<A extends ActivitySet>(
  make: (llm: () => LlmProvider) => A,
  provider: (model: string | null) => LlmProvider,
): ChoosingModel<A> {
  const sets = new Map<string, A>();
  const setFor = (model: string | null) => {
    const key = model ?? '';
    let set = sets.get(key);
    if (!set) sets.set(key, (set = make(() => provider(model))));
    return set;
  };
  const names = Object.keys(setFor(null)) as Array<keyof A & string>;
  return Object.fromEntries(
    names.map((name) => [
      name,
      async (raw: unknown) => {
        if (raw === null || typeof raw !== 'object') return setFor(null)[name](raw);
        const { [LLM_MODEL_KEY]: model, ...request } = raw as Record<string, unknown>;
        const envelope = ModelEnvelopeSchema.safeParse({ [LLM_MODEL_KEY]: model });
        if (!envelope.success)
          throw ApplicationFailure.nonRetryable(
            `Invalid ${name} input: ${LLM_MODEL_KEY} must be a model name of 1-200 characters`,
            'InvalidInput',
          );
        return setFor(envelope.data[LLM_MODEL_KEY] ?? null)[name](request);
      },
    ]),
  ) as ChoosingModel<A>;
}

/**
 * One provider per model for the whole worker, each call taking one of the worker's LLM slots
 * (see src/llm/slots.ts): however many episodes the worker serves, its embedded models run one
 * inference at a time.
 */
export function sharedProviders(factory: ProviderFactory): ProviderFactory {
  const providers = new Map<string, LlmProvider>();
  const embedded = new Slots(1);
  let remote: Slots | null = null;
  const remoteSlots = () => (remote ??= new Slots(loadLlmConfig().GRUE_LLM_CONCURRENCY));
  return (model) => {
    const key = model ?? '';
    let shared = providers.get(key);
    if (!shared) {
      try {
        const made = factory(model);
        shared = withSlots(made, slotsFor(made, embedded, remoteSlots));
      } catch (err) {
        // A model this worker cannot serve is a configuration error: no retry can fix it.
        throw ApplicationFailure.nonRetryable(`The episode asks for model "${model}": ${(err as Error).message}`, 'LLM_CONFIG');
      }
      providers.set(key, shared);
    }
    return shared;
  };
}

/**
 * Every activity the worker registers. Names are what the Web UI shows for each step. The LLM
 * activities share one provider per model: one copy of an embedded model per worker, so its
 * threads never compete with a second copy of it for the cores.
 */
export function createActivities(options: { dataDir: string; llm?: ProviderFactory; history?: EpisodeHistoryReader }) {
  const provider = sharedProviders(options.llm ?? providerFor);
  const stories = new StorySessions();
  return {
    ...createGameActivities(stories),
    ...createFileActivities(options.dataDir, options.history),
    ...createSuiteFileActivities(options.dataDir),
    ...createCampaignCheckpointActivities(options.dataDir),
    ...routedByModel(createOracleActivities, provider),
    ...routedByModel(createCompactionActivities, provider),
    ...routedByModel(createThoughtboxActivities, provider),
    ...routedByModel((llm) => createKnowledgeActivities(llm, stories), provider),
  } satisfies Record<MemoryActivity, (input: never) => Promise<unknown>>;
}

export type Activities = ReturnType<typeof createActivities>;
