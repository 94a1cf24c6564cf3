/**
 * llama-cpp-python's OpenAI-compatible server, as a user runs it, for the platform tests and
 * `npm run eval:servers`: installed by scripts/install-llm-server.sh into ~/.cache/grue (built
 * from source once, then reused), started on loopback with the embedded Gemma GGUF in a given
 * chat format (`null`: the server's default, the GGUF's own template).
 */
import { execFileSync, spawn } from 'node:child_process';
import { freePort } from '../src/temporal/server';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');

/** The venv's python, installing the server first if it is not there yet (about 16 minutes on 2 cores, once). */
export function installLlmServer(): string {
  const out = execFileSync('bash', [join(ROOT, 'scripts/install-llm-server.sh')], {
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
  });
  return out.trim().split('\n').pop()!;
}

export interface LlamaCppServer {
  /** The base URL, with /v1. */
  url: string;
  /** The model name the server answers to. */
  model: string;
  /** The context it was started with (--n_ctx): what grue is told as GRUE_LLM_CONTEXT_TOKENS. */
  contextTokens: number;
  chatFormat: string;
  /** What the server printed (its errors, when a test fails). */
  output(): string;
  stop(): Promise<void>;
}

export interface LlamaCppServerOptions {
  python: string;
  modelPath: string;
  /** e.g. chatml-function-calling; null: the server's default. */
  chatFormat: string | null;
  threads?: number;
  contextSize?: number;
  /** How long the server may take to load the model and answer its model list. */
  startTimeoutMs?: number;
}

export async function startLlamaCppServer(opts: LlamaCppServerOptions): Promise<LlamaCppServer> {
  const port = await freePort();
  const model = 'gemma';
  const contextTokens = opts.contextSize ?? 8192;
  const args = ['-m', 'llama_cpp.server', '--model', opts.modelPath, '--model_alias', model, '--host', '127.0.0.1', '--port', `${port}`];
  args.push('--n_ctx', `${contextTokens}`, '--n_threads', `${opts.threads ?? 2}`, '--verbose', 'false');
  if (opts.chatFormat) args.push('--chat_format', opts.chatFormat);
  const child = spawn(opts.python, args, { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  const keep = (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}/v1`;
  const stop = async () => {
    if (child.exitCode === null) child.kill('SIGTERM');
    await Promise.race([exited, new Promise((r) => setTimeout(r, 5000))]);
    if (child.exitCode === null) child.kill('SIGKILL');
  };
  const deadline = Date.now() + (opts.startTimeoutMs ?? 120_000);
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`llama-cpp-python's server exited with ${child.exitCode}:\n${output}`);
    const up = await fetch(`${url}/models`).then(
      (r) => r.ok,
      () => false,
    );
    if (up) return { url, model, contextTokens, chatFormat: opts.chatFormat ?? 'default', output: () => output, stop };
    await new Promise((r) => setTimeout(r, 500));
  }
  await stop();
  throw new Error(`llama-cpp-python's server did not answer within ${(opts.startTimeoutMs ?? 120_000) / 1000} s:\n${output}`);
}
