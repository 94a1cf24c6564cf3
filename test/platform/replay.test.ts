/**
 * Replays recorded histories of real runs (test/histories/) against the current workflow code.
 * A change that alters the commands a workflow issues for the same history fails here before it
 * ships; such a change must go behind patched().
 */
import { historyFromJSON } from '@temporalio/common/lib/proto-utils';
import type { temporal } from '@temporalio/proto';
import { InjectedSinks, Worker } from '@temporalio/worker';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cachedWorkflowBundle } from '../../src/temporal/workflowBundle';
import { quietRuntime, workflowBundle } from './env';
import type { ScheduledSinks } from './scheduledActivities';

/** The commands a recorded history's stepGame activities were given. */
function recordedCommands(history: temporal.api.history.v1.IHistory): string[] {
  return (history.events ?? []).flatMap((event) => {
    const scheduled = event.activityTaskScheduledEventAttributes;
    if (scheduled?.activityType?.name !== 'stepGame') return [];
    const payload = scheduled.input?.payloads?.[0]?.data;
    return payload ? [(JSON.parse(Buffer.from(payload).toString('utf8')) as { command: string }).command] : [];
  });
}

const DIR = join(__dirname, '..', 'histories');
const files = readdirSync(DIR)
  .filter((f) => f.endsWith('.json'))
  .sort();

