/** The knowledge base's files: .md views written over their last version, which is kept as a numbered backup; a retry writes nothing new. */
import { ApplicationFailure } from '@temporalio/common';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createFileActivities, runDir, writeWithBackup } from '../../src/activities/files';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'grue-knowledge-files-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const backups = (folder: string) => (existsSync(join(folder, 'backups')) ? readdirSync(join(folder, 'backups')).sort() : []);
const read = (path: string) => readFileSync(path, 'utf8');

describe('writeWithBackup', () => {
  it('keeps each replaced version as backups/<name>-NNNN.md, and nothing for a first write or a repeated one', () => {
    const path = join(dir, 'knowledgebase.md');
    writeWithBackup(path, 'v1');
    expect(read(path)).toBe('v1');
    expect(backups(dir)).toEqual([]);
    writeWithBackup(path, 'v2');
    expect(read(path)).toBe('v2');
    expect(backups(dir)).toEqual(['knowledgebase-0001.md']);
    expect(read(join(dir, 'backups', 'knowledgebase-0001.md'))).toBe('v1');
    writeWithBackup(path, 'v2');
    expect(backups(dir)).toEqual(['knowledgebase-0001.md']);
    writeWithBackup(path, 'v3');
    writeWithBackup(path, 'v1');
    expect(backups(dir)).toEqual(['knowledgebase-0001.md', 'knowledgebase-0002.md', 'knowledgebase-0003.md']);
    expect(backups(dir).map((f) => read(join(dir, 'backups', f)))).toEqual(['v1', 'v2', 'v3']);
    expect(read(path)).toBe('v1');
  });

  it('does not back up twice when a write is retried after its backup was made', () => {
    const path = join(dir, 'knowledgebase.md');
    writeWithBackup(path, 'v1');
    // A crash between the two steps: the backup of v1 exists, the file still holds v1.
    mkdirSync(join(dir, 'backups'));
    writeFileSync(join(dir, 'backups', 'knowledgebase-0001.md'), 'v1');
    writeWithBackup(path, 'v2');
    expect(backups(dir)).toEqual(['knowledgebase-0001.md']);
    expect(read(path)).toBe('v2');
  });

  it('numbers the backups of each file separately', () => {
    writeWithBackup(join(dir, 'knowledgebase.md'), 'k1');
    writeWithBackup(join(dir, 'persistent_wisdom.md'), 'w1');
    writeWithBackup(join(dir, 'knowledgebase.md'), 'k2');
    writeWithBackup(join(dir, 'persistent_wisdom.md'), 'w2');
    expect(backups(dir)).toEqual(['knowledgebase-0001.md', 'persistent_wisdom-0001.md']);
  });
});

describe('writeMemoryFiles', () => {
  const write = (files: Record<string, unknown>) => createFileActivities(dir).writeMemoryFiles({ workflowId: 'zork1/episode 1', files });
  const memory = () => join(runDir(dir, 'zork1/episode 1'), 'memory');

  it('writes .md files as text with numbered backups, and other files as JSON', async () => {
    const paths = await write({ 'knowledgebase.md': '# v1\n', knowledge: { items: [] } });
    expect(paths).toEqual([join(memory(), 'knowledgebase.md'), join(memory(), 'knowledge.json')]);
    expect(read(join(memory(), 'knowledgebase.md'))).toBe('# v1\n');
    expect(JSON.parse(read(join(memory(), 'knowledge.json')))).toEqual({ items: [] });
    await write({ 'knowledgebase.md': '# v2\n', knowledge: { items: [1] } });
    expect(read(join(memory(), 'knowledgebase.md'))).toBe('# v2\n');
    expect(read(join(memory(), 'backups', 'knowledgebase-0001.md'))).toBe('# v1\n');
    // A retried activity writes the same text: no new backup.
    await write({ 'knowledgebase.md': '# v2\n', knowledge: { items: [1] } });
    expect(backups(memory())).toEqual(['knowledgebase-0001.md']);
  });

  it('rejects a .md file that is not text, for good, naming the file', async () => {
    const err = await write({ 'knowledgebase.md': { items: [] } }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApplicationFailure);
    expect(err).toMatchObject({ type: 'InvalidInput', nonRetryable: true });
    expect((err as Error).message).toBe('Invalid writeMemoryFiles input: files.knowledgebase.md: a .md memory file is text');
    expect(existsSync(memory())).toBe(false);
  });

  it('rejects a file name that is a path', async () => {
    const err = await write({ '../escape.md': 'x' }).catch((e: unknown) => e);
    expect(err).toMatchObject({ type: 'InvalidInput', nonRetryable: true });
    expect(existsSync(join(runDir(dir, 'zork1/episode 1'), 'escape.md'))).toBe(false);
  });
});
