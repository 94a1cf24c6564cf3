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
  /** Milliseconds each compaction takes. */
  compactionDelayMs?: number;
  /** 'invalid': every compaction answers one call whose arguments break the schema; 'timeout': every compaction times out. */
  compactionFault?: 'invalid' | 'timeout';
}

const USAGE = { promptTokens: 100, completionTokens: 20 };

export class ScriptedProvider implements LlmProvider {
  readonly name = 'scripted';
  readonly model = 'scripted';
  compactions = 0;

  constructor(private readonly options: ScriptedOptions = {}) {}

  async complete<S extends z.ZodTypeAny>(request: CompletionRequest<S>): Promise<Completion<z.infer<S>>> {
    const user = request.messages.map((m) => m.content).join('\n');
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
            blocking_condition: '',
            recommended_action: actions[0] ?? 'look',
            action_reasoning: 'first listed',
            alternative_actions: actions.slice(1, 3),
            confidence: 'medium',
          }
        : { prerequisite: '', failure_reason: 'it did nothing', suggested_action: 'look', lesson: '' };
    return { value: request.schema.parse(answer), usage: USAGE, model: this.model, raw: JSON.stringify(answer) };
  }

  async callTools(request: ToolCallRequest): Promise<ToolCallResult> {
    const user = request.messages.map((m) => m.content).join('\n');
    const turns = [...user.matchAll(/^\[(\d+)\] \(([^)]*)\) > (.*)$/gm)].map((m) => ({ turn: Number(m[1]), room: m[2], command: m[3] }));
    const last = turns[turns.length - 1]?.turn ?? 0;
    this.compactions++;
    if (this.options.markerDir) {
      mkdirSync(this.options.markerDir, { recursive: true });
      writeFileSync(join(this.options.markerDir, `compacting-${last}`), String(process.pid));
    }
    if (this.options.compactionDelayMs) await new Promise((r) => setTimeout(r, this.options.compactionDelayMs));
    if (this.options.compactionFault === 'timeout') throw new LlmError('timeout', 'scripted: the model did not answer in time');
    const rooms = [...new Set(turns.map((t) => t.room).filter(Boolean))];
    const calls = [
      ...rooms.map((name) => ({ tool: 'update_location', arguments: { name, description: `seen by turn ${last}`, exits: [], features: [] } })),
      { tool: 'record_scene', arguments: { from_turn: turns[0]?.turn ?? 0, to_turn: last, summary: turns.map((t) => t.command).join(', ').slice(0, 100), outcome: '', narrative: `played to turn ${last}` } },
    ];
    const parsed = calls.map((call) => ({ call, schema: request.tools.find((t) => t.name === call.tool)?.schema }));
    const valid = parsed.filter((p) => p.schema).map((p) => ({ tool: p.call.tool, arguments: p.schema!.parse(p.call.arguments) }));
    const invalid = this.options.compactionFault === 'invalid' ? [{ tool: 'update_item', error: 'where_kind: Invalid option', raw: { name: 'lamp', where_kind: 'pocket' } }] : [];
    return { calls: this.options.compactionFault === 'invalid' ? [] : valid, invalid, usage: USAGE, model: this.model, raw: JSON.stringify(calls) };
  }

  async preflight(): Promise<void> {}
  async close(): Promise<void> {}
}
