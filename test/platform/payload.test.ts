/**
 * A long episode's carried state stays small: 1,000 Zork I turns (oracle-free: this measures
 * what the workflow carries, not the LLM), and every continue-as-new payload — the config and the
 * whole agent state, dynamics model and visited states included — stays within 64 KB. Played
 * under the `none` assist: a turn is one engine step instead of a valid-action search (108 s for
 * the test instead of 18 minutes), and the dynamics model still fills to its cap, so the bound is
 * what is measured. By then the whole state is over its byte budget, so fitCarry trims a tenth of
 * the model (with the other keyed records) at some continue-as-new: the model ends full or within
 * a tenth of full, by where the last trim fell.
 */
import { temporal } from '@temporalio/proto';
import { MAX_DYNAMICS_ENTRIES } from '../../src/agent/dynamics';
import { episodeWorkflow } from '../../src/workflows';
import { episodeInput, sharedGame } from '../helpers';
import { serveForTests, tempDataDir, uniqueQueue } from './env';

const ZORK = sharedGame('zork1.z3');
const LIMIT = 64 * 1024;
const TURNS = 1000;

const taskQueue = uniqueQueue('payload');
const served = serveForTests(taskQueue, tempDataDir());

/** Bytes of the payloads a run passed to its continuation (null for the run that completed). */
function continueAsNewBytes(events: temporal.api.history.v1.IHistoryEvent[]): number | null {
  const attrs = events[events.length - 1]?.workflowExecutionContinuedAsNewEventAttributes;
  if (!attrs) return null;
  return (attrs.input?.payloads ?? []).reduce((n, p) => n + temporal.api.common.v1.Payload.encode(p).finish().length, 0);
}

(ZORK ? it : it.skip)(
  `plays ${TURNS} Zork I turns with every continue-as-new payload within 64 KB`,
  async () => {
    const handle = await served.env.client.workflow.start(episodeWorkflow, {
      taskQueue,
      workflowId: `payload-${Date.now()}`,
      args: [episodeInput({ game: ZORK!, seed: 1, maxTurns: TURNS, stopOnDeath: false, turnTimeoutSeconds: 300, assist: 'none' })],
    });
    const result = await handle.result();
    expect(result.turns).toBe(TURNS);

    const sizes: number[] = [];
    for (let runId: string | undefined = handle.firstExecutionRunId; runId;) {
      const history: temporal.api.history.v1.IHistory = await served.env.client.workflow.getHandle(handle.workflowId, runId).fetchHistory();
      const events = history.events ?? [];
      const bytes = continueAsNewBytes(events);
      if (bytes !== null) sizes.push(bytes);
      runId = events[events.length - 1]?.workflowExecutionContinuedAsNewEventAttributes?.newExecutionRunId ?? undefined;
    }

    console.log(`continue-as-new payloads over ${TURNS} turns (bytes): ${sizes.join(' ')}`);
    expect(sizes.length).toBeGreaterThanOrEqual(TURNS / 100 - 1);
    expect(Math.max(...sizes)).toBeLessThanOrEqual(LIMIT);
    const entries = Object.keys(result.learned.dynamics.entries).length;
    expect(entries).toBeLessThanOrEqual(MAX_DYNAMICS_ENTRIES);
    expect(entries).toBeGreaterThanOrEqual(Math.floor(MAX_DYNAMICS_ENTRIES * 0.9));
  },
  30 * 60_000,
);
