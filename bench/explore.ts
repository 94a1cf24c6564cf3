/**
 * npm run bench:explore -- [--assist none|valid|probe] [--steps 100] [--episodes 1] [--games all|a,b] [--seed N | --seeds 0-3]
 *   [--jobs N] [--save FILE] [--prior FILE] [--suite DIR] [--log] [--searches-deeper]   (`--help` says what each does)
 *
 * The oracle-free explorer played in-process on the Jericho suite: no Temporal, no LLM. Each game
 * of suite.json is opened with Jericho's seed, Jericho's reset commands are sent (as its reset
 * does, and as the suite replay does), and then one episode is played through the same pure turn
 * pipeline the episode workflow runs (deliberate → decide → step → learn, src/agent/turn.ts),
 * with the session in place of the game activities. `none` needs no valid-action search, so the
 * whole suite runs in minutes; `valid` and `probe` run the search on this thread every turn, as the
 * game activity would (the same commands, the same cap; `probe` with each one's outcome), so count
 * a few minutes a game.
 *
 * `--episodes N` plays each game as the `campaign` setting does, one episode at a time: episode k
 * opens the story with Jericho's seed + k and starts from what the episodes before it learned
 * (learnedAfter, as campaignWorkflow carries it); `best` is then the best final score, and
 * `finals` lists each episode's.
 *
 * Prints one JSON object: per game { game, maxScore, best, peak, normalised, steps, seconds, places, doomedTurns },
 * the suite mean of normalised (best / maxScore; lgop, whose maximum is unknown, aside) and the
 * mean of peak / maxScore. An episode longer than ten seconds shows its course on stderr every 25
 * turns (see exploreProgress.ts); `--log` writes each game's commands and replies there too. `--seeds`
 * plays each game with every seed and adds each seed's games and the standard error of their
 * means; `--jobs N` spreads the (seed, game) pairs over N child processes (see explorePool.ts).
 * `--save FILE` adds each run to FILE as it finishes and, run again, plays only the runs FILE
 * lacks (see exploreSaved.ts); a campaign keeps its finished episodes beside it as it goes, and
 * the episode in play once a minute, and goes on from them (see exploreCheckpoint.ts).
 * `--searches-deeper` (under `probe`) adds the look-ahead's search past two moves (see
 * searchAhead.ts), which the agent does not play with: measured on 34 episodes it gained nothing
 * (leaderboard.md).
 */
import { CommanderError } from 'commander';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { freshLearned, type LearnedState } from '../src/agent/learned';
import { learnedAfter } from '../src/agent/records';
import { createRng, seedFor } from '../src/agent/rng';
import { type EpisodeProgress, progressLine } from './exploreProgress';
import { AgentState, initialState } from '../src/agent/state';
import { VerbPrior, VerbPriorSchema } from '../src/agent/verbPrior';
import { decide, deliberate, isOver, learn } from '../src/agent/turn';
import { replyNouns } from '../src/engine/lexicon';
import { GameSession } from '../src/engine/session';
import { findValidActions } from '../src/engine/validActions';
import { MAX_OPTIONS, probedOptions, searchable, typedStart } from '../src/activities/game';
import { aboveMax } from '../src/experiment/suiteResults';
import { resolveEpisodeConfig } from '../src/schemas/episode';
import type { EpisodeConfig } from '../src/schemas/episode';
import type { Assist, GameState, StartGameResult } from '../src/schemas/game';
import { SuiteFileSchema, SuiteGame } from '../src/schemas/jerichoSuite';
import { exploreOptions } from './exploreOptions';
import { playInChildren, serveParent, type WorkItem } from './explorePool';
import { appendSaved, type GameRun, readSaved, savedKey } from './exploreSaved';
import {
  type CampaignCheckpoint,
  checkpointFile,
  type EpisodeInPlay,
  KEEP_IN_PLAY_MS,
  readCheckpoint,
  removeCheckpoint,
  writeCheckpoint,
} from './exploreCheckpoint';

const log = (msg: string) => process.stderr.write(`bench:explore ${msg}\n`);

export type { GameRun };

export type ExploreAssist = Assist;

/**
 * The game as the agent perceives it: the reply and the ground truth, under `valid` the valid
 * commands and under `probe` each with its outcome (as stateOf in the game activity).
 */
