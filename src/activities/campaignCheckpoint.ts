/**
 * A campaign's checkpoint: `<data dir>/campaigns/<campaign id>/checkpoint.json`, the episodes it
 * has finished and what it has learned, written after each episode. The server's history is what
 * makes a campaign durable; the checkpoint is for when that history is gone (a dev server's
 * database deleted, a run moved to another server), so a campaign started again under the same id
 * goes on from its last finished episode instead of its first. Atomic and idempotent like every
 * results file (files.ts).
 */
import { join } from 'node:path';
import { z } from 'zod';
import { CampaignCheckpoint, CampaignCheckpointSchema } from '../agent/records';
import { log } from '../log';
import { CampaignConfigSchema } from '../schemas/episode';
import { classified, parseInput } from './failures';
import { atomicWrite, readResults, ResultsFileError, safeName } from './files';

export const campaignCheckpointPath = (dataDir: string, campaignId: string) =>
  join(dataDir, 'campaigns', safeName(campaignId), 'checkpoint.json');

const ReadCheckpointInputSchema = z.object({ campaignId: z.string().min(1), config: CampaignConfigSchema });

/** What a campaign goes on from: the episodes done and the learned state after them. */
type Carry = Pick<CampaignCheckpoint, 'done' | 'learned'>;

const json = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;

function readCheckpointFile(path: string): CampaignCheckpoint | null {
  try {
    return readResults(path, CampaignCheckpointSchema);
  } catch (err) {
    if (!(err instanceof ResultsFileError)) throw err;
    log(`${err.message}; the campaign starts from its first episode`);
    return null;
  }
}

/**
 * The checkpoint an earlier run of this campaign id wrote, when this run can go on from it: the
 * same config (game, seeds, policy, assist, every setting). Any other checkpoint is said on stderr
 * and the campaign starts from its first episode (the next write keeps the old file as a backup).
 */
export function readCampaignCheckpoint(dataDir: string, campaignId: string, config: CampaignCheckpoint['config']): Carry | null {
  const path = campaignCheckpointPath(dataDir, campaignId);
  const earlier = readCheckpointFile(path);
  if (earlier === null) return null;
  if (earlier.campaignId !== campaignId || json(earlier.config) !== json(config)) {
    log(`${path} was written for another campaign config; ${campaignId} starts from its first episode`);
    return null;
  }
  log(`${campaignId} goes on from its checkpoint: ${earlier.done.length} of ${config.episodes} episodes done`);
  return { done: earlier.done, learned: earlier.learned };
}

/**
 * Writes a checkpoint unless the file already holds a later one of the same campaign (a write that
 * arrives late, after a retry, never takes the campaign back).
 */
export function writeCampaignCheckpoint(dataDir: string, checkpoint: CampaignCheckpoint): string {
  const path = campaignCheckpointPath(dataDir, checkpoint.campaignId);
  const present = readCheckpointFile(path);
  const sameCampaign = present !== null && json(present.config) === json(checkpoint.config);
  if (sameCampaign && present.done.length > checkpoint.done.length) return path;
  atomicWrite(path, json(checkpoint), true);
  return path;
}

export function createCampaignCheckpointActivities(dataDir: string) {
  return {
    /** The finished episodes and learned state an earlier run of this campaign id wrote down, or null. */
    async readCampaignCheckpoint(raw: z.input<typeof ReadCheckpointInputSchema>): Promise<Carry | null> {
      const { campaignId, config } = parseInput(ReadCheckpointInputSchema, raw, 'readCampaignCheckpoint input');
      return classified(() => readCampaignCheckpoint(dataDir, campaignId, config));
    },

    /** The campaign's checkpoint after an episode: its finished episodes and what it has learned. */
    async writeCampaignCheckpoint(raw: z.input<typeof CampaignCheckpointSchema>): Promise<string> {
      const checkpoint = parseInput(CampaignCheckpointSchema, raw, 'writeCampaignCheckpoint input');
      return classified(() => writeCampaignCheckpoint(dataDir, checkpoint));
    },
  };
}
