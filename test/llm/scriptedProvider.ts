/**
 * A scripted LLM for workflow tests: it answers the oracle with the first valid action and the
 * compaction with tool calls read off the turns it is given. It stands in for the model only
 * where a test is about the workflow's control flow (durability, failures), never as evidence
 * that a model works. Optional behaviour, for the tests that need it: a marker file while a
 * compaction is in progress (so a test can kill the worker during one), a delay, faults.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { z } from 'zod';
import { LlmError } from '../../src/llm/errors';
import type { Completion, CompletionRequest, LlmProvider, ToolCallRequest, ToolCallResult } from '../../src/llm/types';

export interface ScriptedOptions {
  /** Write `compacting-<turn>` here when a compaction starts. */
  markerDir?: string;
  /** Milliseconds the compaction of the window ending at this turn takes (the others answer at once). */
  compactionDelay?: { turn: number; ms: number };
  /** 'invalid': every compaction answers one call whose arguments break the schema; 'timeout': every compaction times out. */
  compactionFault?: 'invalid' | 'timeout';
  /**
   * The thoughtbox: 'chain' (default) thinks forward, revises thought 1, branches from it and
   * concludes with the second valid action; 'endless' never concludes; 'decline' makes no call.
   */
  thinking?: 'chain' | 'endless' | 'decline';
  /** Milliseconds the call for this thought number takes (with markerDir: `thinking-<n>` is written when it starts). */
  thinkingDelay?: { thought: number; ms: number };
  /** The blocking condition the oracle names every turn (default none). */
  blocker?: string;
  /** Milliseconds each knowledge update takes (with markerDir: `updating-<last turn>` is written when it starts). */
  knowledgeDelayMs?: number;
  /** Without a VALID ACTIONS list (the `none` assist): the commands to write, one per turn query, in order ('look' after). */
  typed?: string[];
}

const USAGE = { promptTokens: 100, completionTokens: 20 };

export class ScriptedProvider implements LlmProvider {
  readonly name = 'scripted';
  readonly model = 'scripted';
  compactions = 0;
  /** Every thoughtbox request, in order (in-process workers only). */
  readonly thinkRequests: ToolCallRequest[] = [];

  constructor(private readonly options: ScriptedOptions = {}) {}

  /** Every knowledge update and wisdom prompt, in order (in-process workers only). */
  readonly knowledgeRequests: CompletionRequest<z.ZodTypeAny>[] = [];
  /** Every oracle turn prompt, in order (in-process workers only). */
  readonly turnRequests: CompletionRequest<z.ZodTypeAny>[] = [];

  async complete<S extends z.ZodTypeAny>(request: CompletionRequest<S>): Promise<Completion<z.infer<S>>> {
    const user = request.messages.map((m) => m.content).join('\n');
    if (request.schemaName === 'knowledge_update' || request.schemaName === 'wisdom') return this.knowledge(request, user);
    if (request.schemaName === 'turn_analysis') this.turnRequests.push(request);
    const actions = JSON.parse(/VALID ACTIONS: (\[.*\])/.exec(user)?.[1] ?? '[]') as string[];
    const answer =
      request.schemaName === 'turn_analysis'
        ? {
            last_action_made_progress: true,
            accomplishment: '',
            failure_reason: '',
            prerequisite: '',
            overall_goal: 'win',
            immediate_goal: 'explore',
            blocking_condition: this.options.blocker ?? '',
            recommended_action: actions[0] ?? this.options.typed?.[this.turnRequests.length - 1] ?? 'look',
            action_reasoning: 'first listed',
            alternative_actions: actions.slice(1, 3),
            confidence: 'medium',
          }
        : { prerequisite: '', failure_reason: 'it did nothing', suggested_action: 'look', lesson: '' };
    return { value: request.schema.parse(answer), usage: USAGE, model: this.model, raw: JSON.stringify(answer) };
  }