function perceived(session: GameSession, observation: string, assist: ExploreAssist, searchesDeeper: boolean): GameState {
  const found =
    assist !== 'none' && searchable(session) ? findValidActions(session, undefined, { reply: observation }).slice(0, MAX_OPTIONS) : [];
  return {
    observation,
    truth: session.groundTruth(),
    worldHash: session.worldHash(),
    // The agent carries the snapshot but never reads it; the activity's base64 copy is not needed here.
    snapshot: '',
    options: assist === 'probe' ? probedOptions(session, found, searchesDeeper) : [],
    commands: assist === 'valid' ? found.map((action) => action.command) : [],
    ...(assist === 'none' ? { nouns: replyNouns(session, observation) } : {}),
    ...(session.waitsForKey ? { waitsForKey: true as const } : {}),
  };
}

export interface PlayOptions {
  steps: number;
  /** Default `none`. */
  assist?: ExploreAssist;
  seed: number;
  /** Receives each command, the reply to it, and why the explorer chose it. */
  onStep?: (command: string, observation: string, why: string) => void;
  /** The prior to play with (default: the agent's own, src/agent/data/none-verb-prior.json). */
  prior?: VerbPrior;
  /** The shapes' worth to play with, in place of the prior's (scripts/none-prior.ts samples them). */
  worth?: (shapes: string[]) => Record<string, number>;
  /** Receives each turn's state before and after it. */
  onTurn?: (before: AgentState, after: AgentState) => void;
  /** Receives where the episode is after each turn (see exploreProgress.ts). */
  onProgress?: (at: EpisodeProgress) => void;
  /** How many episodes the campaign plays (playCampaign sets it; 1 for one episode): what onProgress says. */
  episodes?: number;
  /** Receives each episode's run as a campaign (playCampaign) finishes it, with the runs so far and what they learned. */
  onEpisode?: (index: number, run: GameRun, so: { runs: GameRun[]; learned: LearnedState | null }) => void;
  /** A campaign's finished episodes, and the one it stopped in, to go on from (see exploreCheckpoint.ts). */
  resume?: { runs: GameRun[]; learned: LearnedState; inPlay?: EpisodeInPlay };
  /** The episode to go on from, stopped between two turns (playCampaign passes resume.inPlay here). */
  inPlay?: EpisodeInPlay;
  /** Receives, after each turn, how to read the episode as it stands (the snapshot is taken only when it is called). */
  onTurnKept?: (inPlay: () => EpisodeInPlay) => void;
  /** What earlier episodes of a campaign learned (default: nothing). */
  learned?: LearnedState;
  /** Added to Jericho's seed for the story's random numbers (a campaign's episode index). */
  storySeedOffset?: number;
  /** Under `probe`, the look-ahead searches past two moves where no two score (see searchAhead.ts): an experiment, not the agent's play. */
  searchesDeeper?: boolean;
}

/** One episode of the oracle-free explorer on one suite game, through the workflow's turn pipeline. */
export function playGame(suiteDir: string, entry: SuiteGame, options: PlayOptions): GameRun {
  return playEpisode(suiteDir, entry, options).run;
}

