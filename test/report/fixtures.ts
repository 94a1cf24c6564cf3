/** Report data as load.ts builds it, made by hand: two arms of two episodes, known numbers. */
import { resolveCampaignConfig } from '../../src/schemas/episode';
import { TurnRecord } from '../../src/agent/records';
import { ReportData, ReportDataSchema } from '../../src/report/data';

const turn = (n: number, score: number, over: Partial<TurnRecord> = {}): TurnRecord => ({
  turn: n,
  command: 'look',
  observation: 'A room.',
  score,
  moves: n,
  location: 'Room',
  worldHash: `h${n}`,
  validActions: 3,
  ...over,
});

const base = resolveCampaignConfig({ game: 'lighthouse', episodes: 2, maxTurns: 4, seed: 1 });

/** Baseline: scores rise to 5 then 10; 1 LLM call a turn; 2 s and 4 s per turn. Thoughtbox off: one death, 0.5 calls a turn, no timings in episode 2. */
export function experimentFixture(): ReportData {
  return ReportDataSchema.parse({
    kind: 'experiment',
    id: 'exp-fixture',
    game: 'lighthouse',
    factors: ['thoughtbox'],
    factorial: false,
    arms: [
      {
        name: 'baseline',
        campaignId: 'exp-fixture-arm-01-baseline',
        diff: {},
        config: base,
        episodes: [
          {
            index: 1,
            workflowId: 'a1e1',
            seed: 1,
            score: 5,
            turns: 4,
            victory: false,
            died: false,
            llmCalls: 4,
            transcript: [0, 0, 5, 5].map((s, i) => turn(i + 1, s, { elapsedMs: 2000 })),
          },
          {
            index: 2,
            workflowId: 'a1e2',
            seed: 2,
            score: 10,
            turns: 4,
            victory: true,
            died: false,
            llmCalls: 4,
            transcript: [0, 5, 10, 10].map((s, i) => turn(i + 1, s, { elapsedMs: 4000 })),
          },
        ],
      },
      {
        name: 'thoughtbox=off',
        campaignId: 'exp-fixture-arm-02-thoughtbox-off',
        diff: { thoughtbox: 'off' },
        config: { ...base, thoughtbox: 'off' },
        episodes: [
          // Peaks at 10, ends at 0 (a death takes the points back): the best-score chart shows the peak.
          {
            index: 1,
            workflowId: 'a2e1',
            seed: 1,
            score: 0,
            turns: 4,
            victory: false,
            died: true,
            llmCalls: 2,
            transcript: [0, 10, 10, 0].map((s, i) => turn(i + 1, s, { elapsedMs: 1000 })),
          },
          {
            index: 2,
            workflowId: 'a2e2',
            seed: 2,
            score: 5,
            turns: 4,
            victory: false,
            died: false,
            llmCalls: 2,
            transcript: [0, 0, 0, 5].map((s, i) => turn(i + 1, s)),
          },
        ],
      },
    ],
  });
}

/** A campaign whose results.json predates the recorded config, with one transcript missing. */
export function campaignFixture(): ReportData {
  return ReportDataSchema.parse({
    kind: 'campaign',
    id: 'camp-fixture',
    game: 'ferry',
    factors: [],
    factorial: false,
    arms: [
      {
        name: 'campaign',
        campaignId: 'camp-fixture',
        diff: {},
        config: null,
        episodes: [
          { index: 1, workflowId: 'c1', seed: 0, score: 3, turns: 2, victory: false, died: false, transcript: [turn(1, 0), turn(2, 3)] },
          { index: 2, workflowId: 'c2', seed: 1, score: 1, turns: 2, victory: false, died: false, transcript: [] },
        ],
      },
    ],
  });
}
