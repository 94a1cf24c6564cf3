/**
 * @copy_table copied in place (src/engine/tableCopy.ts) must leave memory exactly as ZVM's own
 * copy_table does: overlapping either way, apart, zeroing, a negative size's forward copy and a copy
 * past dynamic memory, called directly on a story's globals; and whole games played both ways.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { GameSession } from '../../src/engine/session';
import { SuiteFileSchema } from '../../src/schemas/jerichoSuite';
import { describeWithSuite, GAME_FILES } from '../helpers';
import { expectSamePlay, TRICKY_COMMANDS, vmOf, withZvmMethod } from './samePlay';

type CopyTable = (first: number, second: number, size: number) => void;

/** What a copy does to memory (or the error it throws), with grue's copy or ZVM's. */
function afterCopy(
  zvmsOwn: boolean,
  first: (globals: number) => number,
  second: (globals: number, staticmem: number) => number,
  size: number,
) {
  const opened = GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5'));
  const session = zvmsOwn ? withZvmMethod(opened, 'copy_table') : opened;
  const vm = vmOf(session) as { m: DataView; staticmem: number; copy_table: CopyTable };
  const globals = vm.m.getUint16(0x0c);
  // Distinct bytes, so any misplaced byte shows.
  for (let i = 0; i < 200; i++) vm.m.setUint8(globals + i, (i * 7 + 3) & 0xff);
  let error: string | null = null;
  try {
    vm.copy_table(first(globals), second(globals, vm.staticmem), size);
  } catch (err) {
    error = err instanceof Error ? err.constructor.name : String(err);
  }
  return { error, memory: Buffer.from(session.captureState().ram).toString('base64') };
}

describe('@copy_table', () => {
  it.each([
    ['overlapping, copied forward', (g: number) => g, (g: number) => g + 7, 40, false],
    ['overlapping, copied backward', (g: number) => g + 7, (g: number) => g, 40, false],
    ['apart', (g: number) => g, (g: number) => g + 100, 30, false],
    ['zeroing (second table 0)', (g: number) => g + 3, () => 0, 25, false],
    ['a negative size (a forward copy that may overwrite what it reads)', (g: number) => g, (g: number) => g + 5, 0x10000 - 30, false],
    ['past dynamic memory', (g: number) => g, (_: number, staticmem: number) => staticmem - 10, 20, true],
  ])('leaves memory as ZVM does: %s', (_name, first, second, size, fails) => {
    const ours = afterCopy(false, first, second, size);
    expect(ours).toEqual(afterCopy(true, first, second, size));
    expect(ours.error !== null).toBe(fails);
  });
});

describeWithSuite('@copy_table on Jericho suite games', (suiteDir) => {
  const suite = SuiteFileSchema.parse(JSON.parse(readFileSync(join(suiteDir, 'suite.json'), 'utf8')));
  // An Infocom version 5 parser and an Inform one (version 8), which copy the typed line with it.
  it.each(['sherlock', 'lostpig'])('plays %s as ZVM does', (game) => {
    const entry = suite.find((g) => g.game === game)!;
    const open = () => GameSession.fromFile(join(suiteDir, entry.file), { seed: entry.seed ?? 0 });
    expectSamePlay(open, 'copy_table', [...entry.resetCommands, ...TRICKY_COMMANDS, ...(entry.walkthrough ?? []).slice(0, 60)]);
  });
});