/** One episode, with what it learned for the next (as the episode workflow's result carries it). */
export function playEpisode(suiteDir: string, entry: SuiteGame, options: PlayOptions): { run: GameRun; learned: LearnedState | null } {
  const started = performance.now() - (options.inPlay?.seconds ?? 0) * 1000;
  const run: GameRun = {
    game: entry.game,
    maxScore: entry.maxScore,
    best: 0,
    peak: 0,
    normalised: 0,
    steps: 0,
    seconds: 0,
    places: 0,
    doomedTurns: 0,
  };
  const finish = () => {
    run.normalised = entry.maxScore > 0 ? run.best / entry.maxScore : 0;
    run.seconds = Number(((performance.now() - started) / 1000).toFixed(1));
    return run;
  };
  const assist = options.assist ?? 'none';
  const config: EpisodeConfig = resolveEpisodeConfig({
    game: entry.file,
    seed: options.seed,
    maxTurns: options.steps,
    policy: 'oracle-free',
    assist,
  });
  let session: GameSession;
  let observation: string;
  try {
    session = GameSession.fromFile(join(suiteDir, entry.file), { seed: (entry.seed ?? 0) + (options.storySeedOffset ?? 0) });
    observation = session.intro;
    for (const command of entry.resetCommands) observation = session.step(command).observation;
  } catch (err) {
    run.fault = `load: ${(err as Error).message}`;
    return { run: finish(), learned: null };
  }
  let state: AgentState;
  if (options.inPlay) {
    // The game and the agent as they stood after the last kept turn: the turns after it play as they would have.
    session.restore(Buffer.from(options.inPlay.snapshot, 'base64'));
    state = options.inPlay.state;
    run.peak = options.inPlay.peak;
    run.doomedTurns = options.inPlay.doomedTurns;
  } else state = startState(session, entry, observation, assist, config, options);
  while (state.turn < config.maxTurns && !isOver(state.truth, config)) {
    const doomed = state.options.filter((o) => o.diesWithin !== undefined).length;
    if (doomed > 0 && doomed < state.options.length) run.doomedTurns++;
    const rng = createRng(state.rngState);
    const deliberation = deliberate(state, config, rng, []);
    const decision = decide(state, config, rng, deliberation, null);
    let step;
    try {
      const result = session.step(decision.command);
      step = { command: result.command, ...perceived(session, result.observation, assist, options.searchesDeeper ?? false) };
    } catch (err) {
      run.fault = `step ${state.turn} (${decision.command}): ${(err as Error).message}`;
      break;
    }
    options.onStep?.(step.command, step.observation, `${decision.reason}: ${decision.why}`);
    const before = state;
    state = learn(state, config, decision, step, rng, []);
    options.onTurn?.(before, state);
    options.onProgress?.({
      episode: options.storySeedOffset ?? 0,
      episodes: options.episodes ?? 1,
      turn: state.turn,
      steps: config.maxTurns,
      score: state.truth.score,
      maxScore: entry.maxScore,
      location: state.truth.location.name,
      elapsedMs: performance.now() - started,
    });
    run.peak = Math.max(run.peak, state.truth.score);
    const kept = state;
    options.onTurnKept?.(() => ({
      index: options.storySeedOffset ?? 0,
      state: kept,
      snapshot: Buffer.from(session.snapshot()).toString('base64'),
      peak: run.peak,
      doomedTurns: run.doomedTurns,
      seconds: (performance.now() - started) / 1000,
    }));
  }
  run.best = state.truth.score;
  run.died = state.truth.died;
  run.won = state.truth.victory;
  run.steps = state.turn;
  run.places = state.places.length;
  return { run: finish(), learned: learnedAfter(state) };
}

/** The agent's state at an episode's start: the opening perceived, and what earlier episodes learned. */
function startState(
  session: GameSession,
  entry: SuiteGame,
  observation: string,
  assist: ExploreAssist,
  config: EpisodeConfig,
  options: PlayOptions,
): AgentState {
  const start: StartGameResult = {
    ...perceived(session, observation, assist, options.searchesDeeper ?? false),
    storyMd5: session.story.md5,
    storyName: entry.game,
    maxScore: entry.maxScore,
    ...(assist === 'none' ? typedStart(session, options.prior) : {}),
  };
  const state = initialState(start, options.learned ?? freshLearned(), seedFor(config.seed, 'policy'), {});
  return options.worth && state.typing
    ? { ...state, typing: { ...state.typing, worth: options.worth(Object.keys(state.typing.worth)) } }
    : state;
}

/**
 * A game played as a campaign of `episodes`, one at a time, each from what the ones before it
 * learned. `best` is the best final score, `peak` the highest seen, `steps` and `places` summed.
 */
export function playCampaign(suiteDir: string, entry: SuiteGame, episodes: number, options: PlayOptions): GameRun {
  let learned = options.resume?.learned ?? options.learned ?? freshLearned();
  const runs: GameRun[] = [...(options.resume?.runs ?? [])];
  for (let index = runs.length; index < episodes; index++) {
    const inPlay = options.resume?.inPlay?.index === index ? options.resume.inPlay : undefined;
    const played = playEpisode(suiteDir, entry, {
      ...options,
      episodes,
      learned,
      storySeedOffset: index,
      seed: options.seed + index,
      inPlay,
    });
    runs.push(played.run);
    options.onEpisode?.(index, played.run, { runs: [...runs], learned: played.learned });
    if (!played.learned) break;
    learned = played.learned;
  }
  const best = Math.max(...runs.map((r) => r.best));
  const fault = runs.find((r) => r.fault)?.fault;
  return {
    game: entry.game,
    maxScore: entry.maxScore,
    best,
    peak: Math.max(...runs.map((r) => r.peak)),
    normalised: entry.maxScore > 0 ? best / entry.maxScore : 0,
    steps: runs.reduce((sum, r) => sum + r.steps, 0),
    seconds: Number(runs.reduce((sum, r) => sum + r.seconds, 0).toFixed(1)),
    places: runs.reduce((sum, r) => sum + r.places, 0),
    doomedTurns: runs.reduce((sum, r) => sum + r.doomedTurns, 0),
    finals: runs.map((r) => r.best),
    episodes: runs.map((r) => ({ final: r.best, peak: r.peak, steps: r.steps, died: r.died ?? false, won: r.won ?? false })),
    ...(fault ? { fault } : {}),
  };
}

