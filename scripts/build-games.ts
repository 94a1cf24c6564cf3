/**
 * Builds the project's own test games from game_files/src/*.inf with Debian's inform6 compiler
 * and library, and writes a ground-truth binding for each from the compiler's debug file.
 *
 *   npm run games:build           rebuild game_files/*.z5|z8 and *.binding.json
 *   npm run games:check           rebuild into a temp dir and fail if anything differs
 *
 * Each source declares its target with a `! target: v5` or `! target: v8` line (default v5).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';

const ROOT = join(__dirname, '..', 'game_files');
const SRC = join(ROOT, 'src');
const LIBRARY = '/usr/share/inform6/library';

function inform(): string {
  for (const bin of ['inform6', 'inform']) {
    try {
      execFileSync(bin, ['-h'], { stdio: 'ignore' });
      return bin;
    } catch {
      /* try the next name */
    }
  }
  throw new Error('The Inform 6 compiler is not installed: run `apt-get install -y inform6-compiler inform6-library`.');
}

function debugValue(dbg: string, tag: string, identifier: string, field: 'address' | 'value'): number {
  const re = new RegExp(`<${tag}><identifier>${identifier}</identifier><${field}>\\s*(\\d+)</${field}>`);
  const m = dbg.match(re);
  if (!m) throw new Error(`debug file has no ${tag} ${identifier}`);
  return Number(m[1]);
}

function build(outDir: string): string[] {
  const compiler = inform();
  if (!existsSync(LIBRARY)) throw new Error(`The Inform 6 library is missing at ${LIBRARY}: apt-get install -y inform6-library`);
  const written: string[] = [];
  for (const file of readdirSync(SRC)
    .filter((f) => f.endsWith('.inf'))
    .sort()) {
    const name = basename(file, '.inf');
    const source = readFileSync(join(SRC, file), 'utf8');
    const target = /^!\s*target:\s*v(\d)/m.exec(source)?.[1] ?? '5';
    const work = mkdtempSync(join(tmpdir(), 'grue-inform-'));
    const story = `${name}.z${target}`;
    try {
      execFileSync(compiler, ['-k', `-v${target}`, `+include_path=${LIBRARY}`, join(SRC, file), join(work, story)], {
        cwd: work,
        stdio: 'pipe',
      });
      const bytes = readFileSync(join(work, story));
      const dbg = readFileSync(join(work, 'gameinfo.dbg'), 'utf8');
      const maxScore = Number(/Constant MAX_SCORE\s+(\d+)/.exec(source)?.[1] ?? 0);
      const binding = {
        name: `${name} (grue test game)`,
        md5: createHash('md5').update(bytes).digest('hex'),
        playerObject: debugValue(dbg, 'object', 'selfobj', 'value'),
        location: 'playerParent',
        score: { kind: 'ram', addr: debugValue(dbg, 'global-variable', 'score', 'address'), offset: 0 },
        moves: { kind: 'ram', addr: debugValue(dbg, 'global-variable', 'turns', 'address'), offset: 0 },
        maxScore,
        deathTexts: ['*** You have died ***'],
        victoryTexts: ['*** You have won ***'],
        ignoreAttributes: [25],
      };
      writeFileSync(join(outDir, story), bytes);
      writeFileSync(join(outDir, `${name}.binding.json`), JSON.stringify(binding, null, 2) + '\n');
      written.push(story, `${name}.binding.json`);
    } finally {
      rmSync(work, { recursive: true, force: true });
    }
  }
  return written;
}

if (process.argv.includes('--check')) {
  const out = mkdtempSync(join(tmpdir(), 'grue-games-'));
  try {
    const files = build(out);
    const stale = files.filter((f) => !existsSync(join(ROOT, f)) || !readFileSync(join(ROOT, f)).equals(readFileSync(join(out, f))));
    if (stale.length) {
      console.error(`game_files out of date with their sources: ${stale.join(', ')}. Run \`npm run games:build\` and commit.`);
      process.exit(1);
    }
    console.log(`game_files up to date (${files.length} files checked).`);
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
} else {
  for (const f of build(ROOT)) console.log(`built game_files/${f}`);
}
