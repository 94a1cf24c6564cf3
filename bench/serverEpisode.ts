/**
 * One full-agent episode against an OpenAI-compatible server, measured: what the endpoint
 * supports and the modes grue chose (the capabilities line), every LLM call answered and failed
 * by what it was for, invalid answers, repairs, seconds per call and fallback turns. Used by
 * `npm run eval:servers` and by the platform test against llama-cpp-python's server.
 */
import { readTranscript } from '../src/activities/files';
import { describeCapabilities } from '../src/llm/capabilities';
import { OpenAiProvider } from '../src/llm/openaiProvider';
import { resolveEpisodeConfig } from '../src/schemas/episode';
import { totalOf } from '../src/schemas/llmFailure';
import { episodeWorkflow } from '../src/workflows';
import { withBenchServer } from './harness';

export interface ServerMeasure {
  server: string;
  chatFormat: string;
  structured: string;
  tools: string;
  toolChoiceRequired: boolean;
  /** The capabilities line `grue setup` prints. */
  mode: string;
  secondsPerCall: number;
  /** Answers that could not be used: structured answers repaired or failed, tool answers with invalid calls or words. */
  invalidAnswers: number;
  repairs: number;
  fallbackTurns: number;
  answered: Record<string, number>;
  failed: Record<string, number>;
  /** HTTP requests answered by the server (negotiation and repairs included). */
  requests: number;
  turns: number;
  seconds: number;
  /** Turn records that name failed LLM calls. */
  llmFailures: Array<{ turn: number; call: string; kind: string }>;
}

export interface ServerEpisodeOptions {
  url: string;
  model: string;
  server: string;
  chatFormat: string;
  /** The served model's context, as a user sets GRUE_LLM_CONTEXT_TOKENS. */
  contextTokens?: number;
  game?: string;
  seed?: number;
  maxTurns?: number;
}

export async function measureServerEpisode(opts: ServerEpisodeOptions): Promise<ServerMeasure> {
  // The per-call timeout is the longest an LLM activity allows: a loaded machine reads long prompts slowly.
  const provider = new OpenAiProvider({ baseURL: opts.url, model: opts.model, timeoutMs: 270_000, contextTokens: opts.contextTokens });
  const started = Date.now();
  await provider.preflight();
  const capabilities = await provider.capabilities();
  const taskQueue = `eval-servers-${process.pid}-${Date.now()}`;
  const config = resolveEpisodeConfig({
    game: opts.game ?? 'lighthouse',
    seed: opts.seed ?? 1,
    maxTurns: opts.maxTurns ?? 5,
    policy: 'full',
    // Every kind of LLM call: the oracle and its failure analysis (no assist, so a command that changes nothing is analysed),
    // a thought every turn, compaction every other turn, one knowledge window of the whole episode, closed only at its end
    // (seed 000's gate skips a repetitive window without a call, but a final window of 5 actions is always processed: a
    // window of `maxTurns` turns closed before the end was skipped when a small model repeated itself), the wisdom at the end.
    assist: 'none',
    thoughtbox: 'always',
    maxThinkingIterations: 1,
    compactEvery: 2,
    knowledgeEvery: (opts.maxTurns ?? 5) + 1,
    stopOnDeath: false,
  });
  const { result, turns } = await withBenchServer(
    'eval:servers',
    taskQueue,
    async ({ client, worker, dataDir }) =>
      worker.runUntil(async () => {
        const workflowId = `eval-servers-${opts.chatFormat}-${Date.now()}`;
        const result = await client.workflow.execute(episodeWorkflow, { taskQueue, workflowId, args: [{ config }] });
        return { result, turns: readTranscript(dataDir, workflowId) };
      }),
    () => provider,
  );
  const llm = result.llm!;
  return {
    server: opts.server,
    chatFormat: opts.chatFormat,
    structured: capabilities.structured,
    tools: capabilities.tools,
    toolChoiceRequired: capabilities.toolChoiceRequired,
    mode: describeCapabilities(capabilities),
    secondsPerCall: provider.counts.calls ? Number((provider.counts.seconds / provider.counts.calls).toFixed(2)) : 0,
    invalidAnswers: provider.counts.invalidAnswers + provider.counts.repairs,
    repairs: provider.counts.repairs,
    fallbackTurns: llm.fallbackTurns,
    answered: llm.answered ?? {},
    failed: llm.failed ?? {},
    requests: provider.counts.calls,
    turns: result.turns,
    seconds: Math.round((Date.now() - started) / 1000),
    llmFailures: turns.flatMap((t) => (t.llmFailures ?? []).map((f) => ({ turn: t.turn, ...f }))),
  };
}

/** Every kind of LLM call an episode makes with the thoughtbox, compaction and knowledge on. */
export const EVERY_CALL = ['oracle', 'failure analysis', 'think', 'compact', 'knowledge update', 'wisdom'] as const;

export const answeredNothing = (m: ServerMeasure) => totalOf(m.answered) === 0;