/** "after episode 2 of 10", or "at turn 40 of episode 3 of 10" when it stopped mid-episode. */
function resumedAt(resume: CampaignCheckpoint, episodes: number): string {
  const { inPlay } = resume;
  return inPlay
    ? `at turn ${inPlay.state.turn} of episode ${inPlay.index + 1} of ${episodes}`
    : `after episode ${resume.runs.length} of ${episodes}`;
}

export function readSuite(suiteDir: string): SuiteGame[] {
  return SuiteFileSchema.parse(JSON.parse(readFileSync(join(suiteDir, 'suite.json'), 'utf8')));
}

const mean = (values: number[]) => (values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0);
const round = (value: number) => Number(value.toFixed(4));

/** A run whose score can be averaged: its game's maximum is known, and it did not score above it (a misread score; see aboveMax). */
const averaged = (run: GameRun) => run.maxScore > 0 && !aboveMax(run.peak, run.maxScore);

/** The suite means over the games with a known maximum and a score within it. */
export function suiteMeans(runs: GameRun[]): { normalised: number; peakNormalised: number; games: number } {
  const scored = runs.filter(averaged);
  return {
    normalised: round(mean(scored.map((r) => r.normalised))),
    peakNormalised: round(mean(scored.map((r) => r.peak / r.maxScore))),
    games: scored.length,
  };
}

/** The suite means of each seed's runs, their mean, and its standard error (how far luck alone moves it). */
export function seedMeans(bySeed: ReadonlyArray<{ seed: number; runs: GameRun[] }>) {
  const means = bySeed.map(({ seed, runs }) => ({ seed, ...suiteMeans(runs) }));
  const values = means.map((m) => m.normalised);
  const average = mean(values);
  const variance = values.length > 1 ? values.reduce((sum, value) => sum + (value - average) ** 2, 0) / (values.length - 1) : 0;
  return {
    normalised: round(average),
    peakNormalised: round(mean(means.map((m) => m.peakNormalised))),
    games: means[0]?.games ?? 0,
    seeds: means,
    standardError: round(Math.sqrt(variance / Math.max(1, values.length))),
  };
}

