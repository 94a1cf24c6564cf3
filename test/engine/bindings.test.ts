import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bindingFor, GameBindingSchema, knownBindings } from '../../src/engine';
import { GAME_FILES } from '../helpers';

describe('game bindings', () => {
  it('validates bindings and explains what is wrong', () => {
    const bad = GameBindingSchema.safeParse({ name: 'x', md5: 'not-an-md5', score: { kind: 'global', index: 400 } });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['md5', 'score.index']));
  });

  it('has bindings for Zork I r119, 9:05 and Adventure, keyed by md5', () => {
    const names = knownBindings().map((b) => b.name);
    expect(names).toEqual(expect.arrayContaining([expect.stringMatching(/Zork I/), expect.stringMatching(/9:05/), expect.stringMatching(/Adventure/)]));
    expect(bindingFor('1d4606016ea58ee038da53d994392323')?.playerObject).toBe(44);
    expect(bindingFor('4c5067169b834d247a30bb08d1039896')?.maxScore).toBe(1);
  });

  it.each(['lighthouse.z5', 'ferry.z8'])('the generated binding of %s matches the committed story file', (file) => {
    const md5 = createHash('md5').update(readFileSync(join(GAME_FILES, file))).digest('hex');
    const binding = bindingFor(md5);
    expect(binding).toBeDefined();
    const fromDisk = JSON.parse(readFileSync(join(GAME_FILES, file.replace(/\.z\d$/, '.binding.json')), 'utf8'));
    expect(binding).toEqual(GameBindingSchema.parse(fromDisk));
  });
});
