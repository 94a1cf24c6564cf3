/**
 * The embedded default: node-llama-cpp running a small GGUF model in a child process of the
 * worker (src/llm/local/host.mjs), loaded once and reused. Output is constrained by a grammar
 * built from the answer's JSON Schema, then validated with zod like any other provider's. Tool
 * calls are such an answer too: `{ "calls": [...] }`, each item one tool's call.
 */
import { ChildProcess, fork } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { LlmError } from './errors';
import { jsonSchemaFor, llamaGrammarSchema, parseAnswer } from './json';
import { embeddedModel, modelPath } from './models';
import { answeredWithRepair } from './repair';
import {
  checkToolRequest,
  DEFAULT_TOOL_MAX_TOKENS,
  messagesAsText,
  readCallsAnswer,
  toolCallsAnswerSchema,
  toolListPrompt,
  validateCalls,
} from './tools';
import type {
  ChatMessage,
  Completion,
  CompletionRequest,
  GenerationTiming,
  LlmProvider,
  ToolCallRequest,
  ToolCallResult,
  Usage,
} from './types';

interface Generation {
  messages: ChatMessage[];
  /** The answer's JSON Schema, which the host turns into a grammar. */
  jsonSchema: Record<string, unknown>;
  maxTokens: number;
  temperature?: number;
  seed?: number;
  onProgress?: () => void;
}

interface Pending {
  resolve: (msg: HostMessage) => void;
  reject: (err: Error) => void;
  onProgress?: () => void;
  timer: NodeJS.Timeout;
}

interface HostMessage {
  type: 'loaded' | 'result' | 'error' | 'progress';
  id?: number;
  text?: string;
  promptTokens?: number;
  completionTokens?: number;
  timing?: GenerationTiming;
  message?: string;
}

/**
 * The embedded model's threads unless configured: a small model's answer is paced by its grammar,
 * not its threads (22 vs 24 tokens/s alone on 2 cores), and llama.cpp's threads spin-wait for each
 * other, so beside other work (a suite's second game, the probe threads) two of them fell to 3.4
 * tokens/s where one kept 12.7.
 */
export const EMBEDDED_MODEL_THREADS = 1;

export interface LocalProviderOptions {
  modelId: string;
  /** Override the cached model file (tests, custom GGUF files). */
  modelFile?: string;
  threads?: number;
  timeoutMs?: number;
}

export class LocalProvider implements LlmProvider {
  readonly name = 'local';
  readonly model: string;
  private child: ChildProcess | null = null;
  private ready: Promise<void> | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();
  /** One generation at a time: the model has one context. */
  private queue: Promise<unknown> = Promise.resolve();

  constructor(private readonly opts: LocalProviderOptions) {
    this.model = opts.modelId;
  }

  private file(): string {
    return this.opts.modelFile ?? modelPath(this.opts.modelId);
  }

  private start(): Promise<void> {
    if (this.ready) return this.ready;
    const file = this.file();
    if (!existsSync(file)) {
      return Promise.reject(new LlmError('config', `The embedded model file ${file} is missing. Run \`npx grue setup\` to fetch it.`));
    }
    const child = fork(join(__dirname, 'local', 'host.mjs'), [], { stdio: ['ignore', 'ignore', 'pipe', 'ipc'] });
    this.child = child;
    // The host must not keep a finished CLI or worker alive; it exits when we disconnect.
    child.unref();
    (child.channel as { unref?: () => void } | undefined)?.unref?.();
    let stderr = '';
    child.stderr?.on('data', (d) => (stderr = (stderr + String(d)).slice(-2000)));
    child.on('message', (msg: HostMessage) => {
      const p = msg.id !== undefined ? this.pending.get(msg.id) : [...this.pending.values()][0];
      if (!p) return;
      if (msg.type === 'progress') {
        p.onProgress?.();
        return;
      }
      clearTimeout(p.timer);
      this.pending.delete(msg.id!);
      if (this.pending.size === 0) (this.child?.channel as { unref?: () => void } | undefined)?.unref?.();
      if (msg.type === 'error') p.reject(new LlmError('server', `The embedded model failed: ${msg.message}`));
      else p.resolve(msg);
    });
    child.on('exit', (code, signal) => {
      // A host already given up on (timed out) has been replaced: nothing of ours to fail.
      if (this.child !== child) return;
      // A crashed host fails what it was doing (retryable) and is started afresh next time.
      for (const [id, p] of this.pending) {
        clearTimeout(p.timer);
        p.reject(new LlmError('server', `The embedded model process exited (${code ?? signal}). ${stderr.trim()}`));
        this.pending.delete(id);
      }
      this.child = null;
      this.ready = null;
    });
    const model = embeddedModel(this.opts.modelId);
    this.ready = this.request(
      { type: 'load', modelPath: file, contextSize: model.contextSize, threads: this.opts.threads ?? EMBEDDED_MODEL_THREADS },
      120_000,
    ).then(() => undefined);
    this.ready.catch(() => {
      this.ready = null;
    });
    return this.ready;
  }

