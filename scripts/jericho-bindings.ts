/**
 * Reads the per-game facts of Jericho's C source into grue's binding files.
 *
 *   npx tsx scripts/jericho-bindings.ts [--jericho DIR] [--check]
 *
 * DIR is an unpacked Jericho source release (default $JERICHO_SRC or /tmp/jericho-src/jericho-3.3.1;
 * `pip download --no-binary :all: jericho==3.3.1` fetches it). For every game in
 * frotz/src/interface/frotz_interface.c load_rom_bindings (its md5) it reads frotz/src/games/<game>.c:
 * get_score and get_moves (RAM word or byte, signed or not), get_self_object_num, max_score, the
 * victory and game_over texts, intro_actions, the special RAM addresses, ignore_moved_obj,
 * ignore_attr_diff, ignore_attr_clr and clean_world_objs; and the story's file name from
 * jericho/game_info.py. It writes game_files/bindings/<game>.binding.json.
 *
 * A fact the script cannot read (a score Jericho parses from the screen) is kept from the file
 * already there, and said on stderr; without such a file the game is reported and skipped. The
 * JSON files are what is committed and reviewed; --check only reports what would change.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const OUT = join(__dirname, '..', 'game_files', 'bindings');

type Json = Record<string, unknown>;
interface AttributeChange {
  object?: number;
  attribute?: number;
}
type Term = { variable: 'obj_num' | 'dest_num' | 'attr_idx'; equal: boolean; value: number };

class Unreadable extends Error {}

function arg(name: string): string | undefined {
  const i = process.argv.indexOf(`--${name}`);
  return i >= 0 ? process.argv[i + 1] : undefined;
}

/** C source without comments (string literals kept as they are). */
function stripComments(source: string): string {
  let out = '';
  for (let i = 0; i < source.length; i++) {
    const c = source[i];
    if (c === '"') {
      const end = stringEnd(source, i);
      out += source.slice(i, end + 1);
      i = end;
    } else if (source.startsWith('//', i)) {
      while (i < source.length && source[i] !== '\n') i++;
      out += '\n';
    } else if (source.startsWith('/*', i)) {
      i = source.indexOf('*/', i + 2) + 1;
    } else out += c;
  }
  return out;
}

function stringEnd(source: string, open: number): number {
  for (let i = open + 1; i < source.length; i++) {
    if (source[i] === '\\') i++;
    else if (source[i] === '"') return i;
  }
  throw new Unreadable('unterminated string');
}

