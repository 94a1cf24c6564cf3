/**
 * A campaign whose server lost its history goes on from its checkpoint — only when the checkpoint
 * was written by a campaign of the same id and config, and a late write never takes it back.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { campaignCheckpointPath, readCampaignCheckpoint, writeCampaignCheckpoint } from '../../src/activities/campaignCheckpoint';
import { CampaignCheckpoint } from '../../src/agent/records';
import { freshLearned } from '../../src/agent/learned';
import { campaignInput } from '../helpers';
import { tempDataDir } from '../platform/env';

const config = campaignInput({ game: 'ferry', assist: 'none', episodes: 3, seed: 4, maxTurns: 6 });
const episode = (index: number) => ({
  workflowId: `camp-episode-00${index + 1}`,
  seed: 4 + index,
  score: index * 5,
  turns: 6,
  victory: false,
  died: false,
});
const checkpoint = (episodes: number): CampaignCheckpoint => ({
  campaignId: 'camp',
  config,
  done: Array.from({ length: episodes }, (_, i) => episode(i)),
  learned: { ...freshLearned(), episodes },
});

describe('campaign checkpoints', () => {
  let stderr: jest.SpyInstance;
  beforeEach(() => {
    stderr = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  });
  afterEach(() => stderr.mockRestore());

  it('reads back the episodes done and the learned state of the same campaign and config', () => {
    const dataDir = tempDataDir();
    writeCampaignCheckpoint(dataDir, checkpoint(2));
    expect(readCampaignCheckpoint(dataDir, 'camp', config)).toEqual({ done: checkpoint(2).done, learned: checkpoint(2).learned });
    expect(stderr.mock.calls.join('')).toMatch(/camp goes on from its checkpoint: 2 of 3 episodes done/);
  });

  it('has nothing when no earlier run wrote one', () => {
    expect(readCampaignCheckpoint(tempDataDir(), 'camp', config)).toBeNull();
  });

  it('starts afresh, saying why, when the checkpoint was written for another config', () => {
    const dataDir = tempDataDir();
    writeCampaignCheckpoint(dataDir, checkpoint(2));
    expect(readCampaignCheckpoint(dataDir, 'camp', { ...config, seed: 5 })).toBeNull();
    expect(stderr.mock.calls.join('')).toMatch(
      /checkpoint\.json was written for another campaign config; camp starts from its first episode/,
    );
  });

  it('starts afresh, saying why, when the file is not a checkpoint', () => {
    const dataDir = tempDataDir();
    const path = campaignCheckpointPath(dataDir, 'camp');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{"campaignId": "camp", "done": [');
    expect(readCampaignCheckpoint(dataDir, 'camp', config)).toBeNull();
    expect(stderr.mock.calls.join('')).toMatch(/is not a results file this grue can read: .*the campaign starts from its first episode/);
  });

  it('a late write of an earlier checkpoint does not take the campaign back; a later one replaces it, keeping a backup', () => {
    const dataDir = tempDataDir();
    const path = writeCampaignCheckpoint(dataDir, checkpoint(2));
    writeCampaignCheckpoint(dataDir, checkpoint(1));
    expect(readCampaignCheckpoint(dataDir, 'camp', config)?.done).toHaveLength(2);
    writeCampaignCheckpoint(dataDir, checkpoint(3));
    expect(readCampaignCheckpoint(dataDir, 'camp', config)?.done).toHaveLength(3);
    expect(JSON.parse(readFileSync(`${path}.bak`, 'utf8')).done).toHaveLength(2);
  });
});
