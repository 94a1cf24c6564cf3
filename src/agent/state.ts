/**
 * The agent's whole state: what the workflow carries from turn to turn, through continue-as-new,
 * and (its `learned` part) from episode to episode. Everything in it is bounded, and `fitCarry`
 * enforces a byte budget on the whole, so a run's carried payload stays well under Temporal's
 * payload warnings however long the episode runs.
 */
import { z } from 'zod';
import { utf8Bytes } from '../text';
import { LearnedState, LearnedStateSchema } from './learned';
import { ActionOptionSchema, cellOf, GroundTruthData, GroundTruthSchema, StartGameResult } from '../schemas/game';
import { shortState } from './dynamics';
import { BeliefsSchema, freshBeliefs, Beliefs } from './beliefs';
import type { TurnView } from '../memory/module';
import { StepOutcomeSchema } from './updater';
import { startTyping, TypingSchema } from './typing';
import { FIRST_VERB_PRIOR, worthOfShapes } from './verbPrior';
import { EchoesSchema, NO_ECHOES } from './echoes';
import { keepNewest } from './newest';

/**
 * The name a location counts under in `places`. Some stories give every room object an empty name
 * and print the room's name from a routine (the status line still shows it); such a room counts by
 * its object number, `#<id>`. Without namesNamelessRooms (runs begun before its patch) it counts not at all.
 */
export function placeName(truth: GroundTruthData, namesNameless: boolean): string {
  if (truth.location.name !== '' || !namesNameless) return truth.location.name;
  return `#${truth.location.id}`;
}

export const LlmUsageSchema = z.object({
  calls: z.number().int(),
  promptTokens: z.number().int(),
  completionTokens: z.number().int(),
  fallbackTurns: z.number().int(),
  /** The model that answered the oracle (provider:model), once one has. */
  model: z.string().optional(),
  /** LLM calls answered, by what they were for (oracle, think, compact, ...); absent before they were counted. */
  answered: z.record(z.string(), z.number().int()).optional(),
  /** LLM calls that failed for good (retries spent), by kind: unreachable, refused, invalid answer, timed out. */
  failed: z.record(z.string(), z.number().int()).optional(),
});
export type LlmUsage = z.infer<typeof LlmUsageSchema>;

