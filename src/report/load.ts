/** A report's data read from the data dir: an experiment's or a campaign's results.json and its episodes' transcripts. */
import { readCampaignResults, readExperimentResults, readTranscript } from '../activities/files';
import type { CampaignResult } from '../agent/records';
import type { ExperimentResult } from '../experiment/results';
import { ReportArm, ReportData, ReportDataSchema } from './data';

/** Neither an experiment nor a campaign of this id has results in this data dir. */
export class ReportNotFoundError extends Error {
  constructor(id: string, dataDir: string) {
    super(
      `no results for "${id}" in ${dataDir}: give the id of a finished campaign or ` +
        `experiment (see \`grue list\`; its results.json is under campaigns/ or experiments/).`,
    );
    this.name = 'ReportNotFoundError';
  }
}

export function loadReportData(dataDir: string, id: string): ReportData {
  const experiment = readExperimentResults(dataDir, id);
  if (experiment) return experimentReportData(dataDir, experiment);
  const campaign = readCampaignResults(dataDir, id);
  if (!campaign) throw new ReportNotFoundError(id, dataDir);
  return ReportDataSchema.parse({
    kind: 'campaign',
    id,
    game: campaign.game,
    factors: [],
    factorial: false,
    arms: [armOf(dataDir, 'campaign', campaign.campaignId, {}, campaign.config ?? null, campaign.episodes)],
  });
}

/** An experiment's report data from its result (the workflow's, or its results.json) and the transcripts in `dataDir`. */
export function experimentReportData(dataDir: string, experiment: Omit<ExperimentResult, 'resultsPath'>): ReportData {
  return ReportDataSchema.parse({
    kind: 'experiment',
    id: experiment.experimentId,
    game: experiment.game,
    factors: experiment.factors,
    factorial: experiment.factorial,
    arms: experiment.arms.map((arm) => armOf(dataDir, arm.name, arm.campaignId, arm.diff, arm.config, arm.campaign.episodes)),
  });
}

function armOf(
  dataDir: string,
  name: string,
  campaignId: string,
  diff: ReportArm['diff'],
  config: ReportArm['config'],
  episodes: CampaignResult['episodes'],
): ReportArm {
  return {
    name,
    campaignId,
    diff,
    config,
    episodes: episodes.map((e, i) => ({
      index: i + 1,
      workflowId: e.workflowId,
      seed: e.seed,
      score: e.score,
      turns: e.turns,
      victory: e.victory,
      died: e.died,
      ...(e.llmCalls !== undefined ? { llmCalls: e.llmCalls } : {}),
      transcript: readTranscript(dataDir, e.workflowId),
    })),
  };
}
