/**
 * The patches of the episode workflow. A change to how the agent decides is patched, so a run
 * started under the code before it replays as it was played; each decision patch sets one of the
 * agent state's yes/no fields (DECISION_PATCHES), asked once, in this order, before any activity:
 * its marker takes that place in a history, so the order is never changed, only appended to.
 */
import { patched } from '@temporalio/workflow';
import type { AgentState } from '../agent/state';

/** The patch that brought spent commands (a command made three times in a room; see SPENT_AFTER). */
export const SPENT_COMMANDS_PATCH = 'explorer-spent-commands';
/** The patch that leaves out, under `probe`, moves that lower the score (see safePool). */
export const AVOID_LOSSES_PATCH = 'probe-avoids-losses';
/** The full agent skips the oracle on a turn whose answers it would not take (see deliberate). */
export const ASK_WHEN_HEEDED_PATCH = 'ask-only-when-heeded';
/** Under `probe`, a change already made (in any room) and a menu already opened rank as repeats (see tierOf). */
export const SPEND_EFFECTS_PATCH = 'probe-spends-effects';
/** Under `probe`, where a tier's moves only change things, the verbs this episode used least go first (see verbSpread.ts). */
export const SPREAD_VERBS_PATCH = 'probe-spreads-verbs';
/** Under `probe`, where no move scores now, the first of two moves that score together (see lookAhead.ts). */
export const LOOK_AHEAD_PATCH = 'probe-looks-two-ahead';
/** Under `probe`, a mapped exit the probe now shows staying in the room is dropped (see refreshedExits). */
export const STALE_EXITS_PATCH = 'probe-drops-stale-exits';
/** Under `probe`, where some move leaves the room, a mapped exit the probe does not show is dropped (see refreshedExits). */
export const UNSHOWN_EXITS_PATCH = 'probe-drops-unshown-exits';
/** Under `probe`, moves after which idling soon kills are left out while others remain (see safePool, doom.ts). */
export const DOOM_PATCH = 'probe-avoids-doomed-moves';
/** Under `none`, a move into the dark is walked back at once, and the dark room is not returned to (see typed.ts). */
export const FLEE_DARK_PATCH = 'none-flees-the-dark';
/** Under `probe`, where everything was tried, a move that leaves the world state as it is comes last (see withoutStill). */
export const STILL_MOVES_PATCH = 'probe-leaves-still-moves';
/** Under `none`, the exits a room's replies named go first, and a room tires as commands are made there (see typed.ts). */
export const READ_EXITS_PATCH = 'none-reads-named-exits';
/** Under `valid`, what the last command made possible is tried first among untried commands of its kind (see nextUntried). */
export const FOLLOW_UP_PATCH = 'valid-follows-up';
/** A move made once in a room is spent there (see spentIn): the explorer does not walk the same exits again after each find. */
export const SPENT_MOVES_PATCH = 'explorer-spends-made-moves';
/** A kind of two-thing command ("put _ in _") made three ways in a room is spent there (see spentIn). */
export const SPENT_PAIRS_PATCH = 'explorer-spends-item-pairs';
/** A room where fifteen commands were made tires: a verb used there on things named there is spent, and its spent moves go first (see ROOM_TIRES_AFTER). */
export const TIRED_ROOMS_PATCH = 'explorer-tires-of-rooms';
/** In a tired room, a command naming things never named together there keeps its try (see spentIn). */
export const NEW_PAIRINGS_PATCH = 'tired-rooms-try-new-pairings';
/** Threatened (an attack or an armed foe in the reply), the explorer fights back with what it carries first (see nextUntried). */
export const FIGHTS_BACK_PATCH = 'explorer-fights-back';
/** Under `valid`, a thing lit is taken first and, once a dark room is known, lighting goes first (see agent/lighting.ts). */
export const LIGHTS_FIRST_PATCH = 'explorer-lights-before-dark';
/** Threatened, the explorer fights back even with a blow that killed there before, and with nothing to fight with, or in the dark with nothing to light, it goes back the way it came (see nextUntried). */
export const FACE_DANGER_PATCH = 'explorer-faces-danger';
/** A room left under a threat or in the dark is not returned to while the player carries nothing new (see perilous in agent/cellMemory.ts); in the pitch dark a light comes first, and the way back only on arrival (see nextUntried). */
export const MIND_PERILS_PATCH = 'explorer-minds-perils';
/** Under `valid`, a reply telling of a way into the dark ("a staircase descending into darkness") counts as a dark room known: lighting goes first (see agent/lighting.ts). */
export const HEED_DARK_AHEAD_PATCH = 'explorer-heeds-dark-ahead';
/** Under `valid`, earlier episodes' scoring is replayed by room: a walk over the rooms mapped to a visit that paid, then its commands (see agent/placePlans.ts). */
export const PLACE_PLANS_PATCH = 'explorer-plans-by-place';
/** Under `valid`, a command after which carried things are gone, offered back by no listed command, is not made again in its shape where it lost them, and the light is not risked (see agent/losses.ts). */
export const MIND_LOSSES_PATCH = 'explorer-minds-losses';
/** Under `valid`, a command answered as it was before, changing nothing seen ("You are wearing the chronometer."), or naming nothing and showing again what was shown ("look" on arrival), is spent for the episode wherever it is made (see agent/echoes.ts). */
export const SPEND_ECHOES_PATCH = 'explorer-spends-echoes';
/** Under `valid`, the rooms where earlier episodes made a first are walked back to over the room map, not by their world states, and a mapped move the list does not offer where the player stands is no way for the episode's plans (see agent/returns.ts). */
export const RETURN_BY_ROOM_PATCH = 'explorer-returns-by-room';
/** In a tired room, a thing named there only by undoing commands is not yet named (see spentIn): what the explorer closed it may open again. */
export const UNDOING_NAMES_NOTHING_PATCH = 'tired-rooms-reopen-what-was-closed';
/** Under `none`, what a room's replies list apart from its description ("There is a lamp here.") is taken before its exits are walked (see typed.ts). */
export const TAKE_LISTED_PATCH = 'none-takes-what-is-listed';
/** Under `none`, a shape the parser refused alike on two things ("That isn't a vehicle.") is not tried again in the episode (see typed.ts). */
export const STRIKE_SHAPES_PATCH = 'none-strikes-refused-verbs';
/** Under `none`, a numbered menu on screen ("[1] Ask about the job … Select an option or 0 to say nothing") is answered with its numbers, then 0 (see typed.ts). */
export const ANSWER_MENUS_PATCH = 'none-answers-menus';
/** Under `none`, what a reply says to do first ("You'll have to stand up first.") is done next (see typed.ts). */
export const DO_ASKED_PATCH = 'none-does-what-is-asked-first';
/** Under `none`, the command refused until something was done first is made again once it is. */
export const RETRY_ASKED_PATCH = 'none-retries-what-was-refused-until-done';
/** Under `none`, a word the parser said is not a verb ("That's not a verb I recognise.") starts no command again in the episode. */
export const STRIKE_UNKNOWN_VERBS_PATCH = 'none-strikes-words-that-are-not-verbs';
/** Under `none`, a command naming nothing that was answered alike twice ("inventory", "laugh") is not typed again in the episode (see idleTyped.ts). */
export const STRIKE_IDLE_PATCH = 'none-strikes-idle-commands-answered-alike';
/** Under `none`, a word the parser asked which of several things was meant by ("Which do you mean, the front door or …?") is not typed alone again in that room. */
export const STRIKE_AMBIGUOUS_PATCH = 'none-strikes-ambiguous-words';
/** Under `none`, where a reply said which ways out a room has ("You can only go east."), the directions it left out are tried last there. */
export const WHOLE_EXITS_PATCH = 'none-reads-whole-exits';
/** Under `valid`, idle commands ("wait") and shuffles into a carried thing are spent wherever they were made (see spentAnywhere.ts). */
export const SPENT_ANYWHERE_PATCH = 'valid-spends-idle-and-shuffles-anywhere';
/** Under `none`, advice is typed only when it is a command: not a placeholder ("unknown") or punctuation (","; see namesCommand). */
export const TYPES_ONLY_COMMANDS_PATCH = 'none-types-only-commands';
/** Under `none`, a move that went nowhere in a room is made again there, once, when a later reply names its direction (see renamedAfter). */
export const RETRY_NAMED_PATCH = 'none-retries-moves-named-later';
/** A room whose object has no name counts as a place by its number: walking into one is progress (see placeName in agent/state.ts). */
export const NAMELESS_ROOMS_PATCH = 'agent-names-nameless-rooms';
/** Under `probe`, a winning move that loses points is no win (see probedMove). */
export const LOSING_WINS_PATCH = 'probe-refuses-losing-wins';

