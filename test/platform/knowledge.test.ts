/**
 * Knowledge (seeds 000 + 002) across a campaign of three Zork I episodes on a real dev server,
 * with the scripted LLM (these tests are about the workflows' control flow and the carry, not
 * about what a model writes): updates, engine checks and wisdom run as activities; what episodes
 * 1 and 2 learned reaches episode 3's prompts; a worker SIGKILLed during an update leaves the
 * knowledge base identical to an uninterrupted campaign's.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { readTranscript, runDir } from '../../src/activities/files';
import type { KnowledgeState } from '../../src/memory/knowledge';
import type { CampaignResult } from '../../src/agent/records';
import { campaignWorkflow } from '../../src/workflows';
import { episodeWorkflowId } from '../../src/workflows/campaign';
import { campaignInput, sharedGame } from '../helpers';
import { ScriptedProvider } from '../llm/scriptedProvider';
import { tempDataDir, uniqueQueue } from './env';
import { killHard, ownServerForTests, spawnScriptedWorker, waitFor, withScriptedWorker } from './scripted';

jest.setTimeout(15 * 60_000);

const ZORK = sharedGame('zork1.z3');
const dev = ownServerForTests();

const CAMPAIGN = () =>
  campaignInput({
    game: ZORK!,
    episodes: 3,
    seed: 3,
    maxTurns: 12,
    policy: 'full',
    knowledgeEvery: 5,
    // Each window at its cadence (5, 10, the end), whether or not the next turn asks the oracle.
    memoryWork: 'every-turn',
    compactEvery: 0,
    thoughtbox: 'off',
    stopOnDeath: false,
  });

const knowledgeOf = (result: { learned: { memory: Record<string, unknown> } }) => result.learned.memory.knowledge as KnowledgeState;
/** What a crash must not change: the base, the wisdom, the map (timings may differ). */
const base = (k: KnowledgeState) => ({
  items: k.items,
  wisdom: k.wisdom,
  map: k.map,
  nextId: k.nextId,
  episode: k.episode,
  updates: k.updates.map(({ seconds: _seconds, ...rest }) => rest),
});

