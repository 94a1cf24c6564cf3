/**
 * Records histories of real runs into test/histories/ for the replay test. Each file is named
 * after its workflow id (replay needs it: child ids derive from it), with `@label` for extra runs.
 *   npx tsx scripts/record-histories.ts [--only full,full-none,full-suite,probe-suite,valid,valid-suite,none,none-suite,oracle-free]
 * Re-record on purpose, when an agent change is meant to change decisions (see the README's
 * "Shipping an agent change"); the decision-replay test fails until you do.
 */
import { historyToJSON } from '@temporalio/common/lib/proto-utils';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { DefaultLogger, Runtime, Worker } from '@temporalio/worker';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createActivities } from '../src/activities';
import { findTemporalCli } from '../src/temporal/server';
import { EpisodeOptions, resolveCampaignConfig, resolveEpisodeConfig } from '../src/schemas/episode';
import { campaignWorkflow, episodeWorkflow } from '../src/workflows';
import { GAME_KEY, SCORE_KEY, TURN_KEY } from '../src/schemas/searchAttributes';

/** A story of the Jericho suite beside the repository (../shared/jericho), or a clear error. */
function suiteStory(file: string): string {
  const path = join(__dirname, '..', '..', 'shared', 'jericho', file);
  if (!existsSync(path)) throw new Error(`${path} is missing: the suite recording needs the Jericho suite beside the repository.`);
  return path;
}