export const AgentStateSchema = z.object({
  story: z.object({ md5: z.string(), name: z.string(), maxScore: z.number().int().nullable() }),
  turn: z.number().int().nonnegative(),
  /** The game as it is now: perceived from the last engine call. */
  snapshot: z.string(),
  truth: GroundTruthSchema,
  worldHash: z.string(),
  observation: z.string(),
  /** The valid actions with their probed outcomes (`probe` assist only). */
  options: z.array(ActionOptionSchema),
  /** The valid-action list without outcomes (`valid` assist only). */
  commands: z.array(z.string()),
  lastCommand: z.string().nullable(),
  /** What the engine saw the last command do (null before the first turn). */
  lastOutcome: StepOutcomeSchema.nullable(),
  /** The seeded PRNG's state: a resumed or replayed episode draws the same numbers. */
  rngState: z.number().int(),
  /** Short world hashes this episode has been in, oldest first. */
  visited: z.array(z.string()),
  /** This episode's state-action counts (see `PolicyContext.tried`), oldest first. */
  tried: z.record(z.string(), z.number().int()),
  learned: LearnedStateSchema,
  beliefs: BeliefsSchema,
  llm: LlmUsageSchema,
  /** Each memory module's state, by module name. */
  memory: z.record(z.string(), z.unknown()),
  /** Go-Explore cells (see cellOf) this episode has been in, oldest first. */
  cells: z.array(z.string()),
  /** Room id -> command -> room it leads to, as the probe showed it (`probe` only; see rooms.ts). */
  exits: z.record(z.string(), z.record(z.string(), z.number().int())).default({}),
  /** `room id|command` for each command this episode made, oldest first (see CellMemory.doneHere). */
  done: z.array(z.string()).default([]),
  /** `room id|command` -> how many times this episode made it there (see CellMemory.spentHere). */
  made: z.record(z.string(), z.number().int().positive()).default({}),
  /** Under `valid`, a command answered as before, changing nothing seen, is spent for the episode wherever made (see echoes.ts); set from its patch. */
  spendsEchoes: z.boolean().default(false),
  /** The replies that tell echoes, and the commands answered with one (with spendsEchoes). */
  echoes: EchoesSchema.default(NO_ECHOES),
  /** Rooms this episode left with moves that still open something up, oldest first (see rooms.ts). */
  open: z.array(z.number().int()).default([]),
  /** Short world hashes from which this episode was the first ever to reach a place or item (see learned.frontier). */
  discovered: z.array(z.string()).default([]),
  /** Rooms this episode last left with nothing left to open up there (see `breakthrough` in turn.ts). */
  spent: z.array(z.number().int()).default([]),
  /** Locations this episode has been in, oldest first, by placeName: a new one counts as progress. */
  places: z.array(z.string()),
  /** Turns since the score rose or a new location was reached. */
  stalledTurns: z.number().int().nonnegative(),
  /** The nouns of the last reply the story's dictionary knows (`none` only). */
  nouns: z.array(z.string()).default([]),
  /** The story's lexicon and what the `none` explorer learned of its words (null: no lexicon, other levels). */
  typing: TypingSchema.nullable().default(null),
  /** The last turn a thoughtbox was offered (auto mode waits a few turns before offering again). */
  lastThoughtboxTurn: z.number().int().nullable(),
  /** The highest score seen at any step of the episode; absent in states carried before it was kept. */
  peakScore: z.number().int().optional(),
  /** Under `probe`, leave out moves that lower the score while others remain (see safePool); the workflow sets it from its patch. */
  avoidsLosses: z.boolean().default(false),
  /** Skip the oracle on a turn whose answers the selector would all pass over (see deliberate); the workflow sets it from its patch. */
  asksOnlyWhenHeeded: z.boolean().default(false),
  /**
   * Commands after which the game waited for a single key (a hints menu, "about"), newest last:
   * never progress, so tried after everything else. Empty in states from before it was kept.
   */
  menus: z.array(z.string()).default([]),
  /** The game waits for a single key now (see GameState). */
  waitsForKey: z.boolean().default(false),
  /** The effects (ActionOption.effect) of the commands this episode made, newest last (see CellMemory.effectsDone). */
  effects: z.array(z.string()).default([]),
  /** Under `probe`, rank a change already made and a menu already opened as repeats; the workflow sets it from its patch. */
  spendsEffects: z.boolean().default(false),
  /** Under `probe`, where a tier's moves only change things, take the verbs used least first; the workflow sets it from its patch. */
  spreadsVerbs: z.boolean().default(false),
  /** Under `probe`, where no move scores now, take the first of two that do (see lookAhead.ts); the workflow sets it from its patch. */
  looksAhead: z.boolean().default(false),
  /** Under `probe`, a mapped exit the probe now shows staying in the room is dropped (see refreshedExits); the workflow sets it from its patch. */
  dropsStaleExits: z.boolean().default(false),
  /** Under `probe`, where some move leaves the room, a mapped exit the probe does not show is dropped (see refreshedExits); set from its patch. */
  dropsUnshownExits: z.boolean().default(false),
  /** Under `probe`, leave out moves after which idling soon kills, while others remain (see safePool); the workflow sets it from its patch. */
  avoidsDoom: z.boolean().default(false),
  /** Under `probe`, where everything was tried, a move that leaves the world as it is comes last (see withoutStill); set from its patch. */
  leavesStill: z.boolean().default(false),
  /** Under `none`, go through the exits a room's replies named first and tire of a room as commands are made there (see typed.ts); set from its patch. */
  readsExits: z.boolean().default(false),
  /** Under `none`, a move into the dark is walked back at once and the dark room is not returned to (see typed.ts); set from its patch. */
  fleesDark: z.boolean().default(false),
  /** Under `none`, what a room's replies list apart from its description is taken before its exits are walked (see typed.ts); set from its patch. */
  takesListed: z.boolean().default(false),
  /** Under `none`, a shape the parser refused alike on two things is not tried again this episode (see typed.ts); set from its patch. */
  strikesShapes: z.boolean().default(false),
  /** Under `none`, a numbered menu on screen is answered with its numbers, then left with 0 (see typed.ts); set from its patch. */
  answersMenus: z.boolean().default(false),
  /** Under `none`, what a reply says to do first ("You'll have to stand up first.") is done next (see typed.ts); set from its patch. */
  doesAsked: z.boolean().default(false),
  /** Under `none`, the command refused until that was done is made again once it is (see typed.ts); set from its patch. */
  retriesAsked: z.boolean().default(false),
  /** Under `none`, a word the parser said is not a verb starts no move or command again (see typed.ts); set from its patch. */
  strikesUnknownVerbs: z.boolean().default(false),
  /** Under `none`, a command naming nothing that was answered alike twice is not typed again (see idleTyped.ts); set from its patch. */
  strikesIdle: z.boolean().default(false),
  /** Under `none`, a word the parser asked which of several things was meant by is not typed alone again in that room (see typed.ts); set from its patch. */
  strikesAmbiguous: z.boolean().default(false),
  /** Under `none`, where a reply said which ways out a room has, the directions it left out are tried last there (see typed.ts); set from its patch. */
  readsWholeExits: z.boolean().default(false),
  /** Under `none`, a move that went nowhere in a room is made again there, once, when a later reply names its direction (see typed.ts); set from its patch. */
  retriesNamed: z.boolean().default(false),
  /** Under `valid`, idle commands and shuffles into a carried thing are spent for the episode wherever made (see spentAnywhere.ts); set from its patch. */
  spendsAnywhere: z.boolean().default(false),
  /** Under `none`, advice is typed only when it is a command ("unknown" and "," are not; see namesCommand); set from its patch. */
  typesOnlyCommands: z.boolean().default(false),
  /** Turns of this episode on which the oracle was asked (what --oracle-budget counts). */
  oracleTurns: z.number().int().nonnegative().default(0),
  /**
   * Under `valid`: the listed commands that were not listed before the last command, when it left
   * the player in the same room — what that command made possible ("west" once the window is
   * open, "take leaflet" once the mailbox is); see nextUntried. Empty in states from before it was kept.
   */
  enabled: z.array(z.string()).default([]),
  /** Under `valid`, among the untried commands of one kind, what the last command made possible goes first; set from its patch. */
  followsUp: z.boolean().default(false),
  /** A move (a compass direction, "go …") made once in a room is spent there (see spentIn); set from its patch. */
  spendsMoves: z.boolean().default(false),
  /** A kind of two-thing command ("put _ in _") made PAIRS_SPENT_AFTER ways in a room is spent there (see spentIn); set from its patch. */
  spendsPairs: z.boolean().default(false),
  /** A room where ROOM_TIRES_AFTER commands were made tires (see spentIn); set from its patch. */
  tiresRooms: z.boolean().default(false),
  /** In a tired room, a command naming things never named together there keeps its try (see spentIn); set from its patch. */
  triesNewPairings: z.boolean().default(false),
  /** Threatened (an attack or an armed foe in the reply), the explorer fights back with what it carries first (see nextUntried); set from its patch. */
  fightsBack: z.boolean().default(false),
  /**
   * Threatened, the explorer stands and fights: the threat holds while it stays in the room where
   * it was read (see threatenedIn), and a blow that killed there in an earlier episode is struck
   * again, a fight lost being luck and walking away no safer. Threatened with nothing to fight
   * with, or in the dark with nothing to light, it goes back the way it came (see nextUntried);
   * set from its patch.
   */
  facesDanger: z.boolean().default(false),
  /** The room where a reply last told of an attack or an armed foe, while the player has not left it (with facesDanger). */
  threatenedIn: z.number().int().nullable().default(null),
  /** The move that brought the player into the room it stands in, while it stays there (with facesDanger). */
  arrivedBy: z.string().nullable().default(null),
  /**
   * A room left under a threat or in the dark is not returned to while nothing new is carried (see
   * perilous); told it is pitch dark, the explorer lights what it can first, and goes back the way
   * it came only when the move just made brought the dark (see nextUntried); set from its patch.
   */
  mindsPerils: z.boolean().default(false),
  /** Rooms left under a threat or in the dark, with what the player carried then (with mindsPerils). */
  perils: z.array(z.object({ room: z.number().int(), carried: z.array(z.string()) })).default([]),
  /** In a tired room, a thing named there only by undoing commands ("close door") is not yet named there (see spentIn); set from its patch. */
  undoingNamesNothing: z.boolean().default(false),
  /** Under `valid`, a thing lit is taken first and, once a dark room is known, lighting goes first (see lighting.ts); set from its patch. */
  lightsFirst: z.boolean().default(false),
  /** What this episode lit, the reply saying so (see lighting.ts), oldest first. */
  lit: z.array(z.string()).default([]),
  /** With lightsFirst, a reply that tells of a way into the dark counts as a dark room known (see lighting.ts); set from its patch. */
  heedsDarkAhead: z.boolean().default(false),
  /** A reply this episode told of a way into the dark (with heedsDarkAhead). */
  toldOfDark: z.boolean().default(false),
  /** Under `valid`, earlier episodes' scoring is replayed by room: walk to a visit that paid, make its commands (see placePlans.ts); set from its patch. */
  plansByPlace: z.boolean().default(false),
  /** Commands made since the player came into the room it stands in, newest last (with plansByPlace). */
  visit: z.array(z.string()).default([]),
  /** Paying visits (visitKey) this episode stood in the room of with nothing of theirs offered: not planned again. */
  plansGivenUp: z.array(z.string()).default([]),
  /** Under `valid`, a command of a shape that lost carried things is not made again where it lost them, nor is the light risked (see losses.ts); set from its patch. */
  mindsLosses: z.boolean().default(false),
  /**
   * Under `valid`, earlier episodes' firsts are returned to by room over the mapped rooms, not by
   * world state over the learned dynamics (see returns.ts); set from its patch.
   */
  returnsToFrontierRooms: z.boolean().default(false),
  /** Rooms in which this episode was the first ever to reach a place or item (with returnsToFrontierRooms; see learned.frontierRooms). */
  discoveredRooms: z.array(z.number().int()).default([]),
  /**
   * Room id -> the moves the room map holds from it that the list did not offer when the player
   * last stood there (with returnsToFrontierRooms): no walk is planned through them this episode.
   */
  closedMoves: z.record(z.string(), z.array(z.string())).default({}),
  /** A room whose object has no name counts as a place by its number (see placeName); set from its patch. */
  namesNamelessRooms: z.boolean().default(false),
  /** Under `probe`, a winning move that loses points is no win (see probedMove); set from its patch. */
  refusesLosingWins: z.boolean().default(false),
});
export type AgentState = z.infer<typeof AgentStateSchema>;

