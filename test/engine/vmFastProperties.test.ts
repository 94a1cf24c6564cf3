/**
 * The VM object keeps V8's fast properties once the story has started (see createZvm
 * in src/engine/zvm.ts): in dictionary mode every variable and memory access of the compiled
 * Z-code is a hash lookup. V8 says which mode an object is in only to a process started with
 * --allow-natives-syntax, so the check runs in one.
 */
import { execFileSync } from 'node:child_process';
import { join } from 'node:path';
import { GAME_FILES, ROOT } from '../helpers';

function propertiesAfter(commands: string[]): string {
  const script = `
    const { GameSession } = require(${JSON.stringify(join(ROOT, 'src/engine/session.ts'))});
    const fast = new Function('o', 'return %HasFastProperties(o)');
    const session = GameSession.fromFile(${JSON.stringify(join(GAME_FILES, 'lighthouse.z5'))});
    const start = session.captureState();
    for (const command of ${JSON.stringify(commands)}) session.step(command);
    session.restoreState(start);
    session.step('look');
    process.stdout.write(fast(session.vm) ? 'fast' : 'dictionary');
  `;
  return execFileSync(process.execPath, ['--allow-natives-syntax', '-r', require.resolve('tsx/cjs'), '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  });
}

describe('the VM object', () => {
  it('has fast properties after booting, stepping and restoring', () => {
    expect(propertiesAfter(['open wooden chest', 'take oil lamp', 'north'])).toBe('fast');
  });
});
