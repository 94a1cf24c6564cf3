/**
 * For the tests of ZVM methods grue replaces to run faster (src/engine/dictionaryLookup.ts,
 * tableCopy.ts): two sessions of one story, one with ZVM's own method put back, must print the same
 * text and hold the same memory after every command.
 */
import type { GameSession } from '../../src/engine/session';

/** The session's VM, whose methods the tests put back. */
export function vmOf(session: GameSession): Record<string, unknown> {
  return (session as unknown as { vm: Record<string, unknown> }).vm;
}

/** The session with ZVM's own `method` (the prototype's) in place of grue's. */
export function withZvmMethod(session: GameSession, method: string): GameSession {
  const vm = vmOf(session);
  expect(Object.prototype.hasOwnProperty.call(vm, method)).toBe(true);
  delete vm[method];
  expect(typeof vm[method]).toBe('function');
  return session;
}

export function expectSamePlay(open: () => GameSession, method: string, commands: readonly string[]): void {
  const fast = open();
  const zvm = withZvmMethod(open(), method);
  for (const command of commands) {
    if (fast.isDone || zvm.isDone) break;
    const a = fast.step(command);
    const b = zvm.step(command);
    expect({ command, observation: a.observation }).toEqual({ command, observation: b.observation });
    expect(Buffer.from(fast.captureState().ram).equals(Buffer.from(zvm.captureState().ram))).toBe(true);
  }
}

/** Commands with separators, long, unknown and numeric words, for any story. */
export const TRICKY_COMMANDS = [
  'look',
  'take all, then drop all. inventory',
  'examine pneumonoultramicroscopicsilicovolcanoconiosis',
  'xyzzyq the frobnitz',
  'turn dial to 42',
  'say "hello" to me',
  'n.s.e.w',
  '   north   ',
  'get the lamp and the sword',
];