async function main() {
  Runtime.install({ logger: new DefaultLogger('WARN') });
  const cli = findTemporalCli();
  if (!cli) throw new Error('Temporal CLI not found: run `npx grue setup`.');
  const env = await TestWorkflowEnvironment.createLocal({
    server: { executable: { type: 'existing-path', path: cli }, searchAttributes: [GAME_KEY, SCORE_KEY, TURN_KEY] },
  });
  const out = join(__dirname, '..', 'test', 'histories');
  mkdirSync(out, { recursive: true });
  const taskQueue = 'record';
  const worker = await Worker.create({
    connection: env.nativeConnection,
    taskQueue,
    workflowsPath: require.resolve('../src/workflows'),
    activities: createActivities({ dataDir: mkdtempSync(join(tmpdir(), 'grue-record-')) }),
  });
  const only = process.argv.includes('--only') ? process.argv[process.argv.indexOf('--only') + 1] : null;
  const want = (name: string) => !only || only.split(',').includes(name);
  await worker.runUntil(async () => {
    /** An episode that continues as new once: both runs' histories are written. */
    const recordEpisode = async (workflowId: string, options: EpisodeOptions) => {
      // Only the first and the last run are written: a third run would leave the middle one out.
      if (options.continueAsNewEvery && options.maxTurns && options.maxTurns > 2 * options.continueAsNewEvery)
        throw new Error(`${workflowId}: ${options.maxTurns} turns make more than two runs of ${options.continueAsNewEvery}`);
      const handle = await env.client.workflow.start(episodeWorkflow, {
        taskQueue,
        workflowId,
        args: [{ config: resolveEpisodeConfig(options) }],
      });
      await handle.result();
      const last = await handle.describe();
      // The replay tests need both runs of a continue-as-new chain: an episode that ends in its first run records nothing useful.
      if (last.runId === handle.firstExecutionRunId)
        throw new Error(`${workflowId} ended in its first run: lower its continueAsNewEvery below the turns it plays`);
      const first = await env.client.workflow.getHandle(handle.workflowId, handle.firstExecutionRunId).fetchHistory();
      writeFileSync(join(out, `${workflowId}@run1.json`), historyToJSON(first));
      writeFileSync(join(out, `${workflowId}@run2.json`), historyToJSON(await handle.fetchHistory()));
    };
    // The full agent with the embedded model (its answers are in the history; replay needs no LLM).
    // Every asked turn thinks (two rounds at most) and knowledge windows are 5 turns, so the replay
    // covers the thoughtbox's and the knowledge base's activities too.
    if (want('full'))
      await recordEpisode('history-full-episode', {
        game: 'lighthouse',
        seed: 2,
        maxTurns: 12,
        policy: 'full',
        continueAsNewEvery: 6,
        thoughtbox: 'always',
        maxThinkingIterations: 2,
        knowledgeEvery: 5,
      });
    // The full agent under `none` with the embedded model: no list, so its advice is typed as a
    // player types it. Every asked turn thinks, and the 270M model concludes with punctuation
    // (",") and its oracle recommends "unknown" and sentences ("the last action made progress"):
    // the code before none-types-only-commands typed them on 8 of the 12 turns, starting at turn 1
    // with ","; the code after it takes the chest there and types none of them.
    if (want('full-none'))
      await recordEpisode('history-full-none-episode', {
        game: 'lighthouse',
        seed: 2,
        maxTurns: 12,
        policy: 'full',
        assist: 'none',
        continueAsNewEvery: 6,
        thoughtbox: 'always',
        maxThinkingIterations: 2,
      });
    // The full agent with the embedded model and an oracle budget, on a suite game whose rooms have
    // no names: snacktime (Jericho's story file) at seed 0. Each room counts by its number, so
    // walking into one is progress and the explorer keeps the budget (NAMELESS_ROOMS_PATCH); the
    // code before it counted no room there, was "stalled" from turn 5 on, and asked the oracle at
    // turns 5, 7, 8 and 10 (its budget spent) where this asks first at turn 8.
    if (want('full-suite'))
      await recordEpisode('history-full-suite-episode', {
        game: suiteStory('snacktime.z8'),
        seed: 0,
        maxTurns: 16,
        policy: 'full',
        assist: 'valid',
        oracleBudget: 4,
        continueAsNewEvery: 8,
      });
    // The explorer under `probe` offered a win that takes points: Night (Jericho's story file) at
    // seed 6 reaches the Gnome's Lair with the laser printer, where dropping it wins the game but
    // takes 5 of its 6 points. The code before LOSING_WINS_PATCH dropped it at turn 79 and ended
    // at 1 of 10; the code after it walks west there and plays on.
    if (want('probe-suite'))
      await recordEpisode('history-probe-suite-episode', {
        game: suiteStory('night.z5'),
        seed: 6,
        maxTurns: 84,
        policy: 'oracle-free',
        assist: 'probe',
        continueAsNewEvery: 42,
      });
    // The explorer under `valid` (valid commands, no outcomes): the decision replay then covers
    // how it orders untried commands, which the probe's episodes never reach. On the ferry at seed
    // 4 the explorer handles bread, coin and purse in the cave until the room tires (fifteen
    // commands), then closes the purse (a verb new there) and walks east at turn 19 (tired rooms;
    // the code before them went on taking and dropping them there to the end). Two things put in
    // the purse it carries spend that kind wherever it is: at turn 13 it drops the coin where the
    // code before put all in the purse (idle commands and shuffles spent anywhere).
    if (want('valid'))
      await recordEpisode('history-valid-episode', {
        game: 'ferry',
        seed: 4,
        maxTurns: 30,
        policy: 'oracle-free',
        assist: 'valid',
        continueAsNewEvery: 15,
      });
    // The explorer under `valid` on a suite game, where a room tires with things in hand:
    // snacktime. Recorded before SPEND_ECHOES_PATCH, in the sitting room, tired with the sock and
    // the can taken there, it gave the pet the can at turn 56 (tired rooms try new pairings; see
    // before-patches/history-valid-suite-before-pairings); since then, with echoes spent, its commands part
    // from that recording's at turn 17 ("take sock" for "take dino"), and it gives the pet the shiny
    // thing at turn 35 instead. Needs ../shared/jericho (the story is not in the repository; the replay tests answer its
    // activities from the recording).
    if (want('valid-suite'))
      await recordEpisode('history-valid-suite-episode', {
        game: suiteStory('snacktime.z8'),
        seed: 0,
        maxTurns: 64,
        policy: 'oracle-free',
        assist: 'valid',
        continueAsNewEvery: 32,
      });
    // The explorer under `valid` in a fight: Zork I (Jericho's story file) at seed 0 reaches the
    // troll, brandishing its axe, at turn 55 and fights back with the sword at turn 56 (the code
    // before it opened the sack there, and the troll killed the player a turn later). With the
    // lantern it lit taken first (LIGHTS_FIRST_PATCH) it gets there a turn later than before.
    if (want('valid-suite'))
      await recordEpisode('history-valid-fight-episode', {
        game: suiteStory('zork1.z5'),
        seed: 0,
        maxTurns: 56,
        policy: 'oracle-free',
        assist: 'valid',
        continueAsNewEvery: 28,
      });
    // The explorer under `valid` in the dark: Zork I (Jericho's story file) at seed 3 climbs from
    // the kitchen into the dark attic at turn 74 with nothing to light, and goes back down at turn
    // 75 (FACE_DANGER_PATCH; the code before it walked north there into the grue's fangs).
    if (want('valid-suite'))
      await recordEpisode('history-valid-dark-episode', {
        game: suiteStory('zork1.z5'),
        seed: 3,
        maxTurns: 76,
        policy: 'oracle-free',
        assist: 'valid',
        continueAsNewEvery: 38,
      });
    // The explorer under `valid` minding a peril: Zork I (Jericho's story file) at seed 4 meets the
    // troll with no sword and goes back to the cellar at turn 55; at turn 56 it walks south to the
    // rooms it has not finished (MIND_PERILS_PATCH; the code before it walked back in to the troll
    // there, as the nearest room with untried moves).
    if (want('valid-suite'))
      await recordEpisode('history-valid-peril-episode', {
        game: suiteStory('zork1.z5'),
        seed: 4,
        maxTurns: 58,
        policy: 'oracle-free',
        assist: 'valid',
        continueAsNewEvery: 29,
      });
    // The explorer under `valid` told of a way into the dark: Zork I (Jericho's story file) at seed
    // 5 opens the trap door at turn 51 ("a rickety staircase descending into darkness") and lights
    // the lantern at turn 52 (HEED_DARK_AHEAD_PATCH; the code before it went down with the lantern
    // left on the living-room floor, and was eaten).
    if (want('valid-suite'))
      await recordEpisode('history-valid-dark-ahead-episode', {
        game: suiteStory('zork1.z5'),
        seed: 5,
        maxTurns: 54,
        policy: 'oracle-free',
        assist: 'valid',
        continueAsNewEvery: 27,
      });
    // The explorer under `valid` where a clock makes every state new: Planetfall (Jericho's story
    // file) at seed 0 makes "wear chronometer" at turns 1 and 3, answered alike ("You are wearing
    // the chronometer."), and it is spent for the episode: at turn 9, on the gangway, the explorer
    // goes down (SPEND_ECHOES_PATCH; the code before it put on the uniform there and made "wear
    // chronometer" again at turns 10 and 13).
    if (want('valid-suite'))
      await recordEpisode('history-valid-echoes-episode', {
        game: suiteStory('planetfall.z3'),
        seed: 0,
        maxTurns: 14,
        policy: 'oracle-free',
        assist: 'valid',
        continueAsNewEvery: 7,
      });
    // The explorer under `valid` where things are lost: Inhumane (Jericho's story file) at seed 0
    // walks out into the desert, where "drop two" at turn 13 loses the torch button and the shovel
    // in the sand (no listed command names them again); at turn 14 it walks north
    // (MIND_LOSSES_PATCH; the code before it made "drop all" there, lost the torch, and was eaten in
    // the dark at turn 15).
    if (want('valid-suite'))
      await recordEpisode('history-valid-losses-episode', {
        game: suiteStory('inhumane.z5'),
        seed: 0,
        maxTurns: 16,
        policy: 'oracle-free',
        assist: 'valid',
        continueAsNewEvery: 8,
      });
    // The explorer under `valid` in 9:05's bedroom (Jericho's story file) at seed 0, handling its
    // things until the room tires. Recorded before SPEND_ECHOES_PATCH it closed the door to the
    // east at turn 21 and opened it again at turn 22 (tired rooms reopen what was closed; see
    // before-patches/history-valid-reopen-before-undoing); since then "look under bed", answered
    // alike at turns 5 and 10, is spent, and its 24 turns put things on the end table and in the
    // bed instead, the door left shut.
    if (want('valid-suite'))
      await recordEpisode('history-valid-reopen-episode', {
        game: suiteStory('905.z5'),
        seed: 0,
        maxTurns: 24,
        policy: 'oracle-free',
        assist: 'valid',
        continueAsNewEvery: 12,
      });
    // The explorer under `none` in 9:05's bedroom (Jericho's story file, seed 0): "south" at turn 5
    // is answered "You'll have to get out of bed first.", and the explorer gets out of bed at turn
    // 6 (the code before it walked on into the other directions, got up by "up" at turn 14 and
    // then drove every noun in the room until "drive" was struck), then goes south at turn 7 (the
    // code before that walked east and never tried the bathroom again).
    if (want('none-suite'))
      await recordEpisode('history-none-bedroom-episode', {
        game: suiteStory('905.z5'),
        seed: 0,
        maxTurns: 24,
        policy: 'oracle-free',
        assist: 'none',
        continueAsNewEvery: 12,
      });
    // The explorer under `none` at a menu: in enter (Jericho's story file) at seed 0, Mr. Alltext's
    // talk ends in a numbered menu at turn 5 ("Select an option or 0 to say nothing") and the
    // explorer answers "1" (the code before it typed on, and every command was taken for a choice).
    if (want('none-suite'))
      await recordEpisode('history-none-menu-episode', {
        game: suiteStory('enter.z5'),
        seed: 0,
        maxTurns: 12,
        policy: 'oracle-free',
        assist: 'none',
        continueAsNewEvery: 6,
      });
    // The explorer under `none` where a command naming nothing gets the same answer room after
    // room: in plundered (Jericho's story file) at seed 0, "laugh" and "inventory", each answered
    // alike twice, are struck, and at turn 58 the explorer walks north where the code before laughed
    // a third time.
    if (want('none-suite'))
      await recordEpisode('history-none-idle-episode', {
        game: suiteStory('plundered.z3'),
        seed: 0,
        maxTurns: 60,
        policy: 'oracle-free',
        assist: 'none',
        continueAsNewEvery: 30,
      });
    // The explorer under `none` where the parser asks which thing a word meant: in enchanter
    // (Jericho's story file) at seed 0, "wave book at spell" is answered "Which spell do you mean,
    // the gnusto spell, …?" at turn 15, and at turn 16 the explorer types no more "spell" there
    // (the code before drove it and got the same question).
    if (want('none-suite'))
      await recordEpisode('history-none-which-episode', {
        game: suiteStory('enchanter.z3'),
        seed: 0,
        maxTurns: 20,
        policy: 'oracle-free',
        assist: 'none',
        continueAsNewEvery: 10,
      });
    // The explorer under `none` where a reply gives a room's only way out: in snacktime (Jericho's
    // story file) at seed 0, "west" in the food room is answered "From here, you can only go east
    // to the sitting room.", and at turn 14, back there, the explorer takes all where the code
    // before tried south, north and every other direction in turn.
    if (want('none-suite'))
      await recordEpisode('history-none-exits-episode', {
        game: suiteStory('snacktime.z8'),
        seed: 0,
        maxTurns: 16,
        policy: 'oracle-free',
        assist: 'none',
        continueAsNewEvery: 8,
      });
    // The explorer under `none` where a later reply names a move that went nowhere: in lostpig
    // (Jericho's story file) at seed 0, the forest to the northeast "look dark" at turn 4; at turn
    // 32 a noise "come from northeast" (a point scored), and at turn 33 the explorer goes northeast
    // into the forest where the code before tried the other directions of the farm again.
    if (want('none-suite'))
      await recordEpisode('history-none-named-episode', {
        game: suiteStory('lostpig.z8'),
        seed: 0,
        maxTurns: 40,
        policy: 'oracle-free',
        assist: 'none',
        continueAsNewEvery: 20,
      });
    // The explorer under `none` (typed commands from the story's lexicon, ordered by the learned
    // shape prior): the decision replay then covers the prior's order and the parser's refusals.
    if (want('none'))
      await recordEpisode('history-none-episode', {
        game: 'lighthouse',
        seed: 1,
        maxTurns: 14,
        policy: 'oracle-free',
        assist: 'none',
        continueAsNewEvery: 7,
      });
    // A campaign under `valid` replaying by place what its first episode scored: Zork I (Jericho's
    // story file) at seed 2, two episodes of 100 turns. The second walks to where the first scored
    // at once (PLACE_PLANS_PATCH; the code before it replayed the first episode's forest by its
    // world states), and at turn 70, the rooms it stands in spent, walks back "around the forest"
    // to where the first made a first (RETURN_BY_ROOM_PATCH; the code before it went north to the
    // nearest room left open, and ended with 15 points where this one ends with 44).
    // Its episodes have recordings of their own.
    if (want('valid-suite')) {
      const handle = await env.client.workflow.start(campaignWorkflow, {
        taskQueue,
        workflowId: 'history-campaign-valid',
        args: [
          resolveCampaignConfig({
            game: suiteStory('zork1.z5'),
            episodes: 2,
            seed: 2,
            maxTurns: 100,
            policy: 'oracle-free',
            assist: 'valid',
          }),
        ],
      });
      await handle.result();
      writeFileSync(join(out, 'history-campaign-valid.json'), historyToJSON(await handle.fetchHistory()));
      for (const child of ['history-campaign-valid-episode-001', 'history-campaign-valid-episode-002'])
        writeFileSync(join(out, `${child}.json`), historyToJSON(await env.client.workflow.getHandle(child).fetchHistory()));
    }
    if (!want('oracle-free')) return;
    await recordEpisode('history-episode', {
      game: 'lighthouse',
      seed: 1,
      maxTurns: 10,
      policy: 'oracle-free',
      // The explorer wins the Lighthouse in under 10 turns: continue as new before that.
      continueAsNewEvery: 5,
      transcriptFlushEvery: 3,
    });

    const campaign = await env.client.workflow.start(campaignWorkflow, {
      taskQueue,
      workflowId: 'history-campaign',
      args: [resolveCampaignConfig({ game: 'ferry', episodes: 2, seed: 3, maxTurns: 8, policy: 'oracle-free' })],
    });
    await campaign.result();
    writeFileSync(join(out, 'history-campaign.json'), historyToJSON(await campaign.fetchHistory()));
    for (const child of ['history-campaign-episode-001', 'history-campaign-episode-002']) {
      writeFileSync(join(out, `${child}.json`), historyToJSON(await env.client.workflow.getHandle(child).fetchHistory()));
    }
  });
  await env.teardown();
  console.log(`histories written to ${out}`);
}

main().then(
  // The worker's embedded-model host can outlive the work; the histories are written, so end here.
  () => process.exit(0),
  (err) => {
    console.error(err);
    process.exit(1);
  },
);