/** ~12 KB and ~9 KB of JSON: with the dynamics model (~32 KB) the carry stays near 55 KB. */
export const LIMITS = {
  visited: 800,
  tried: 300,
  places: 200,
  deaths: 100,
  cells: 300,
  learnedCells: 400,
  deadlyPlaces: 100,
  rooms: 150,
  done: 300,
  frontier: 30,
  deadlyMoves: 100,
  perils: 20,
  darkRooms: 50,
  lit: 20,
  menus: 20,
  effects: 200,
  enabled: 40,
} as const;
/** The byte budget of one carried state; the payload test holds every continue-as-new to 64 KB. */
export const MAX_CARRY_BYTES = 60 * 1024;

/**
 * Under `none` the typed commands' order is the shapes' worth startGame returned; a start recorded
 * before startGame returned it played the first prior, and its replay must play it too.
 */
export function initialState(start: StartGameResult, learned: LearnedState, rngState: number, memory: Record<string, unknown>): AgentState {
  return {
    story: { md5: start.storyMd5, name: start.storyName, maxScore: start.maxScore },
    turn: 0,
    snapshot: start.snapshot,
    truth: start.truth,
    worldHash: start.worldHash,
    observation: start.observation,
    options: start.options,
    commands: start.commands,
    lastCommand: null,
    lastOutcome: null,
    rngState,
    visited: [shortState(start.worldHash)],
    tried: {},
    learned,
    beliefs: withTruth(freshBeliefs(learned.overallGoal), start.truth),
    llm: { calls: 0, promptTokens: 0, completionTokens: 0, fallbackTurns: 0 },
    memory,
    cells: [cellOf(start.truth)],
    exits: {},
    done: [],
    made: {},
    spendsEchoes: true,
    echoes: NO_ECHOES,
    open: [],
    spent: [],
    discovered: [],
    // The workflow sets the patch flags after this; without namesNamelessRooms learn never counts a
    // nameless room, so the start room's `#<id>` here changes nothing for a run begun before it.
    places: [placeName(start.truth, true)],
    stalledTurns: 0,
    nouns: start.nouns ?? [],
    typing: start.lexicon
      ? startTyping(
          start.lexicon,
          start.shapeWorth ?? worthOfShapes(FIRST_VERB_PRIOR, start.lexicon),
          start.truth.location.id,
          start.observation,
          start.nouns ?? [],
        )
      : null,
    lastThoughtboxTurn: null,
    peakScore: start.truth.score,
    avoidsLosses: true,
    asksOnlyWhenHeeded: true,
    menus: [],
    waitsForKey: start.waitsForKey ?? false,
    effects: [],
    spendsEffects: true,
    spreadsVerbs: true,
    looksAhead: true,
    dropsStaleExits: true,
    dropsUnshownExits: true,
    avoidsDoom: true,
    leavesStill: true,
    readsExits: true,
    fleesDark: true,
    takesListed: true,
    strikesShapes: true,
    answersMenus: true,
    doesAsked: true,
    retriesAsked: true,
    strikesUnknownVerbs: true,
    strikesIdle: true,
    strikesAmbiguous: true,
    readsWholeExits: true,
    retriesNamed: true,
    spendsAnywhere: true,
    typesOnlyCommands: true,
    oracleTurns: 0,
    enabled: [],
    followsUp: true,
    spendsMoves: true,
    spendsPairs: true,
    tiresRooms: true,
    triesNewPairings: true,
    fightsBack: true,
    facesDanger: true,
    threatenedIn: null,
    arrivedBy: null,
    mindsPerils: true,
    perils: [],
    undoingNamesNothing: true,
    lightsFirst: true,
    lit: [],
    heedsDarkAhead: true,
    toldOfDark: false,
    plansByPlace: true,
    visit: [],
    plansGivenUp: [],
    mindsLosses: true,
    returnsToFrontierRooms: true,
    discoveredRooms: [],
    closedMoves: {},
    namesNamelessRooms: true,
    refusesLosingWins: true,
  };
}

