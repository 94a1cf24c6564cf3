/**
 * Game activities: a turn is a pure function of (story, snapshot, command), so any worker can
 * run any turn and a retried turn returns the same result. A turn heartbeats while it probes
 * the valid actions, so a worker that dies mid-turn is noticed within the heartbeat timeout.
 * Sessions are kept per story only to skip re-parsing it; every step starts by restoring the
 * snapshot it was given.
 */
import { createHash } from 'node:crypto';
import { assistFor } from '../agent/assist';
import { DEFAULT_VERB_PRIOR, VerbPrior, worthOfShapes } from '../agent/verbPrior';
import { resolveStory } from '../engine/resolveStory';
import { replyNouns, storyLexicon } from '../engine/lexicon';
import { GameSession } from '../engine/session';
import { StorySessions } from './stories';
import type { ValidAction } from '../engine/effectGroups';
import { findValidActionsYielding } from '../engine/validActions';
import { Ahead, lookAhead, LookAheadLimits, lookAheadYielding } from '../engine/lookAhead';
import { SEARCH_TRIES } from '../engine/searchAhead';
import { doomedMoves, doomedMovesYielding } from '../engine/doom';
import { sharedProbePool } from '../engine/probePool';
import { heartbeat } from './heartbeat';
import {
  ActionOption,
  Assist,
  GameState,
  StartGameInput,
  StartGameInputSchema,
  StartGameResult,
  StepGameInput,
  StepGameInputSchema,
  StepGameResult,
} from '../schemas/game';
import { classified, parseInput } from './failures';
import { recordGameStart, recordTurn } from '../telemetry/metrics';

/** Observations are bounded so history stays small whatever a game prints. */
export const MAX_OBSERVATION_CHARS = 8000;
/** Valid actions reported per turn, at most. */
export const MAX_OPTIONS = 64;

function bounded(text: string): string {
  return text.length > MAX_OBSERVATION_CHARS ? `${text.slice(0, MAX_OBSERVATION_CHARS)}\n[... truncated]` : text;
}

/**
 * Whether the valid-action search has anything to try: not after a win or a quit (a quit game
 * cannot be rewound). After a death some games go on (Zork), so the search still runs.
 */
export function searchable(session: GameSession): boolean {
  return !session.groundTruth().victory && !session.isOver;
}

/** 12 hex digits of the effect's MD5: the carried state keeps one per option and per change made. */
const effectKey = (effect: string) => createHash('md5').update(effect).digest('hex').slice(0, 12);

/** A valid action as the `probe` assist shows it: the command and what the probe saw it do. */
export function actionOption(a: ValidAction, ahead?: Ahead, diesWithin?: number): ActionOption {
  return {
    command: a.command,
    resultHash: a.resultHash,
    scoreDelta: a.scoreDelta,
    outcome: a.outcome,
    resultCell: a.resultCell,
    ...(a.scene ? { scene: a.scene } : {}),
    effect: effectKey(a.effect),
    ...(ahead ? { ahead } : {}),
    ...(diesWithin !== undefined ? { diesWithin } : {}),
  };
}

/** The look-ahead's limits: the search past two moves only when asked (bench:explore's `--searches-deeper`; see searchAhead.ts). */
const limitsOf = (searchesDeeper: boolean): LookAheadLimits => ({ searchTries: searchesDeeper ? SEARCH_TRIES : 0 });

/**
 * The probe's options: each valid action with its outcome, the best move after it (see
 * lookAhead.ts; further with `searchesDeeper`, see searchAhead.ts) and a death it leads to (see doom.ts).
 */
export function probedOptions(session: GameSession, found: ValidAction[], searchesDeeper = false): ActionOption[] {
  return optionsOf(found, lookAhead(session, found, limitsOf(searchesDeeper)), doomedMoves(session, found));
}

/** probedOptions in an activity: the look-aheads give the thread back and heartbeat while they run. */
async function probedOptionsYielding(session: GameSession, found: ValidAction[]): Promise<ActionOption[]> {
  const ahead = await lookAheadYielding(session, found, { onYield: heartbeat() });
  return optionsOf(found, ahead, await doomedMovesYielding(session, found, { onYield: heartbeat() }));
}

const optionsOf = (found: ValidAction[], ahead: Map<string, Ahead>, doomed: Map<string, number>): ActionOption[] =>
  found.map((action) => actionOption(action, ahead.get(action.command), doomed.get(action.command)));

/**
 * The state the agent perceives, with as much about the valid actions as its assist level allows:
 * the search runs for `probe` and `valid`, and `valid` keeps only the commands. Under `none` it
 * does not run at all: the agent gets the parser's reply and nothing else.
 */
async function stateOf(session: GameSession, observation: string, assist: Assist): Promise<GameState> {
  const shows = assistFor(assist).shows;
  const search = shows !== 'nothing' && searchable(session);
  const found = search
    ? (await findValidActionsYielding(session, { onYield: heartbeat(), pool: sharedProbePool(), reply: observation })).slice(0, MAX_OPTIONS)
    : [];
  return {
    observation: bounded(observation),
    truth: session.groundTruth(),
    worldHash: session.worldHash(),
    snapshot: Buffer.from(session.snapshot()).toString('base64'),
    options: shows === 'outcomes' ? await probedOptionsYielding(session, found) : [],
    commands: shows === 'commands' ? found.map((a) => a.command) : [],
    ...(shows === 'nothing' ? { nouns: replyNouns(session, observation) } : {}),
    ...(session.waitsForKey ? { waitsForKey: true as const } : {}),
  };
}

/** Under `none`: the story's lexicon and the prior's worth of its shapes (the typed commands' order). */
export function typedStart(session: GameSession, prior: VerbPrior = DEFAULT_VERB_PRIOR): Pick<StartGameResult, 'lexicon' | 'shapeWorth'> {
  const lexicon = storyLexicon(session);
  return { lexicon, shapeWorth: worthOfShapes(prior, lexicon) };
}

export function createGameActivities(stories: StorySessions = new StorySessions()) {
  return {
    async startGame(raw: StartGameInput): Promise<StartGameResult> {
      const input = parseInput(StartGameInputSchema, raw, 'startGame input');
      return classified(async () => {
        const path = resolveStory(input.game);
        const session = GameSession.fromFile(path, { seed: input.seed });
        const opening = [session.intro, ...input.openingCommands.map((command) => session.step(command).observation)];
        const state = await stateOf(session, opening.join('\n'), input.assist);
        stories.remember(path, session);
        recordGameStart(input.game);
        return {
          ...state,
          storyMd5: session.story.md5,
          storyName: session.binding?.name ?? path.split('/').pop()!,
          maxScore: session.maxScore ?? null,
          ...(assistFor(input.assist).shows === 'nothing' ? typedStart(session) : {}),
        };
      });
    },

    async stepGame(raw: StepGameInput): Promise<StepGameResult> {
      const input = parseInput(StepGameInputSchema, raw, 'stepGame input');
      return classified(() =>
        stories.use(input.game, input.storyMd5, async (session) => {
          session.restore(Buffer.from(input.snapshot, 'base64'));
          const result = session.step(input.command);
          const state = await stateOf(session, result.observation, input.assist);
          recordTurn(input.game, { command: result.command, truth: state.truth });
          return { command: result.command, ...state };
        }),
      );
    },
  };
}

export type GameActivities = ReturnType<typeof createGameActivities>;
