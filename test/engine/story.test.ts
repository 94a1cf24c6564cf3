import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { GameSession, inspectStory, loadStoryFile, StoryFileError, InstructionBudgetError } from '../../src/engine';
import { GAME_FILES, scratchDir } from '../helpers';

const lighthouse = () => new Uint8Array(readFileSync(join(GAME_FILES, 'lighthouse.z5')));

function codeOf(fn: () => unknown): string {
  try {
    fn();
  } catch (err) {
    expect(err).toBeInstanceOf(StoryFileError);
    return (err as StoryFileError).code;
  }
  throw new Error('expected a StoryFileError');
}

describe('story file validation', () => {
  it('describes a valid story', () => {
    const { info } = inspectStory(lighthouse(), 'lighthouse.z5');
    expect(info.version).toBe(5);
    expect(info.release).toBe(1);
    expect(info.serial).toBe('260101');
    expect(info.inform).toBe(true);
    expect(info.md5).toMatch(/^[0-9a-f]{32}$/);
  });

  it('rejects a file that is not a Z-machine story', () => {
    const text = new TextEncoder().encode('Hello, this is a plain text file and certainly not a story file at all, no.\n'.repeat(4));
    expect(codeOf(() => inspectStory(text, 'notes.txt'))).toBe('NOT_A_STORY');
    expect(() => inspectStory(text, 'notes.txt')).toThrow(/notes\.txt: not a Z-machine story file/);
  });

  it('rejects a file too short to hold a header', () => {
    expect(codeOf(() => inspectStory(new Uint8Array(10), 'tiny'))).toBe('NOT_A_STORY');
  });

  it('rejects a truncated story and says how much is missing', () => {
    const bytes = lighthouse();
    const cut = bytes.subarray(0, Math.floor(bytes.length / 2));
    expect(codeOf(() => inspectStory(cut, 'half.z5'))).toBe('TRUNCATED_STORY');
    const declared = ((bytes[0x1a] << 8) | bytes[0x1b]) * 4;
    expect(() => inspectStory(cut, 'half.z5')).toThrow(new RegExp(`header says ${declared} bytes but the file has ${cut.length}`));
  });

  it('rejects unsupported versions (6) by name', () => {
    const bytes = lighthouse();
    bytes[0] = 6;
    expect(codeOf(() => inspectStory(bytes, 'v6.z6'))).toBe('UNSUPPORTED_VERSION');
    expect(() => inspectStory(bytes, 'v6.z6')).toThrow(/version 6 is not supported/);
  });

  it('reports a missing file', () => {
    expect(codeOf(() => loadStoryFile('/nonexistent/zork.z3'))).toBe('STORY_NOT_FOUND');
  });

  it('rejects a Blorb file without Z-code', () => {
    const blorb = new Uint8Array(80);
    blorb.set(new TextEncoder().encode('FORM'), 0);
    blorb.set(new TextEncoder().encode('IFRS'), 8);
    blorb.set(new TextEncoder().encode('RIdx'), 12);
    expect(codeOf(() => inspectStory(blorb, 'pics.blb'))).toBe('NOT_A_STORY');
  });

  it('loads a story wrapped in Blorb', () => {
    const z = lighthouse();
    const blorb = Buffer.alloc(12 + 8 + z.length + (z.length & 1));
    blorb.write('FORM', 0, 'latin1');
    blorb.writeUInt32BE(blorb.length - 8, 4);
    blorb.write('IFRS', 8, 'latin1');
    blorb.write('ZCOD', 12, 'latin1');
    blorb.writeUInt32BE(z.length, 16);
    blorb.set(z, 20);
    const session = GameSession.fromBytes(new Uint8Array(blorb), {}, 'lighthouse.zblorb');
    expect(session.step('look').observation).toMatch(/Rocky Shore/);
  });

  it('stops a game that never asks for input with an instruction budget error', () => {
    const bytes = lighthouse();
    // Replace the first instruction with `jump` to itself (1OP:12, offset -1): an endless loop.
    const pc = (bytes[6] << 8) | bytes[7];
    bytes.set([0x8c, 0xff, 0xff], pc);
    const dir = scratchDir('loop');
    writeFileSync(join(dir, 'loop.z5'), bytes);
    const started = Date.now();
    expect(() => GameSession.fromFile(join(dir, 'loop.z5'), { blockBudget: 200_000 })).toThrow(InstructionBudgetError);
    expect(() => GameSession.fromFile(join(dir, 'loop.z5'), { blockBudget: 200_000 })).toThrow(/without asking for input/);
    expect(Date.now() - started).toBeLessThan(10_000);
  });
});