(ZORK ? describe : describe.skip)('knowledge across a campaign of three Zork I episodes', () => {
  let reference: CampaignResult;
  let referenceDir: string;

  it('updates, verifies and synthesizes wisdom in each episode, and episode 3 is prompted with what 1 and 2 learned', async () => {
    referenceDir = tempDataDir();
    const taskQueue = uniqueQueue('knowledge');
    const provider = new ScriptedProvider();
    const campaignId = `knowledge-${Date.now()}`;
    reference = await withScriptedWorker(dev.address, taskQueue, referenceDir, provider, () =>
      dev.client.workflow.execute(campaignWorkflow, { taskQueue, workflowId: campaignId, args: [CAMPAIGN()] }),
    );
    expect(reference.episodes).toHaveLength(3);
    const knowledge = knowledgeOf(reference);
    expect(knowledge.episode).toBe(2);
    expect(knowledge.items.length).toBeGreaterThan(0);
    expect(knowledge.wisdom.map((w) => w.text)).toContain('lesson written after episode 3');

    // Each episode decided on its windows (turns 5 and 10, and the final one at 12) and recorded why.
    const third = episodeWorkflowId(campaignId, 2);
    const records = readTranscript(referenceDir, third).filter((t) => t.knowledgeUpdate);
    expect(records.map((t) => t.turn)).toEqual([5, 10, 12]);
    for (const r of records)
      expect(r.knowledgeUpdate).toMatchObject({
        calls: r.knowledgeUpdate!.skipped ? 0 : 1,
        turnsProcessed: expect.any(Number),
        size: expect.any(Number),
        reason: expect.any(String),
      });
    expect(knowledge.stats.verified + knowledge.stats.refuted).toBeGreaterThan(0);

    // Episode 3's first update prompt holds the base and the wisdom episodes 1 and 2 left.
    const updates = provider.knowledgeRequests
      .filter((r) => r.schemaName === 'knowledge_update')
      .map((r) => r.messages.map((m) => m.content).join('\n'));
    const firstOfThird = updates.find((u) => u.includes('#3'));
    expect(firstOfThird).toBeDefined();
    expect(firstOfThird).toContain('PERSISTENT WISDOM FROM PREVIOUS EPISODES');
    expect(firstOfThird).toContain('lesson written after episode 2');
    expect(firstOfThird).toMatch(/EXISTING KNOWLEDGE BASE:\nk\d+ \[/);
    // ... and so do the oracle's turn prompts: the wisdom of episode 2 can only have come from the carry.
    const turnPrompts = provider.turnRequests.map((r) => r.messages.map((m) => m.content).join('\n'));
    expect(turnPrompts.filter((p) => p.includes('[WISDOM] lesson written after episode 2')).length).toBeGreaterThanOrEqual(1);
    expect(turnPrompts.some((p) => p.includes('[WISDOM] lesson written after episode 3'))).toBe(false);

    // The views: knowledgebase.md with the seed's sections and the engine's map, backups of what each write replaced, the wisdom.
    const memoryDir = join(runDir(referenceDir, third), 'memory');
    const markdown = readFileSync(join(memoryDir, 'knowledgebase.md'), 'utf8');
    for (const heading of [
      '## WORLD KNOWLEDGE',
      '## STRATEGIC PATTERNS',
      '## DEATH & DANGER ANALYSIS',
      '## COMMAND SYNTAX',
      '## LESSONS LEARNED',
      '## CROSS-EPISODE INSIGHTS',
      '## CURRENT WORLD MAP',
    ])
      expect(markdown).toContain(heading);
    expect(markdown).toContain('West of House');
    expect(readdirSync(join(memoryDir, 'backups')).length).toBeGreaterThan(0);
    expect(readFileSync(join(memoryDir, 'persistent_wisdom.md'), 'utf8')).toContain('lesson written after episode 3');
  });

  it('leaves the knowledge base identical when a worker is SIGKILLed during an update', async () => {
    expect(reference).toBeDefined();
    const dataDir = tempDataDir();
    const markers = join(dataDir, 'markers');
    const taskQueue = uniqueQueue('knowledge-crash');
    const campaignId = `knowledge-crash-${Date.now()}`;
    const handle = await dev.client.workflow.start(campaignWorkflow, { taskQueue, workflowId: campaignId, args: [CAMPAIGN()] });
    // Every update is slow on this worker: it is killed during the first (episode 1, turn 5).
    const victim = spawnScriptedWorker(dev.address, taskQueue, dataDir, { markerDir: markers, knowledgeDelayMs: 60_000 });
    await waitFor('an update to start', () => existsSync(join(markers, 'updating-5')));
    await killHard(victim);
    // Where the kill landed: episode 1's updateKnowledge activity was running (started, not completed).
    const episode = dev.client.workflow.getHandle(episodeWorkflowId(campaignId, 0));
    const pending = (await episode.describe()).raw.pendingActivities ?? [];
    expect(pending.map((a) => [a.activityType?.name, String(a.state)])).toEqual([['updateKnowledge', expect.stringMatching(/STARTED|2/)]]);

    const survivor = spawnScriptedWorker(dev.address, taskQueue, dataDir, {});
    try {
      const result = await handle.result();
      expect(base(knowledgeOf(result))).toEqual(base(knowledgeOf(reference)));
      for (const index of [0, 1, 2]) {
        const read = (dir: string, id: string) =>
          readFileSync(join(runDir(dir, episodeWorkflowId(id, index)), 'memory', 'knowledgebase.md'), 'utf8');
        expect(read(dataDir, campaignId)).toEqual(read(referenceDir, reference.campaignId));
      }
    } finally {
      await killHard(survivor);
    }
  });
});