  private request(msg: Record<string, unknown>, timeoutMs: number, onProgress?: () => void): Promise<HostMessage> {
    const id = this.nextId++;
    return new Promise<HostMessage>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.pending.delete(id);
        // A stuck generation cannot be interrupted from outside: kill the host, and let the next
        // request start a fresh one at once rather than reach the dying process.
        this.child?.kill('SIGKILL');
        this.child = null;
        this.ready = null;
        reject(new LlmError('timeout', `The embedded model took longer than ${Math.round(timeoutMs / 1000)} s.`));
      }, timeoutMs);
      this.pending.set(id, { resolve, reject, onProgress, timer });
      // While a request is out, the channel must keep the process alive to hear the answer.
      (this.child!.channel as { ref?: () => void } | undefined)?.ref?.();
      this.child!.send({ ...msg, id });
    });
  }

  /** One generation at a time, in call order; a failed one does not block the next. */
  private serialized<T>(run: () => Promise<T>): Promise<T> {
    const result = this.queue.then(run, run);
    this.queue = result.catch(() => undefined);
    return result;
  }

  private async generate(g: Generation): Promise<{ raw: string; usage: Usage; timing?: GenerationTiming }> {
    await this.start();
    const msg = await this.request(
      {
        type: 'complete',
        messages: g.messages,
        jsonSchema: llamaGrammarSchema(g.jsonSchema),
        maxTokens: g.maxTokens,
        temperature: g.temperature ?? 0,
        seed: g.seed ?? 0,
      },
      this.opts.timeoutMs ?? 120_000,
      g.onProgress,
    );
    return {
      raw: msg.text ?? '',
      usage: { promptTokens: msg.promptTokens ?? 0, completionTokens: msg.completionTokens ?? 0 },
      timing: msg.timing,
    };
  }

  complete<S extends z.ZodTypeAny>(req: CompletionRequest<S>): Promise<Completion<z.infer<S>>> {
    const maxTokens = req.maxTokens ?? 300;
    return this.serialized(async () => {
      // The grammar fixes the shape; what it cannot say (lengths, a cut-off answer) is repaired once.
      const result = await answeredWithRepair(
        messagesAsText(req.messages),
        maxTokens,
        async (messages) => {
          const answer = await this.generate({ ...req, messages, jsonSchema: jsonSchemaFor(req.schema), maxTokens });
          return { ...answer, cutOff: answer.usage.completionTokens >= maxTokens };
        },
        (answer) => parseAnswer(req.schema, answer.raw, req.schemaName),
      );
      const { raw, timing, cutOff } = result.answer;
      return { value: result.value, usage: result.usage, model: this.model, raw, timing, cutOff };
    });
  }

  async callTools(req: ToolCallRequest): Promise<ToolCallResult> {
    const { maxCalls } = checkToolRequest(req);
    const maxTokens = req.maxTokens ?? DEFAULT_TOOL_MAX_TOKENS;
    const required = req.toolChoice === 'required';
    return this.serialized(async () => {
      const { raw, usage } = await this.generate({
        ...req,
        // The host folds every system message into one system prompt, after the caller's own.
        messages: [...messagesAsText(req.messages), { role: 'system', content: toolListPrompt(req.tools, maxCalls, required) }],
        jsonSchema: jsonSchemaFor(toolCallsAnswerSchema(req.tools, maxCalls, required)),
        maxTokens,
      });
      // The grammar already forces the strict shape; reading it loosely lets each call be judged alone.
      return { ...validateCalls(req.tools, readCallsAnswer(raw, maxTokens), maxCalls), usage, model: this.model, raw };
    });
  }

  async preflight(): Promise<void> {
    await this.start();
  }

  async close(): Promise<void> {
    this.child?.kill('SIGTERM');
    this.child = null;
    this.ready = null;
  }
}