  async callTools(request: ToolCallRequest): Promise<ToolCallResult> {
    if (request.tools.some((t) => t.name === 'thoughtbox')) return this.think(request);
    const user = request.messages.map((m) => m.content).join('\n');
    const turns = [...user.matchAll(/^\[(\d+)\] \(([^)]*)\) > (.*)$/gm)].map((m) => ({ turn: Number(m[1]), room: m[2], command: m[3] }));
    const last = turns[turns.length - 1]?.turn ?? 0;
    this.compactions++;
    if (this.options.markerDir) {
      mkdirSync(this.options.markerDir, { recursive: true });
      writeFileSync(join(this.options.markerDir, `compacting-${last}`), String(process.pid));
    }
    if (this.options.compactionDelay?.turn === last) await new Promise((r) => setTimeout(r, this.options.compactionDelay!.ms));
    if (this.options.compactionFault === 'timeout') throw new LlmError('timeout', 'scripted: the model did not answer in time');
    const rooms = [...new Set(turns.map((t) => t.room).filter(Boolean))];
    const calls = [
      ...rooms.map((name) => ({
        tool: 'update_location',
        arguments: { name, description: `seen by turn ${last}`, exits: [], features: [] },
      })),
      {
        tool: 'record_scene',
        arguments: {
          from_turn: turns[0]?.turn ?? 0,
          to_turn: last,
          summary: turns
            .map((t) => t.command)
            .join(', ')
            .slice(0, 100),
          outcome: '',
          narrative: `played to turn ${last}`,
        },
      },
    ];
    const parsed = calls.map((call) => ({ call, schema: request.tools.find((t) => t.name === call.tool)?.schema }));
    const valid = parsed.filter((p) => p.schema).map((p) => ({ tool: p.call.tool, arguments: p.schema!.parse(p.call.arguments) }));
    const invalid =
      this.options.compactionFault === 'invalid'
        ? [{ tool: 'update_item', error: 'where_kind: Invalid option', raw: { name: 'lamp', where_kind: 'pocket' } }]
        : [];
    return {
      calls: this.options.compactionFault === 'invalid' ? [] : valid,
      invalid,
      usage: USAGE,
      model: this.model,
      raw: JSON.stringify(calls),
    };
  }

  /**
   * Knowledge read off the prompt: an IMPL fact about the last action of the window (verified by
   * replaying it, expecting the first words of its response), a PRINCIPLE and a META item; the
   * wisdom names the episode it was written after.
   */
  private async knowledge<S extends z.ZodTypeAny>(request: CompletionRequest<S>, user: string): Promise<Completion<z.infer<S>>> {
    this.knowledgeRequests.push(request);
    const log = [...user.matchAll(/^Turn (\d+): (.*)\nResponse: (.*)$/gm)].map((m) => ({
      turn: Number(m[1]),
      action: m[2],
      response: m[3],
    }));
    const last = log[log.length - 1];
    if (this.options.markerDir && request.schemaName === 'knowledge_update') {
      mkdirSync(this.options.markerDir, { recursive: true });
      writeFileSync(join(this.options.markerDir, `updating-${last?.turn ?? 0}`), String(process.pid));
    }
    if (this.options.knowledgeDelayMs) await new Promise((r) => setTimeout(r, this.options.knowledgeDelayMs));
    const episode = /^EPISODE \d+|#(\d+)/m.exec(user)?.[1] ?? '?';
    const words = (last?.response ?? '').toLowerCase().match(/[a-z]{4,}/g) ?? [];
    const item = (layer: string, text: string, extra = {}) => ({
      layer,
      text,
      confidence: 0.6,
      keywords: words.slice(0, 2),
      room: '',
      verify_commands: [],
      verify_expect: '',
      replaces: '',
      ...extra,
    });
    const answer =
      request.schemaName === 'wisdom'
        ? {
            insights: [
              { layer: 'META', text: `lesson written after episode ${/EPISODE (\d+)/.exec(user)?.[1] ?? '?'}`, keywords: ['lesson'] },
            ],
          }
        : {
            items: last
              ? [
                  item('IMPL', `"${last.action}" at turn ${last.turn} answers: ${last.response.slice(0, 60)}`, {
                    verify_commands: [last.action],
                    verify_expect: words.slice(0, 3).join(' ') || 'ok',
                  }),
                  item('PRINCIPLE', `rule seen in turns up to ${last.turn} of episode ${episode}`, { confidence: 0.8 }),
                  item('META', 'read every response for new nouns', { confidence: 0.9, keywords: ['nouns'] }),
                ]
              : [],
          };
    return { value: request.schema.parse(answer), usage: USAGE, model: this.model, raw: JSON.stringify(answer) };
  }

  private async think(request: ToolCallRequest): Promise<ToolCallResult> {
    this.thinkRequests.push(request);
    const mode = this.options.thinking ?? 'chain';
    if (mode === 'decline') return { calls: [], invalid: [], usage: USAGE, model: this.model, raw: 'no need to think' };
    const n = request.messages.filter((m) => m.role === 'tool').length + 1;
    if (this.options.markerDir) {
      mkdirSync(this.options.markerDir, { recursive: true });
      writeFileSync(join(this.options.markerDir, `thinking-${n}`), String(process.pid));
    }
    if (this.options.thinkingDelay?.thought === n) await new Promise((r) => setTimeout(r, this.options.thinkingDelay!.ms));
    const user = request.messages.find((m) => m.role === 'user')?.content ?? '';
    const actions = JSON.parse(/VALID ACTIONS: (\[.*\])/.exec(user)?.[1] ?? '[]') as string[];
    const base = { thought: `thought ${n}`, thoughtNumber: n, totalThoughts: 4, nextThoughtNeeded: true };
    const chain = [
      base,
      { ...base, thought: 'thought 2 corrects thought 1', isRevision: true, revisesThought: 1 },
      { ...base, thought: 'thought 3 tries another way', branchFromThought: 1, branchId: 'other' },
      { ...base, thought: 'thought 4 decides', nextThoughtNeeded: false, action: actions[1] ?? actions[0] ?? 'look' },
    ];
    const args = mode === 'endless' ? base : (chain[n - 1] ?? base);
    return {
      calls: [{ tool: 'thoughtbox', arguments: request.tools[0].schema.parse(args) }],
      invalid: [],
      usage: USAGE,
      model: this.model,
      raw: JSON.stringify(args),
    };
  }

  async preflight(): Promise<void> {}
  async close(): Promise<void> {}
}
