/**
 * The knowledge activities (seeds 000 + 002). `updateKnowledge` and `synthesizeWisdom` each make
 * one LLM call and only answer: the merge, the size limit and the files are pure code in the
 * workflow (src/memory/knowledge), so a retried activity cannot apply anything twice.
 * `verifyKnowledge` makes no LLM call: it replays each fact's commands in the engine from a
 * snapshot of the room the fact is about and compares the response with the expected effect.
 */
import { z } from 'zod';
import { GameOverError, InvalidCommandError } from '../engine/errors';
import { describeProvider, LlmProvider, promptSize } from '../llm';
import type { ChatMessage } from '../llm/types';
import type { OracleUsage } from '../schemas/oracle';
import {
  KnowledgeAnswer,
  KnowledgeAnswerSchema,
  ItemAnswerSchema,
  UpdateRequest,
  UpdateRequestSchema,
  UpdateResult,
  VerifyRequest,
  VerifyRequestSchema,
  VerifyResult,
  WisdomAnswer,
  WisdomAnswerSchema,
  WisdomRequest,
  WisdomRequestSchema,
  WisdomResult,
} from '../memory/knowledge/schema';
import { updatePrompt, wisdomPrompt } from '../memory/knowledge/prompt';
import { effectHolds } from '../memory/knowledge/verify';
import { classified, parseInput } from './failures';
import { heartbeat } from './heartbeat';
import { classifiedLlmCall } from './llmBoundary';
import type { StorySessions } from './stories';
import { recordLlmWork } from '../telemetry/metrics';

/**
 * The embedded model's 2,048 tokens hold a ~1,250-token prompt and three short items (it
 * pretty-prints its JSON, so an item costs ~150 tokens; with eight keywords and four items it
 * ran out of tokens mid-answer); a model with a large context gets the whole window and up to eight items.
 */
export const LOCAL_ITEMS = 3;
/** The embedded model's text and keywords, in its items and its wisdom alike. */
const LOCAL_TEXT = 160;
const LOCAL_KEYWORDS = 3;
const localItemSchema = ItemAnswerSchema.extend({
  text: ItemAnswerSchema.shape.text.max(LOCAL_TEXT),
  keywords: ItemAnswerSchema.shape.keywords.max(LOCAL_KEYWORDS),
  verify_commands: ItemAnswerSchema.shape.verify_commands.max(2),
});
/**
 * The embedded model's answer must hold at least one item: offered an empty list, gemma3-270m
 * takes it every time (eval:knowledge), so its grammar does not offer one.
 */
export const localKnowledgeAnswerSchema = z.object({ items: z.array(localItemSchema).min(1).max(LOCAL_ITEMS) });
export const UPDATE_BUDGET = { small: 1250, large: 8000 };
export const UPDATE_MAX_TOKENS = { small: 700, large: 2500 };

/**
 * The embedded model's wisdom, bounded as its items are: a run of digits ("1000000…", a token
 * each) in six 240-character insights went on to the answer's token cap, and the cut-off answer
 * was lost (the full agent's suite row: enchanter, huntdark, lgop). Three insights of 160
 * characters, three keywords each, end in time.
 */
const LOCAL_INSIGHTS = 3;
const insightSchema = WisdomAnswerSchema.shape.insights.element;
const localInsightSchema = insightSchema.extend({
  text: insightSchema.shape.text.max(LOCAL_TEXT),
  keywords: insightSchema.shape.keywords.max(LOCAL_KEYWORDS),
});
const localWisdomAnswerSchema = z.object({ insights: z.array(localInsightSchema).min(1).max(LOCAL_INSIGHTS) });
const WISDOM_MAX_TOKENS = { small: 700, large: 1500 };

export function createKnowledgeActivities(llm: () => LlmProvider, stories: StorySessions) {
  /** One timed LLM call: the schema, prompt budget and answer length by provider size. */
  async function timedCall<S extends z.ZodTypeAny>(
    name: string,
    schemas: { small: S; large: S },
    prompt: (budgetTokens: number) => ChatMessage[],
    maxTokens: { small: number; large: number },
    seed: number,
  ): Promise<{ answer: z.infer<S>; usage: OracleUsage; seconds: number }> {
    const provider = llm();
    const size = promptSize(provider);
    const started = Date.now();
    const answer = await classifiedLlmCall(provider, () =>
      provider.complete({
        schema: schemas[size],
        schemaName: name,
        messages: prompt(UPDATE_BUDGET[size]),
        maxTokens: maxTokens[size],
        temperature: 0,
        seed,
        onProgress: heartbeat(),
      }),
    );
    return { answer: answer.value, usage: { calls: 1, ...answer.usage }, seconds: (Date.now() - started) / 1000 };
  }

  return {
    async updateKnowledge(raw: UpdateRequest): Promise<UpdateResult> {
      const request = parseInput(UpdateRequestSchema, raw, 'updateKnowledge input');
      const schemas = { small: localKnowledgeAnswerSchema as z.ZodType<KnowledgeAnswer>, large: KnowledgeAnswerSchema };
      const update = await timedCall(
        'knowledge_update',
        schemas,
        (budget) => updatePrompt(request, budget),
        UPDATE_MAX_TOKENS,
        request.seed,
      );
      await recordLlmWork('knowledgeUpdates', describeProvider(llm()));
      return update;
    },

    async synthesizeWisdom(raw: WisdomRequest): Promise<WisdomResult> {
      const request = parseInput(WisdomRequestSchema, raw, 'synthesizeWisdom input');
      const schemas = { small: localWisdomAnswerSchema as z.ZodType<WisdomAnswer>, large: WisdomAnswerSchema };
      return timedCall('wisdom', schemas, (budget) => wisdomPrompt(request, budget), WISDOM_MAX_TOKENS, request.seed);
    },

    async verifyKnowledge(raw: VerifyRequest): Promise<VerifyResult> {
      const request = parseInput(VerifyRequestSchema, raw, 'verifyKnowledge input');
      const beat = heartbeat();
      return classified(() =>
        stories.use(request.game, request.storyMd5, (session) => {
          const results = request.checks.map((check) => {
            beat();
            session.restore(Buffer.from(check.snapshot, 'base64'));
            let response = '';
            try {
              for (const command of check.verification.commands) response = session.step(command).observation;
            } catch (err) {
              // A command the engine refuses, or one after the game ended, cannot show the fact: the check fails, the activity does not.
              if (!(err instanceof InvalidCommandError || err instanceof GameOverError)) throw err;
              return { id: check.id, passed: false, response: `refused: ${err.message}`.slice(0, 300) };
            }
            return { id: check.id, passed: effectHolds(check.verification.expect, response), response: response.slice(0, 300) };
          });
          return { results };
        }),
      );
    },
  };
}

export type KnowledgeActivities = ReturnType<typeof createKnowledgeActivities>;