describe('replay of recorded histories', () => {
  it('has histories to replay (episode runs with continue-as-new, a campaign, a child episode)', () => {
    expect(files.length).toBeGreaterThanOrEqual(4);
  });

  it('replays every recorded history without nondeterminism', async () => {
    quietRuntime();
    const histories = files.map((f) => ({
      workflowId: f.replace(/(@[^.]*)?\.json$/, ''),
      history: historyFromJSON(JSON.parse(readFileSync(join(DIR, f), 'utf8'))),
    }));
    const results: Array<{ workflowId: string; error?: unknown }> = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle: await workflowBundle() }, histories)) results.push(r);
    expect(results.map((r) => ({ workflowId: r.workflowId, error: r.error ? String(r.error) : undefined }))).toEqual(
      histories.map((h) => ({ workflowId: h.workflowId, error: undefined })),
    );
  });

  it('replays runs recorded before a decision-changing change as they were played (before spent commands; before startGame returned the shape prior; before the full agent drew its trust before asking; before valid followed up)', async () => {
    // Recorded by the code before SPENT_COMMANDS_PATCH: at turn 11 it went west, where the code
    // after it, playing afresh, puts the bread in the basket (see history-valid-episode). And the
    // lighthouse under none, recorded when the workflow read the first shape prior itself: its
    // startGame result has no shapeWorth, so the replay plays the first prior, not today's. And
    // the full agent recorded before ASK_WHEN_HEEDED_PATCH: afresh, its draws come in another order
    // and its ninth activity opens the door with the key where the recording took the oil lamp.
    // And the ferry under valid recorded before FOLLOW_UP_PATCH: after opening the purse it took
    // all, where the code after it, playing afresh, pushes the coin the opening made reachable.
    // And the ferry under valid at seed 0 recorded before SPENT_PAIRS_PATCH: at turn 15 it put
    // things in things a fourth way where the code after it gives the ferryman the coin.
    // And the ferry under valid at seed 4 recorded before TIRED_ROOMS_PATCH: in run 2 it went on
    // taking the purse in the cave where the code after it, the cave tired, closes it and walks east.
    // And snacktime under valid at seed 0 recorded before NEW_PAIRINGS_PATCH: at turn 61 it put
    // all on the couch where the code after it gives the pet the can. And Zork I under valid at
    // seed 0 recorded before FIGHTS_BACK_PATCH: at turn 55 it opened the sack before the troll,
    // where the code after it attacks the troll with the sword. And 9:05 under valid at seed 0
    // recorded before UNDOING_NAMES_NOTHING_PATCH: at turn 22, the bedroom tired and its door just
    // closed, it got out of bed where the code after it opens the door again. And a campaign on
    // the ferry recorded before CHECKPOINT_PATCH: it wrote no checkpoint after its episodes.
    // And the Lighthouse under none recorded before TAKE_LISTED_PATCH: its first command was
    // "north" where the code after it takes the chest the shore lists, then opens it. And 9:05
    // under none recorded before STRIKE_SHAPES_PATCH: at turn 17 it drove a third thing where the
    // code after it, "drive" refused alike twice, takes all. And enter under none recorded
    // before ANSWER_MENUS_PATCH: at turn 6 it examined Judy at Mr. Alltext's menu where the code
    // after it answers "1". And 9:05 under none recorded before DO_ASKED_PATCH: at turn 6, told
    // to get out of bed first, it went east where the code after it gets out of bed. And the ferry
    // and snacktime under valid recorded before SPENT_ANYWHERE_PATCH: at turn 13 it put all in the
    // carried purse, two things already in it, where the code after it drops the coin; at turn 49
    // it kissed the pet where the code after it ("wait" spent) picks "sing". And the full agent
    // under none on the Lighthouse recorded before TYPES_ONLY_COMMANDS_PATCH: its first command was
    // the thought's "," where the code after it types no punctuation, placeholder or sentence.
    // And 9:05 under none recorded before RETRY_ASKED_PATCH: at turn 7, out of bed, it went east
    // where the code after it goes south, the move it was refused until it got up. And plundered
    // under none recorded before STRIKE_IDLE_PATCH: at turn 58 it laughed a third time where the
    // code after it, "laugh" answered alike twice, walks north. And enchanter under none recorded
    // before STRIKE_AMBIGUOUS_PATCH: at turn 16 it drove the spell it had just been asked which of
    // four it meant, where the code after it waves the book at something else. And snacktime under
    // none recorded before WHOLE_EXITS_PATCH: at turn 14, back in the food room whose only way out
    // it had been told, it tried south where the code after it takes all. And lostpig under none
    // recorded before RETRY_NAMED_PATCH: at turn 33, a noise having come from the northeast, whose
    // forest had looked too dark at turn 4, it ate something where the code after it goes northeast.
    // And Zork I under valid at seed 0 recorded before LIGHTS_FIRST_PATCH: in its second run, having
    // lit the lantern on the living-room floor, it pushed all where the code after it takes all (the lantern).
    // And Zork I under valid at seed 3 recorded before FACE_DANGER_PATCH: at turn 75, in the dark
    // attic with nothing to light, it walked north into the grue where the code after it goes back down.
    // And Zork I under valid at seed 4 recorded before MIND_PERILS_PATCH: at turn 56, back in the
    // cellar from the troll it had no sword for, it walked north to the troll again where the code
    // after it walks south. And Zork I under valid at seed 5 recorded before HEED_DARK_AHEAD_PATCH:
    // at turn 52, the trap door opened on "a rickety staircase descending into darkness", it went
    // down with the lantern left on the floor where the code after it lights the lantern. And the
    // second episode of a Zork I campaign under valid at seed 0 recorded before PLACE_PLANS_PATCH:
    // at turn 1 it opened the mailbox (the first episode's path by world states) where the code
    // after it walks south to the window the first episode climbed in by. And inhumane under valid
    // at seed 0 recorded before MIND_LOSSES_PATCH: at turn 14, "drop two" having lost two things in
    // the desert's sand, it dropped all there (the torch) where the code after it walks north. And
    // planetfall under valid at seed 0 recorded before SPEND_ECHOES_PATCH: at turn 9, on the
    // gangway, "wear chronometer" answered alike at turns 1 and 3, it put on the uniform (and the
    // chronometer again at turn 10) where the code after it, the chronometer spent, goes down.
    // And the second episode of a Zork I campaign under valid at seed 2 recorded before
    // RETURN_BY_ROOM_PATCH: at turn 70, the rooms it stood in spent, it went north to the nearest
    // room left open where the code after it goes around the forest to where the first episode
    // made a first. And the full agent on snacktime under valid at seed 0 with an oracle budget of 4,
    // recorded before NAMELESS_ROOMS_PATCH: its rooms have no names, so no room counted as progress,
    // and from turn 5 on it was "stalled": it asked the oracle at turns 5, 7, 8 and 10, its budget spent,
    // where the code after it, counting the rooms it walks into, first asks at turn 8 (and at 14 and 15).
    // And night under probe at seed 6 recorded before LOSING_WINS_PATCH: at turn 79, in the
    // Gnome's Lair with the printer, it dropped it (a win that takes 5 of its 6 points, ending at 1)
    // where the code after it walks west and plays on.
    const before = join(DIR, 'before-patches');
    const histories = readdirSync(before)
      .filter((f) => f.endsWith('.json'))
      .sort()
      .map((f) => ({
        workflowId: f.replace(/(@[^.]*)?\.json$/, ''),
        history: historyFromJSON(JSON.parse(readFileSync(join(before, f), 'utf8'))),
      }));
    expect(histories).toHaveLength(61);
    // Replay checks the kinds of activities, not their inputs: the interceptor reports the commands.
    const replayed: string[] = [];
    const bundle = await cachedWorkflowBundle([require.resolve('./scheduledActivities')]);
    const sinks: InjectedSinks<ScheduledSinks> = {
      scheduled: {
        activity: {
          fn: (_info, activityType, args) => {
            if (activityType === 'stepGame') replayed.push((args[0] as { command: string }).command);
          },
          callDuringReplay: true,
        },
      },
    };
    const errors: Array<string | undefined> = [];
    for await (const r of Worker.runReplayHistories({ workflowBundle: bundle, sinks }, histories))
      errors.push(r.error ? String(r.error) : undefined);
    expect(errors).toEqual(histories.map(() => undefined));
    expect(replayed).toEqual(histories.flatMap((h) => recordedCommands(h.history)));
  });
});