/** A story that faults on the agent's command ends the episode with the turns played, instead of failing it (see storyFault.ts). */
export const STORY_FAULT_PATCH = 'episode-ends-on-story-fault';

/** The agent state's yes/no fields. */
type BooleanField = { [K in keyof AgentState]: AgentState[K] extends boolean ? K : never }[keyof AgentState];

/**
 * The patches behind the agent state's decision flags, in the order the workflow asks for them:
 * each is asked once, before any activity, and its marker takes that place in a history.
 */
const DECISION_PATCHES = [
  ['avoidsLosses', AVOID_LOSSES_PATCH],
  ['asksOnlyWhenHeeded', ASK_WHEN_HEEDED_PATCH],
  ['spendsEffects', SPEND_EFFECTS_PATCH],
  ['spreadsVerbs', SPREAD_VERBS_PATCH],
  ['looksAhead', LOOK_AHEAD_PATCH],
  ['dropsStaleExits', STALE_EXITS_PATCH],
  ['dropsUnshownExits', UNSHOWN_EXITS_PATCH],
  ['avoidsDoom', DOOM_PATCH],
  ['readsExits', READ_EXITS_PATCH],
  ['leavesStill', STILL_MOVES_PATCH],
  ['fleesDark', FLEE_DARK_PATCH],
  ['followsUp', FOLLOW_UP_PATCH],
  ['spendsMoves', SPENT_MOVES_PATCH],
  ['spendsPairs', SPENT_PAIRS_PATCH],
  ['tiresRooms', TIRED_ROOMS_PATCH],
  ['triesNewPairings', NEW_PAIRINGS_PATCH],
  ['fightsBack', FIGHTS_BACK_PATCH],
  ['undoingNamesNothing', UNDOING_NAMES_NOTHING_PATCH],
  ['takesListed', TAKE_LISTED_PATCH],
  ['strikesShapes', STRIKE_SHAPES_PATCH],
  ['answersMenus', ANSWER_MENUS_PATCH],
  ['doesAsked', DO_ASKED_PATCH],
  ['retriesAsked', RETRY_ASKED_PATCH],
  ['strikesUnknownVerbs', STRIKE_UNKNOWN_VERBS_PATCH],
  ['strikesIdle', STRIKE_IDLE_PATCH],
  ['strikesAmbiguous', STRIKE_AMBIGUOUS_PATCH],
  ['readsWholeExits', WHOLE_EXITS_PATCH],
  ['spendsAnywhere', SPENT_ANYWHERE_PATCH],
  ['typesOnlyCommands', TYPES_ONLY_COMMANDS_PATCH],
  ['retriesNamed', RETRY_NAMED_PATCH],
  ['lightsFirst', LIGHTS_FIRST_PATCH],
  ['facesDanger', FACE_DANGER_PATCH],
  ['mindsPerils', MIND_PERILS_PATCH],
  ['heedsDarkAhead', HEED_DARK_AHEAD_PATCH],
  ['plansByPlace', PLACE_PLANS_PATCH],
  ['mindsLosses', MIND_LOSSES_PATCH],
  ['spendsEchoes', SPEND_ECHOES_PATCH],
  ['returnsToFrontierRooms', RETURN_BY_ROOM_PATCH],
  ['namesNamelessRooms', NAMELESS_ROOMS_PATCH],
  ['refusesLosingWins', LOSING_WINS_PATCH],
] as const satisfies ReadonlyArray<readonly [BooleanField, string]>;

type DecisionFlag = (typeof DECISION_PATCHES)[number][0];

/** Whether this run plays with each decision patch (see DECISION_PATCHES). */
export function decisionFlags(): Record<DecisionFlag, boolean> {
  const flags = {} as Record<DecisionFlag, boolean>;
  for (const [flag, patch] of DECISION_PATCHES) flags[flag] = patched(patch);
  return flags;
}