/** Ground truth always wins over beliefs for what the game states plainly. */
export function withTruth(b: Beliefs, t: GroundTruthData): Beliefs {
  return { ...b, location: t.location.name || b.location, inventory: t.inventory.map((i) => i.name) };
}

/** World states seen before, by full or short hash (the episode keeps short ones to stay small). */
export interface StateSet {
  has(worldHash: string): boolean;
}

/** UTF-8 length of the JSON a payload converter would write. */
export function jsonBytes(value: unknown): number {
  return utf8Bytes(JSON.stringify(value) ?? '');
}

/**
 * The state trimmed to `maxBytes` of JSON: the oldest tenth of the visited states, the tried
 * counts and the dynamics model go first, in turns, until it fits. Deterministic, so a replay
 * trims the same way. The explicit limits keep this a rare safety net.
 */
export function fitCarry(state: AgentState, maxBytes = MAX_CARRY_BYTES): AgentState {
  let s = state;
  for (let round = 0; jsonBytes(s) > maxBytes && round < 40; round++) {
    const drop = <T>(xs: Record<string, T>) => keepNewest(xs, Math.floor(Object.keys(xs).length * 0.9));
    s = {
      ...s,
      visited: s.visited.slice(Math.ceil(s.visited.length / 10)),
      cells: s.cells.slice(Math.ceil(s.cells.length / 10)),
      exits: drop(s.exits),
      done: s.done.slice(Math.ceil(s.done.length / 10)),
      effects: s.effects.slice(Math.ceil(s.effects.length / 10)),
      made: drop(s.made),
      tried: drop(s.tried),
      learned: { ...s.learned, dynamics: { entries: drop(s.learned.dynamics.entries) } },
    };
  }
  return s;
}

/** What a memory module sees; `before` is the state the last command was run from. */
export function turnView(state: AgentState, before: AgentState | null, ending = false): TurnView {
  return {
    turn: state.turn,
    command: state.lastCommand,
    before: before?.truth ?? null,
    truth: state.truth,
    observation: state.observation,
    worldHash: state.worldHash,
    snapshot: state.snapshot,
    storyMd5: state.story.md5,
    goal: state.beliefs.currentSubgoal !== 'unknown' ? state.beliefs.currentSubgoal : state.beliefs.overallGoal,
    ending,
  };
}