function cStrings(code: string): string[] {
  return [...code.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((m) => JSON.parse(`"${m[1].replace(/\\'/g, "'")}"`) as string);
}

/** The body of `<prefix>_<fn>(...) { ... }`, comments removed. */
function body(code: string, prefix: string, fn: string): string {
  const head = new RegExp(String.raw`\b${prefix}_${fn}\s*\([^)]*\)\s*\{`).exec(code);
  if (!head) throw new Unreadable(`no ${prefix}_${fn}`);
  let depth = 1;
  for (let i = head.index + head[0].length; i < code.length; i++) {
    if (code[i] === '"') i = stringEnd(code, i);
    else if (code[i] === '{') depth++;
    else if (code[i] === '}' && --depth === 0) return code.slice(head.index + head[0].length, i);
  }
  throw new Unreadable(`unbalanced ${prefix}_${fn}`);
}

const squeeze = (code: string) => code.replace(/\s+/g, '');

function returnedNumber(code: string, prefix: string, fn: string): number {
  const m = /^return(\d+);$/.exec(squeeze(body(code, prefix, fn)));
  if (!m) throw new Unreadable(`${fn} is not a constant`);
  return Number(m[1]);
}

/** get_score / get_moves as a number source; score returns a C short (signed), moves an int. */
function numberSource(code: string, prefix: string, fn: 'get_score' | 'get_moves'): Json {
  const text = squeeze(body(code, prefix, fn));
  let m = /^return\(\(\(short\)zmp\[(\d+)\]\)<<8\)\|zmp\[(\d+)\];$/.exec(text);
  if (m && Number(m[2]) === Number(m[1]) + 1) return { kind: 'ram', addr: Number(m[1]), signed: fn === 'get_score' };
  m = /^return\(\(\(\(short\)zmp\[(\d+)\]\)<<8\)\|zmp\[(\d+)\]\)-(\d+);$/.exec(text);
  if (m && Number(m[2]) === Number(m[1]) + 1) return { kind: 'ram', addr: Number(m[1]), offset: -Number(m[3]), signed: fn === 'get_score' };
  m = /^return(\(char\))?zmp\[(\d+)\];$/.exec(text);
  // A C char is signed on the x86-64 Linux build Jericho ships.
  if (m) return { kind: 'byte', addr: Number(m[2]), ...(m[1] ? { signed: true } : {}) };
  m = new RegExp(String.raw`^if\(${prefix}_victory\(\)\)\{return(\d+);\}return0;$`).exec(text);
  if (m) return { kind: 'victory', value: Number(m[1]) };
  throw new Unreadable(`${fn} is neither a RAM word nor a byte (${text.slice(0, 80)})`);
}

/** The first n values of the array a `<prefix>_<fn>(int *n)` function returns. */
function returnedArray(code: string, prefix: string, fn: string): string[] {
  const text = squeeze(body(code, prefix, fn));
  if (text === '*n=0;returnNULL;') return [];
  const m = /^\*n=(\d+);return(\w+);$/.exec(text);
  if (!m) throw new Unreadable(`${fn} is not "*n = K; return array;"`);
  const array = new RegExp(String.raw`\b${m[2]}\s*\[\s*\d*\s*\]\s*=\s*\{([^}]*)\}`).exec(code);
  if (!array) throw new Unreadable(`no array ${m[2]}`);
  const items = array[1].includes('"')
    ? cStrings(array[1])
    : array[1]
        .split(',')
        .map((s) => s.trim())
        .filter(Boolean);
  return items.slice(0, Number(m[1]));
}

/** The conditions under which an ignore_* function returns 1: a list of conjunctions of terms. */
function ignoreRules(code: string, prefix: string, fn: string): Term[][] {
  let text = squeeze(body(code, prefix, fn)).replace(/[{}]/g, '');
  const rules: Term[][] = [];
  text = text.replace(/((?:if\([^()]*\))*)return1;/g, (_, ifs: string) => {
    let product: Term[][] = [[]];
    for (const [, condition] of ifs.matchAll(/if\(([^()]*)\)/g)) {
      const alternatives = condition.split('||').map((alternative) => alternative.split('&&').map(term));
      product = product.flatMap((rule) => alternatives.map((alternative) => [...rule, ...alternative]));
    }
    rules.push(...product);
    return '';
  });
  if (text !== '' && text !== 'return0;') throw new Unreadable(`${fn} has statements the script does not read: ${text}`);
  return rules;
}

function term(text: string): Term {
  const m = /^(obj_num|dest_num|attr_idx)(==|!=)(\d+)$/.exec(text);
  if (!m) throw new Unreadable(`condition ${text}`);
  return { variable: m[1] as Term['variable'], equal: m[2] === '==', value: Number(m[3]) };
}

function attributeChange(rule: Term[], fn: string): AttributeChange {
  const change: AttributeChange = {};
  for (const t of rule) {
    if (!t.equal || t.variable === 'dest_num') throw new Unreadable(`${fn}: ${JSON.stringify(rule)}`);
    if (t.variable === 'obj_num') change.object = t.value;
    else change.attribute = t.value;
  }
  return change;
}

/** clean_world_objs: the objects it unlinks from the tree and the attributes it clears on every object. */
function cleaned(code: string, prefix: string): { objects: number[]; attributes: number[] } {
  const text = squeeze(body(code, prefix, 'clean_world_objs'));
  const masks = new Map<string, number[]>();
  for (const [, name, value] of text.matchAll(/(\w+)=((?:~\(1<<\d\)|~1)(?:&(?:~\(1<<\d\)|~1))*);/g)) {
    masks.set(
      name,
      [...value.matchAll(/~(?:\(1<<(\d)\)|1)/g)].map((bit) => Number(bit[1] ?? 0)),
    );
  }
  const attributes: number[] = [];
  for (const [, index, mask] of text.matchAll(/objs\[i\]\.attr\[(\d)\]&=(\w+);/g)) {
    const bits = masks.get(mask);
    if (!bits) throw new Unreadable(`clean_world_objs mask ${mask}`);
    // Jericho's attr[k] bit (1 << b) is Z-machine attribute 8k + 7 - b.
    for (const bit of bits) attributes.push(8 * Number(index) + 7 - bit);
  }
  const objects: number[] = [];
  for (const [, pointer, object] of text.matchAll(/(\w+)=&objs\[(\d+)\];/g)) {
    if (text.includes(`${pointer}->parent=0;`)) objects.push(Number(object));
  }
  return { objects, attributes: [...new Set(attributes)].sort((a, b) => a - b) };
}

const sortNumbers = (xs: Iterable<number>) => [...new Set(xs)].sort((a, b) => a - b);
const changeKey = (c: AttributeChange) => `${c.object ?? '*'}.${c.attribute ?? '*'}`;

function worldMask(code: string, prefix: string): Json {
  const ignoreObjects = new Set<number>();
  const ignoreMovesInto = new Set<number>();
  let onlyMovesOfOrInto: number | undefined;
  for (const rule of ignoreRules(code, prefix, 'ignore_moved_obj')) {
    const [a, b] = rule;
    if (rule.length === 1 && a.equal && a.variable === 'obj_num') ignoreObjects.add(a.value);
    else if (rule.length === 1 && a.equal && a.variable === 'dest_num') ignoreMovesInto.add(a.value);
    else if (rule.length === 2 && !a.equal && !b.equal && a.value === b.value && a.variable !== b.variable) onlyMovesOfOrInto = a.value;
    else throw new Unreadable(`ignore_moved_obj: ${JSON.stringify(rule)}`);
  }
  // What clean_world_objs strips leaves Jericho's world-state hash, not its diff (its ignore_*
  // functions decide that): grue keeps it apart as hash-only.
  const clean = cleaned(code, prefix);
  const ignoreAttributes = new Set<number>();
  const changes = (fn: string) =>
    new Map(
      ignoreRules(code, prefix, fn)
        .map((rule) => attributeChange(rule, fn))
        .map((c) => [changeKey(c), c]),
    );
  const set = changes('ignore_attr_diff');
  const cleared = changes('ignore_attr_clr');
  const ignoreObjectAttributes: Array<[number, number]> = [];
  for (const [key, change] of set) {
    if (!cleared.has(key)) continue;
    if (change.object === undefined && change.attribute !== undefined) ignoreAttributes.add(change.attribute);
    else if (change.object !== undefined && change.attribute !== undefined) {
      if (!ignoreObjects.has(change.object)) ignoreObjectAttributes.push([change.object, change.attribute]);
    } else continue;
    set.delete(key);
    cleared.delete(key);
  }
  const covered = (c: AttributeChange) =>
    (c.object !== undefined && ignoreObjects.has(c.object)) ||
    (c.attribute !== undefined && ignoreAttributes.has(c.attribute)) ||
    ignoreObjectAttributes.some(([o, a]) => o === c.object && a === c.attribute);
  const oneWay = (changes: Map<string, AttributeChange>) => [...changes.values()].filter((c) => !covered(c));
  return {
    ignoreObjects: sortNumbers(ignoreObjects),
    ignoreAttributes: sortNumbers(ignoreAttributes),
    hashOnlyObjects: sortNumbers(clean.objects.filter((o) => !ignoreObjects.has(o))),
    hashOnlyAttributes: sortNumbers(clean.attributes.filter((a) => !ignoreAttributes.has(a))),
    ignoreObjectAttributes: ignoreObjectAttributes.sort((x, y) => x[0] - y[0] || x[1] - y[1]),
    ignoreWhenSet: oneWay(set),
    ignoreWhenCleared: oneWay(cleared),
    ignoreMovesInto: sortNumbers(ignoreMovesInto),
    onlyMovesOfOrInto,
  };
}

/** md5 → C file stem, from load_rom_bindings (ROM_IDX names are the file names in capitals). */
function romTable(jericho: string): Map<string, string> {
  const code = readFileSync(join(jericho, 'frotz', 'src', 'interface', 'frotz_interface.c'), 'utf8');
  const table = new Map<string, string>();
  for (const [, md5, index] of code.matchAll(/strcmp\(md5_hash, "([0-9A-F]{32})"\) == 0\) \{\s*ROM_IDX = (\w+)_;/g)) {
    table.set(md5.toLowerCase(), index.toLowerCase());
  }
  return table;
}

/** game_info.py: variable name → { name, rom }. */
function gameInfo(jericho: string): Map<string, { name: string; rom: string }> {
  const code = readFileSync(join(jericho, 'jericho', 'game_info.py'), 'utf8');
  const info = new Map<string, { name: string; rom: string }>();
  const entry = /^(\w+) = \{\s*"name"\s*:\s*"([^"]+)",\s*"rom"\s*:\s*"([^"]+)"/gm;
  for (const [, variable, name, rom] of code.matchAll(entry)) info.set(variable, { name, rom });
  return info;
}

type GameInfo = Map<string, { name: string; rom: string }>;

function bindingFor(jericho: string, version: string, md5: string, stem: string, info: GameInfo, kept: Json | undefined) {
  const file = join('frotz', 'src', 'games', `${stem}.c`);
  const raw = readFileSync(join(jericho, file), 'utf8');
  const code = stripComments(raw);
  const prefix = /\b(\w+)_get_score\s*\(/.exec(code)?.[1];
  if (!prefix) throw new Unreadable('no get_score');
  const game = info.get(stem) ?? [...info.values()].find((g) => g.rom.replace(/\.z\d$/, '') === stem);
  if (!game) throw new Unreadable('not in game_info.py');
  const title = /^\/\/ (.+?)(?::| -) *https?:\/\//m.exec(raw)?.[1].trim() ?? game.name;
  const handKept: string[] = [];
  const read = (field: string, reader: () => unknown): unknown => {
    try {
      return reader();
    } catch (err) {
      if (!(err instanceof Unreadable) || kept?.[field] === undefined) throw err;
      handKept.push(field);
      return kept[field];
    }
  };
  const binding: Json = {
    name: title,
    md5,
    source: '',
    storyFile: game.rom,
    resetCommands: returnedArray(code, prefix, 'intro_actions').map((command) => command.replace(/\n$/, '')),
    playerObject: returnedNumber(code, prefix, 'get_self_object_num'),
    location: 'playerParent',
    score: read('score', () => numberSource(code, prefix, 'get_score')),
    moves: read('moves', () => numberSource(code, prefix, 'get_moves')),
    maxScore: returnedNumber(code, prefix, 'max_score'),
    deathTexts: cStrings(body(code, prefix, 'game_over')),
    victoryTexts: cStrings(body(code, prefix, 'victory')),
    ...worldMask(code, prefix),
    watchRam: returnedArray(code, prefix, 'ram_addrs').map(Number),
  };
  binding.source =
    `Jericho ${version}: ${file.replace(/\\/g, '/')} (get_self_object_num, get_score, get_moves, max_score, game_over, victory, ` +
    'intro_actions, ram_addrs, ignore_moved_obj, ignore_attr_diff, ignore_attr_clr, clean_world_objs); md5 from ' +
    'frotz/src/interface/frotz_interface.c load_rom_bindings; storyFile from jericho/game_info.py. ' +
    "location: the player's parent, as Jericho's get_player_location reads it." +
    (handKept.length ? ` ${handNote(kept, handKept)}` : '');
  // Empty lists and absent values are the schema's defaults: leave them out.
  for (const [key, value] of Object.entries(binding)) {
    if (value === undefined || (Array.isArray(value) && value.length === 0)) delete binding[key];
  }
  return { name: game.name, binding };
}

/** What the kept file says about its hand-written fields (its "By hand: ..." sentence), or a plain note. */
function handNote(kept: Json | undefined, fields: string[]): string {
  const said = /By hand: .*$/.exec(String(kept?.source ?? ''))?.[0];
  return said ?? `By hand: ${fields.join(', ')} (the C source computes it rather than reading RAM).`;
}

/** JSON with one item per line, but small flat objects and lists of numbers on one line. */
function format(value: unknown, indent = ''): string {
  const inner = `${indent}  `;
  if (Array.isArray(value)) {
    if (value.every((v) => typeof v === 'number')) return `[${value.join(', ')}]`;
    return `[\n${value.map((v) => inner + format(v, inner)).join(',\n')}\n${indent}]`;
  }
  if (typeof value === 'object' && value !== null) {
    const entries = Object.entries(value);
    const pair = ([k, v]: [string, unknown]) => `${JSON.stringify(k)}: ${JSON.stringify(v)}`;
    if (entries.every(([, v]) => typeof v !== 'object')) return `{ ${entries.map(pair).join(', ')} }`;
    return `{\n${entries.map(([k, v]) => `${inner}${JSON.stringify(k)}: ${format(v, inner)}`).join(',\n')}\n${indent}}`;
  }
  return JSON.stringify(value);
}

function main(): void {
  const jericho = arg('jericho') ?? process.env.JERICHO_SRC ?? '/tmp/jericho-src/jericho-3.3.1';
  const check = process.argv.includes('--check');
  if (!existsSync(join(jericho, 'frotz', 'src', 'games'))) {
    console.error(`No Jericho source at ${jericho}: unpack jericho-3.3.1.tar.gz there, or pass --jericho DIR.`);
    process.exit(2);
  }
  const version = /__version__ = '([^']+)'/.exec(readFileSync(join(jericho, 'jericho', 'version.py'), 'utf8'))?.[1] ?? '?';
  const info = gameInfo(jericho);
  let differences = 0;
  let failures = 0;
  for (const [md5, stem] of romTable(jericho)) {
    const guess = info.get(stem)?.name ?? stem;
    const path = join(OUT, `${guess}.binding.json`);
    const kept = existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Json) : undefined;
    try {
      const { binding } = bindingFor(jericho, version, md5, stem, info, kept);
      const text = format(binding) + '\n';
      const same = existsSync(path) && readFileSync(path, 'utf8') === text;
      if (!same) differences++;
      if (check) console.error(`${same ? 'same' : 'DIFFERS'} ${path}`);
      else if (!same) writeFileSync(path, text);
    } catch (err) {
      if (!(err instanceof Unreadable)) throw err;
      failures++;
      console.error(`${stem}: ${err.message}; write ${path} by hand (its fields are kept on the next run)`);
    }
  }
  console.error(`${check ? 'checked' : 'wrote'} bindings: ${differences} ${check ? 'differ' : 'changed'}, ${failures} unreadable`);
  process.exit(failures || (check && differences) ? 1 : 0);
}

main();
