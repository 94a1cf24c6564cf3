/**
 * Replays recorded histories of real runs (test/histories/) against the current workflow code.
 * A change that alters the commands a workflow issues for the same history fails here before it
 * ships; such a change must go behind patched().
 */
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import { Worker } from '@temporalio/worker';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { quietRuntime, workflowBundle } from './env';

const DIR = join(__dirname, '..', 'histories');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('replay of recorded histories', () => {
  it('has histories to replay (episode runs with continue-as-new, a campaign, a child episode)', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it('replays every recorded history without nondeterminism', async () => {
    quietRuntime();
    const histories = files.map((f) => ({
      workflowId: f.replace(/(@[^.]*)?\.json$/, ''),
      history: historyFromJSON(JSON.parse(readFileSync(join(DIR, f), 'utf8'))),
    }));
    const results: Array<{ workflowId: string; error?: unknown }> = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) results.push(r);
    expect(results.map((r) => ({ workflowId: r.workflowId, error: r.error ? String(r.error) : undefined }))).toEqual(
      histories.map((h) => ({ workflowId: h.workflowId, error: undefined })),
    );
  });
});
