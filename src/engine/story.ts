import { createHash } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { StoryFileError } from './errors';

/** The Z-machine versions ZVM runs. 6 is graphical and 7 is vanishingly rare. */
export const SUPPORTED_VERSIONS = [3, 4, 5, 8] as const;

export interface StoryInfo {
  /** md5 of the story file bytes: the key per-game bindings are stored under. */
  md5: string;
  version: number;
  release: number;
  serial: string;
  /** Byte length of dynamic memory (RAM), i.e. the start of static memory. */
  staticBase: number;
  dictionary: number;
  objectTable: number;
  globals: number;
  /** A printable id such as `r119-s880429`. */
  id: string;
  /** True when the serial looks like an Inform-compiled date rather than Infocom's. */
  inform: boolean;
}

export interface LoadedStory {
  bytes: Uint8Array;
  info: StoryInfo;
  /** Where the story came from, for messages. */
  label: string;
}

const HEADER_SIZE = 64;

function word(bytes: Uint8Array, addr: number): number {
  return (bytes[addr] << 8) | bytes[addr + 1];
}

/** Story files wrapped in Blorb keep their Z-code in a ZCOD chunk. */
function unwrapBlorb(bytes: Uint8Array, label: string): Uint8Array {
  const tag = (at: number) => String.fromCharCode(...bytes.subarray(at, at + 4));
  if (bytes.length < 12 || tag(0) !== 'FORM' || tag(8) !== 'IFRS') return bytes;
  let at = 12;
  while (at + 8 <= bytes.length) {
    const type = tag(at);
    const len = ((bytes[at + 4] << 24) | (bytes[at + 5] << 16) | (bytes[at + 6] << 8) | bytes[at + 7]) >>> 0;
    if (type === 'ZCOD') {
      if (at + 8 + len > bytes.length) throw new StoryFileError('TRUNCATED_STORY', `${label}: the Blorb file's ZCOD chunk is cut short.`);
      return bytes.subarray(at + 8, at + 8 + len);
    }
    at += 8 + len + (len & 1);
  }
  throw new StoryFileError(
    'NOT_A_STORY',
    `${label}: a Blorb file, but it holds no Z-code (ZCOD) chunk; only Z-machine games are supported.`,
  );
}

/** Validate a story's header and describe it. Throws StoryFileError with a message a person can act on. */
export function inspectStory(raw: Uint8Array, label = 'story'): LoadedStory {
  const bytes = unwrapBlorb(raw, label);
  if (bytes.length < HEADER_SIZE) {
    throw new StoryFileError(
      'NOT_A_STORY',
      `${label}: ${bytes.length} bytes is too short to be a Z-machine story file (the header alone is 64 bytes).`,
    );
  }
  const version = bytes[0];
  if (version < 1 || version > 8) {
    throw new StoryFileError('NOT_A_STORY', `${label}: not a Z-machine story file (first byte ${version} is not a version number 1-8).`);
  }
  if (!(SUPPORTED_VERSIONS as readonly number[]).includes(version)) {
    throw new StoryFileError(
      'UNSUPPORTED_VERSION',
      `${label}: Z-machine version ${version} is not supported; grue plays versions ${SUPPORTED_VERSIONS.join(', ')}.`,
    );
  }
  const staticBase = word(bytes, 0x0e);
  const highBase = word(bytes, 0x04);
  const initialPc = word(bytes, 0x06);
  const dictionary = word(bytes, 0x08);
  const objectTable = word(bytes, 0x0a);
  const globals = word(bytes, 0x0c);
  const scale = version <= 3 ? 2 : version <= 5 ? 4 : 8;
  const declaredLength = word(bytes, 0x1a) * scale;

  const pointers: Array<[string, number]> = [
    ['static memory', staticBase],
    ['dictionary', dictionary],
    ['object table', objectTable],
    ['globals', globals],
  ];
  for (const [name, value] of pointers) {
    if (value < HEADER_SIZE) {
      throw new StoryFileError(
        'NOT_A_STORY',
        `${label}: not a Z-machine story file (its ${name} address ${value} points into the header).`,
      );
    }
  }
  if (declaredLength > 0 && declaredLength > bytes.length) {
    throw new StoryFileError(
      'TRUNCATED_STORY',
      `${label}: the story file is truncated: its header says ${declaredLength} bytes but the file has ${bytes.length}. Copy it again.`,
    );
  }
  for (const [name, value] of [...pointers, ['high memory', highBase], ['initial program counter', initialPc]] as Array<[string, number]>) {
    if (value >= bytes.length) {
      throw new StoryFileError(
        'TRUNCATED_STORY',
        `${label}: the story file is truncated or corrupt: its ${name} address ` +
          `${value} lies beyond the end of the file (${bytes.length} bytes).`,
      );
    }
  }
  if (staticBase < objectTable || staticBase < globals + 480) {
    throw new StoryFileError(
      'NOT_A_STORY',
      `${label}: not a valid Z-machine story file (dynamic memory ends before its object table or globals).`,
    );
  }

  const release = word(bytes, 0x02);
  const serial = String.fromCharCode(...bytes.subarray(0x12, 0x18)).replace(/[^\x20-\x7e]/g, '?');
  // Infocom serials are dates in the 1980s; Inform writes the compile date, which starts 9x/0x/1x/2x.
  const inform = /^\d{6}$/.test(serial) && serial[0] !== '8';
  const md5 = createHash('md5').update(raw).digest('hex');
  return {
    bytes,
    label,
    info: { md5, version, release, serial, staticBase, dictionary, objectTable, globals, id: `r${release}-s${serial}`, inform },
  };
}

/** Read and validate a story file from disk. */
export function loadStoryFile(path: string): LoadedStory {
  if (!existsSync(path)) {
    throw new StoryFileError('STORY_NOT_FOUND', `Story file not found: ${path}`);
  }
  if (!statSync(path).isFile()) {
    throw new StoryFileError('STORY_NOT_FOUND', `Not a file: ${path}`);
  }
  return inspectStory(new Uint8Array(readFileSync(path)), path);
}
