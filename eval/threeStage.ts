/**
 * The baseline of `npm run eval:knowledge`: the knowledge update as it was before seed 000, three
 * LLM calls per window —
 *   1. assess: is this window worth analysing? (`{worth_processing, reason}`; no → stop, 1 call)
 *   2. extract insights: strategic insights from the window (`{insights: string[]}`)
 *   3. create the base: the layered items, from the insights and the existing base ONLY.
 * Stage 3 never sees the raw turns: every fact has to survive being restated as an "insight"
 * first — the information loss seed 000 describes ("mailbox contains leaflet" → "interact with
 * objects" → "exploration patterns"). It answers the same `KnowledgeAnswerSchema` items as the
 * single-stage `updateKnowledge` activity, so both bases are merged, compressed and measured by
 * the same code. Same provider, temperature 0, the production activity's budgets (embedded model:
 * prompts of ~1,250 tokens, at most 4 items).
 */
import { z } from 'zod';
import { localKnowledgeAnswerSchema, UPDATE_BUDGET, UPDATE_MAX_TOKENS } from '../src/activities/knowledge';
import { approxTokens } from '../src/text';
import { promptSize } from '../src/llm';
import type { ChatMessage, LlmProvider, Usage } from '../src/llm';
import { existingLines, LAYER_GUIDE } from '../src/memory/knowledge/prompt';
import { KnowledgeAnswer, KnowledgeAnswerSchema, KnowledgeItem, LIMITS, UpdateRequest } from '../src/memory/knowledge/schema';
import { formatTurnData } from '../src/memory/knowledge/window';

export const AssessSchema = z.object({
  worth_processing: z.boolean().describe('true if the data holds new, non-repetitive knowledge worth analysing'),
  reason: z.string().max(200).describe('one short sentence'),
});
export type Assessment = z.infer<typeof AssessSchema>;

const INSIGHTS = { small: 6, large: 10 };
/** At least one insight, as the single stage must write at least one item: neither pipeline may answer with nothing. */
export const insightsSchema = (max: number) => z.object({ insights: z.array(z.string().min(3).max(LIMITS.text)).min(1).max(max) });

/** Answer budgets per stage; the create stage gets exactly what `updateKnowledge` gets. */
const MAX_TOKENS = {
  assess: { small: 120, large: 300 },
  insights: { small: 500, large: 1500 },
  create: UPDATE_MAX_TOKENS,
};

export type Stage = 'assess' | 'insights' | 'create';

export interface StageRecord {
  stage: Stage;
  /** Wall seconds of the call. */
  seconds: number;
  usage: Usage;
  ok: boolean;
  error?: string;
}

export interface ThreeStageResult {
  /** The items stage 3 answered; null when the window was judged not worth it or a stage failed. */
  answer: KnowledgeAnswer | null;
  assessment: Assessment | null;
  insights: string[];
  stages: StageRecord[];
}

const ASSESS_SYSTEM =
  'You evaluate gameplay data of a text adventure before knowledge is extracted from it. Be honest about data that would only produce low-quality or repetitive insights.';
const INSIGHTS_SYSTEM =
  'You analyse text adventure gameplay to identify successful strategies and common mistakes. Focus on actionable insights.';
const CREATE_SYSTEM =
  'You write the knowledge base of an AI agent playing a text adventure, from insights other analysts extracted. Use direct, actionable statements an AI agent can follow.';

/** A prompt built around the window, with the oldest actions left out until it fits the budget (deaths and changes are always kept). */
function fitWindow(system: string, request: UpdateRequest, budgetTokens: number, build: (window: string) => string): ChatMessage[] {
  let maxActions = request.window.actions.length;
  let user = build(formatTurnData(request.window, `${request.game} #${request.episode + 1}`, maxActions));
  while (approxTokens(system + user) > budgetTokens && maxActions > 3) {
    maxActions--;
    user = build(formatTurnData(request.window, `${request.game} #${request.episode + 1}`, maxActions));
  }
  return [
    { role: 'system', content: system },
    { role: 'user', content: user },
  ];
}

export function assessPrompt(request: UpdateRequest, budgetTokens: number): ChatMessage[] {
  const w = request.window;
  return fitWindow(ASSESS_SYSTEM, request, budgetTokens, (window) =>
    [
      `You are about to analyse ${request.game} gameplay data to extract strategic insights for a knowledge base.`,
      request.final
        ? 'This is the FINAL update of the episode: even a brief encounter with danger, a death or a new area can be worth documenting; be lenient.'
        : '',
      `TURN WINDOW SUMMARY: turns ${w.startTurn}-${w.endTurn}, ${w.actions.length} actions, ${w.scoreChanges.length} score changes, ${w.locationChanges.length} location changes, ${w.deaths.length} deaths.`,
      window,
      [
        'Before the full analysis, assess the potential value of this data:',
        '1. How much NEW strategic value could be extracted from it?',
        '2. Are there repetitive patterns that would dilute useful insights?',
        '3. Would analysing it improve or degrade the knowledge base?',
        'Answer worth_processing (true or false) and a one-sentence reason.',
      ].join('\n'),
    ]
      .filter(Boolean)
      .join('\n\n'),
  );
}

