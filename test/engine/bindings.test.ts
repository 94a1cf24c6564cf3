import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { bindingFor, GameBindingSchema, knownBindings, readBindingFile } from '../../src/engine';
import { GAME_FILES, JERICHO_SUITE, jerichoStory, SHARED_GAMES } from '../helpers';

const BINDINGS = join(GAME_FILES, 'bindings');
const md5Of = (path: string) => createHash('md5').update(readFileSync(path)).digest('hex');

describe('game bindings', () => {
  it('validates bindings and explains what is wrong', () => {
    const bad = GameBindingSchema.safeParse({ name: 'x', md5: 'not-an-md5', score: { kind: 'global', index: 400 } });
    expect(bad.success).toBe(false);
    const paths = bad.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['md5', 'score.index']));
  });

  it('has bindings for Zork I r119, 9:05 and Adventure, keyed by md5', () => {
    const names = knownBindings().map((b) => b.name);
    expect(names).toEqual(
      expect.arrayContaining([expect.stringMatching(/Zork I/), expect.stringMatching(/9:05/), expect.stringMatching(/Adventure/)]),
    );
    expect(bindingFor('1d4606016ea58ee038da53d994392323')?.playerObject).toBe(44);
    expect(bindingFor('4c5067169b834d247a30bb08d1039896')?.maxScore).toBe(1);
  });

  it.each(['lighthouse.z5', 'ferry.z8'])('the generated binding of %s matches the committed story file', (file) => {
    const md5 = createHash('md5')
      .update(readFileSync(join(GAME_FILES, file)))
      .digest('hex');
    const binding = bindingFor(md5);
    expect(binding).toBeDefined();
    const fromDisk = JSON.parse(readFileSync(join(GAME_FILES, file.replace(/\.z\d$/, '.binding.json')), 'utf8'));
    expect(binding).toEqual(GameBindingSchema.parse(fromDisk));
  });
});

describe('binding files (game_files/bindings)', () => {
  const files = readdirSync(BINDINGS).filter((f) => f.endsWith('.binding.json'));
  const bindings = files.map((f) => ({ file: f, binding: readBindingFile(join(BINDINGS, f)) }));

  it('hold one valid binding per game, each saying where its facts come from', () => {
    // The 57 games of Jericho 3.3.1 (frotz/src/interface/frotz_interface.c load_rom_bindings) and Zork I r119.
    expect(bindings.length).toBe(58);
    for (const { file, binding } of bindings) {
      expect({ file, source: binding.source }).toEqual({ file, source: expect.stringMatching(/\w/) });
      expect(bindingFor(binding.md5)).toEqual(binding);
    }
    expect(new Set(bindings.map(({ binding }) => binding.md5)).size).toBe(bindings.length);
  });

  it('match the story files we have by md5; the rest are for games held out of ../shared', () => {
    expect(jerichoStory('suite.json')).not.toBeNull();
    const missing: string[] = [];
    for (const { binding } of bindings) {
      const story = [JERICHO_SUITE, SHARED_GAMES].map((dir) => join(dir, binding.storyFile!)).find(existsSync);
      if (story) expect({ story, md5: md5Of(story) }).toEqual({ story, md5: binding.md5 });
      else missing.push(binding.storyFile!);
    }
    const heldOut = [
      'hollywood',
      'library',
      'lurking',
      'murdac',
      'pentari',
      'sherbet',
      'sorcerer',
      'spellbrkr',
      'yomomma',
      'zork2',
      'zork3',
    ];
    expect(missing.map((file) => file.replace(/\.z\d$/, '')).sort()).toEqual(heldOut);
  });
});