async function main(): Promise<void> {
  const options = exploreOptions(process.argv);
  const { assist, steps, episodes, seeds, jobs, searchesDeeper } = options;
  const suiteDir = options.suite;
  const suite = readSuite(suiteDir);
  const names = options.games === 'all' ? suite.map((g) => g.game) : options.games.split(',');
  const unknown = names.filter((name) => !suite.some((g) => g.game === name));
  if (unknown.length) throw new Error(`Not in ${suiteDir}/suite.json: ${unknown.join(', ')}`);
  const verbose = options.log;
  const priorFile = options.prior;
  const prior = priorFile ? VerbPriorSchema.parse(JSON.parse(readFileSync(priorFile, 'utf8'))) : undefined;
  const about = { assist, steps, episodes, prior: priorFile || 'default', ...(searchesDeeper ? { searchesDeeper } : {}) };
  const saveFile = options.save;
  const play = ({ seed, game }: WorkItem): GameRun => {
    const entry = suite.find((g) => g.game === game)!;
    const at = seeds.length > 1 ? ` (seed ${seed})` : '';
    const checkpoint = saveFile && episodes > 1 ? checkpointFile(saveFile, seed, game) : null;
    const resume = checkpoint ? readCheckpoint(checkpoint, about) : null;
    if (resume) log(`${game}${at}: going on ${resumedAt(resume, episodes)}, from ${checkpoint}`);
    // What the checkpoint holds besides the episode in play: the finished episodes and what they learned.
    let finished = { runs: resume?.runs ?? [], learned: resume?.learned ?? freshLearned() };
    let keptAt = performance.now();
    const options: PlayOptions = {
      steps,
      seed,
      assist,
      ...(prior ? { prior } : {}),
      ...(searchesDeeper ? { searchesDeeper } : {}),
      ...(verbose ? { onStep: (command, reply, why) => log(`${game}${at} > ${command}  (${why})\n${reply.slice(0, 300)}`) } : {}),
      ...(resume ? { resume } : {}),
      onProgress: (where) => {
        const line = progressLine(`${game}${at}`, where);
        if (line) log(line);
      },
      onEpisode: (index, run, so) => {
        log(`${game}${at} episode ${index + 1}/${episodes}: ${run.best} (peak ${run.peak}, ${run.places} places) in ${run.seconds} s`);
        if (checkpoint && so.learned) {
          finished = { runs: so.runs, learned: so.learned };
          writeCheckpoint(checkpoint, { settings: about, seed, game, ...finished });
          keptAt = performance.now();
        }
      },
      ...(checkpoint
        ? {
            onTurnKept: (inPlay: () => EpisodeInPlay) => {
              if (performance.now() - keptAt < KEEP_IN_PLAY_MS) return;
              writeCheckpoint(checkpoint, { settings: about, seed, game, ...finished, inPlay: inPlay() });
              keptAt = performance.now();
            },
          }
        : {}),
    };
    const run = episodes > 1 ? playCampaign(suiteDir, entry, episodes, options) : playGame(suiteDir, entry, options);
    log(
      `${game}${at}: ${run.best}/${run.maxScore} (peak ${run.peak}, ${run.places} places) in ${run.seconds} s` +
        (run.fault ? ` — ${run.fault}` : ''),
    );
    return { ...run, normalised: round(run.normalised) };
  };
  if (options.child) return serveParent(play);
  const items = seeds.flatMap((seed) => suite.filter((g) => names.includes(g.game)).map((g) => ({ seed, game: g.game })));
  const played = saveFile ? readSaved(saveFile, about, log) : new Map<string, GameRun>();
  const missing = items.filter((item) => !played.has(savedKey(item.seed, item.game)));
  if (saveFile) log(`${items.length - missing.length} of ${items.length} runs read from ${saveFile}; playing ${missing.length}`);
  const finished = (item: WorkItem, run: GameRun) => {
    played.set(savedKey(item.seed, item.game), run);
    if (saveFile) appendSaved(saveFile, about, item.seed, run);
    if (saveFile && episodes > 1) removeCheckpoint(checkpointFile(saveFile, item.seed, item.game));
    if (missing.length > 1) log(`${played.size} of ${items.length} runs done`);
  };
  if (jobs > 1) await playInChildren<GameRun>(__filename, process.argv.slice(2), missing, jobs, finished);
  else for (const item of missing) finished(item, play(item));
  const runOf = (item: WorkItem) => {
    const run = played.get(savedKey(item.seed, item.game));
    if (!run) throw new Error(`bench:explore: no run of ${item.game} at seed ${item.seed}`);
    return run;
  };
  const bySeed = seeds.map((seed) => ({ seed, runs: items.filter((item) => item.seed === seed).map(runOf) }));
  const shown = (runs: GameRun[]) => ({
    games: runs.filter(averaged),
    aside: runs
      .filter((r) => !averaged(r))
      .map((r) => ({ game: r.game, best: r.best, peak: r.peak, ...(r.maxScore > 0 ? { misread: aboveMax(r.peak, r.maxScore) } : {}) })),
  });
  // One seed prints as it always has; several add each seed's games and the spread of their means.
  const report =
    seeds.length === 1
      ? { ...about, seed: seeds[0], ...shown(bySeed[0].runs), mean: suiteMeans(bySeed[0].runs) }
      : { ...about, seeds, bySeed: bySeed.map(({ seed, runs }) => ({ seed, ...shown(runs) })), mean: seedMeans(bySeed) };
  console.log(JSON.stringify(report, null, 1));
}

if (require.main === module)
  main().catch((error: unknown) => {
    // Commander has written the usage or the bad flag's error already.
    if (error instanceof CommanderError) process.exit(error.exitCode);
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  });