export function insightsPrompt(request: UpdateRequest, budgetTokens: number, maxInsights: number): ChatMessage[] {
  return fitWindow(INSIGHTS_SYSTEM, request, budgetTokens, (window) =>
    [
      `Analyze this ${request.game} gameplay data and provide strategic insights.`,
      window,
      [
        'Cover these categories where the data has something to say:',
        '1. Key successful strategies: what actions or patterns led to progress?',
        '2. Critical mistakes: what hindered progress or caused setbacks?',
        '3. Navigation: how the world was navigated.',
        '4. Item management: were items collected and used well?',
        '5. Combat and danger: how threats were handled.',
        '6. Learning opportunities: what should be done differently?',
        `Write at most ${maxInsights} insights, one sentence each. Be specific about locations, items and sequences when relevant.`,
      ].join('\n'),
    ].join('\n\n'),
  );
}

const RANK = { META: 0, PRINCIPLE: 1, INTERFACE: 2, IMPL: 3 } as const;

/** Stage 3: the insights and the existing base — never the turns. The base is cut (least useful first) to fit the budget. */
export function createBasePrompt(
  game: string,
  insights: readonly string[],
  existing: readonly KnowledgeItem[],
  budgetTokens: number,
): ChatMessage[] {
  const lines = existingLines([...existing].sort((a, b) => RANK[a.layer] - RANK[b.layer] || b.confidence - a.confidence));
  const rules = [
    'RULES:',
    '1. Be specific: exact names of rooms, objects and commands from the insights.',
    '2. Only what the insights support; lower confidence for what is uncertain.',
    '3. To update an existing item, put its id in replaces; never repeat an item unchanged.',
    // As the single-stage prompt words it (the answer's grammar caps the embedded model at 4 either way).
    `4. At most ${LIMITS.itemsPerUpdate} items, the most useful first.`,
  ].join('\n');
  const build = (count: number) =>
    [
      `Create or update the ${game} knowledge base from these new insights.`,
      `INSIGHTS:\n${insights.length ? insights.map((i) => `- ${i}`).join('\n') : '(none)'}`,
      `EXISTING KNOWLEDGE BASE:\n${count ? lines.slice(0, count).join('\n') : 'No existing knowledge - this is the first update'}`,
      LAYER_GUIDE,
      rules,
    ].join('\n\n');
  let count = lines.length;
  let user = build(count);
  while (approxTokens(CREATE_SYSTEM + user) > budgetTokens && count > 0) {
    count = count > 4 ? Math.floor(count * 0.7) : count - 1;
    user = build(count);
  }
  return [
    { role: 'system', content: CREATE_SYSTEM },
    { role: 'user', content: user },
  ];
}

const NO_USAGE: Usage = { promptTokens: 0, completionTokens: 0 };

/** The three stages on one window (`request` is what the single-stage activity gets). */
export async function threeStageUpdate(provider: LlmProvider, request: UpdateRequest): Promise<ThreeStageResult> {
  const size = promptSize(provider);
  const budget = UPDATE_BUDGET[size];
  const stages: StageRecord[] = [];
  const call = async <S extends z.ZodTypeAny>(stage: Stage, schema: S, messages: ChatMessage[]): Promise<z.infer<S> | null> => {
    const started = performance.now();
    try {
      const answer = await provider.complete({
        schema,
        schemaName: `three_stage_${stage}`,
        messages,
        maxTokens: MAX_TOKENS[stage][size],
        temperature: 0,
        seed: request.seed,
      });
      stages.push({ stage, seconds: (performance.now() - started) / 1000, usage: answer.usage, ok: true });
      return answer.value;
    } catch (err) {
      stages.push({
        stage,
        seconds: (performance.now() - started) / 1000,
        usage: NO_USAGE,
        ok: false,
        error: err instanceof Error ? err.message.slice(0, 300) : String(err),
      });
      return null;
    }
  };

  const assessment = await call('assess', AssessSchema, assessPrompt(request, budget));
  if (!assessment || !assessment.worth_processing) return { answer: null, assessment, insights: [], stages };

  const maxInsights = INSIGHTS[size];
  const found = await call('insights', insightsSchema(maxInsights), insightsPrompt(request, budget, maxInsights));
  if (!found) return { answer: null, assessment, insights: [], stages };
  const insights = found.insights.map((i: string) => i.replace(/\s+/g, ' ').trim()).filter(Boolean);

  const schema = size === 'small' ? localKnowledgeAnswerSchema : KnowledgeAnswerSchema;
  const answer = await call('create', schema, createBasePrompt(request.game, insights, request.existing, budget));
  return { answer, assessment, insights, stages };
}
