/** An episode's records as read back from its history (src/temporal/episodeHistory.ts reads them; activities use them). */
import type { ThoughtboxSession } from '../agent/thoughtbox/schema';
import type { TurnRecord } from '../agent/records';

export interface EpisodeRecords {
  /** One record per turn, in turn order; a turn written twice (the last turn, amended at the end) is its later version. */
  turns: TurnRecord[];
  /** One session per turn, in turn order. */
  thoughts: ThoughtboxSession[];
}

/** A history that does not read as an episode's (another workflow type, or a grue too old or too new). */
export class EpisodeHistoryError extends Error {
  constructor(workflowId: string, problem: string) {
    super(`the history of ${workflowId} does not read as a grue episode's: ${problem}`);
    this.name = 'EpisodeHistoryError';
  }
}
