/**
 * Decision replay: every recorded workflow in test/histories/ runs again on the dev server with
 * its recorded id and input, against activities that answer from the recording. The agent sees
 * the same observations, so it must make the same decisions: each activity must be called with
 * the recorded input, every recorded activity must be called, and the result must be the
 * recorded one. replay.test.ts checks command order; this checks what the commands carry (which
 * game command the agent picks, what it asks the oracle).
 *
 * Every workflow a recording starts (a campaign's children) has a recording of its own. An
 * intended agent change re-records the histories (scripts/record-histories.ts; see the README's
 * "Shipping an agent change").
 */
import type { TestWorkflowEnvironment } from '@temporalio/testing';
import { join } from 'node:path';
import { createActivities } from '../../src/activities';
import { createEnv, tempDataDir, uniqueQueue } from './env';
import { DecisionReplay, describeDifferences, describeMismatch, differences, loadRecordedChains, replayDecisions } from './recordedRun';

const chains = loadRecordedChains(join(__dirname, '..', 'histories'));

let env: TestWorkflowEnvironment;
let replay: DecisionReplay;

beforeAll(async () => {
  env = await createEnv();
  replay = await replayDecisions(env, chains, {
    taskQueue: uniqueQueue('decision-replay'),
    activityNames: Object.keys(createActivities({ dataDir: tempDataDir() })),
  });
}, 60_000);

afterAll(async () => {
  await env?.teardown();
});

function runEnding(workflowId: string): string {
  const outcome = replay.outcomes.get(workflowId);
  if (!outcome) return 'was not awaited';
  return outcome.ok ? 'completed' : outcome.error;
}

function assertSameDecisions(workflowId: string): void {
  const mismatches = replay.recorded.mismatches.filter((m) => m.workflowId === workflowId);
  if (mismatches.length) {
    throw new Error(
      'The re-run called an activity differently than the recording: a changed decision, or a changed input. ' +
        'If it is on purpose, re-record the histories (npx tsx scripts/record-histories.ts).\n' +
        describeMismatch(mismatches[0]),
    );
  }
}

function assertAllConsumed(workflowId: string): void {
  const left = replay.recorded.unconsumed(workflowId);
  if (left.length) {
    const total = chains.get(workflowId)!.activities.length;
    throw new Error(
      `${workflowId}: the re-run called ${total - left.length} of ${total} recorded activities ` +
        `(next not called: #${left[0].index} ${left[0].type}); the run ${runEnding(workflowId)}`,
    );
  }
}

function assertResult(workflowId: string, recorded: unknown): void {
  const outcome = replay.outcomes.get(workflowId);
  if (!outcome?.ok) throw new Error(`${workflowId}: the re-run did not complete (${runEnding(workflowId)})`);
  const diffs = differences(recorded, outcome.result);
  if (diffs.length) throw new Error(`${workflowId}: the result differs from the recorded one\n${describeDifferences(diffs)}`);
}

describe('decision replay of recorded histories', () => {
  it('has recordings to re-run, each with activities', () => {
    expect(chains.size).toBeGreaterThanOrEqual(4);
    for (const c of chains.values()) expect(c.activities.length).toBeGreaterThan(0);
  });

  it.each([...chains.keys()])('%s: same activities, same inputs, same result', (workflowId) => {
    assertSameDecisions(workflowId);
    assertAllConsumed(workflowId);
    const recorded = chains.get(workflowId)!.result;
    if (recorded) assertResult(workflowId, recorded.value);
  });

  it('has a recording of every workflow a recording starts', () => {
    const children = [...chains.values()].flatMap((c) => c.children.map((k) => k.workflowId));
    expect(children.filter((id) => !chains.has(id))).toEqual([]);
  });
});
