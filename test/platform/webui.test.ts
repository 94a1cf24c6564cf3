/**
 * The Web UI shows what an episode did: headless Debian Chromium (driven by playwright-core,
 * no browser download) opens the dev server's UI at the episode's workflow id and finds its
 * `stepGame` activities in the event history.
 */
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { Worker } from '@temporalio/worker';
import { existsSync } from 'node:fs';
import { chromium } from 'playwright-core';
import { episodeWorkflow } from '../../src/workflows';
import { episodeInput } from '../helpers';
import { createEnv, createTestWorker, tempDataDir, uniqueQueue } from './env';
import { freePort } from './server';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const run = existsSync(CHROMIUM) ? describe : describe.skip;
if (!existsSync(CHROMIUM)) {
  console.warn(`skipping the Web UI test: no Chromium at ${CHROMIUM} (apt-get install chromium chromium-driver; .ci/run does)`);
}

run('Temporal Web UI', () => {
  let env: TestWorkflowEnvironment;
  let worker: Worker;
  let uiPort: number;

  beforeAll(async () => {
    uiPort = await freePort();
    env = await createEnv({ uiPort });
  }, 120_000);

  afterAll(async () => {
    await env?.teardown();
  });

  it('opens the episode by its workflow id and finds its stepGame activities', async () => {
    const taskQueue = uniqueQueue('webui');
    worker = await createTestWorker(env, taskQueue, tempDataDir());
    const workflowId = `webui-episode-${Date.now()}`;
    await worker.runUntil(async () => {
      const handle = await env.client.workflow.start(episodeWorkflow, {
        taskQueue,
        workflowId,
        args: [episodeInput({ game: 'lighthouse', seed: 1, maxTurns: 3 })],
      });
      await handle.result();
    });

    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    });
    try {
      const page = await browser.newPage();
      await page.goto(`http://127.0.0.1:${uiPort}/namespaces/default/workflows/${workflowId}`, {
        waitUntil: 'domcontentloaded',
        timeout: 60_000,
      });
      await page.getByText(workflowId).first().waitFor({ timeout: 60_000 });
      const activity = page.getByText('stepGame').first();
      await activity.waitFor({ timeout: 60_000 });
      expect(await activity.isVisible()).toBe(true);
      await page.screenshot({ path: `${tempDataDir()}/webui.png` });
    } finally {
      await browser.close();
    }
  });
});
