/**
 * The learn stage of a turn (see ./turn): the state after the engine ran the decided command —
 * beliefs, reliability, dynamics, novelty, the room map, the memory modules' bookkeeping.
 */
import { MEMORY_MODULES } from '../memory';
import type { AnyMemoryModule } from '../memory';
import { observeMemory } from '../memory/runner';
import type { EpisodeConfig } from '../schemas/episode';
import { cellOf, GameState } from '../schemas/game';
import { assistFor } from './assist';
import { LIMITS as BELIEF_LIMITS, pushBounded } from './beliefs';
import { isFirstEver, placeOf } from './cells';
import type { Decision } from './decision';
import { observe as observeDynamics, shortState } from './dynamics';
import { arrivalAfter } from './directions';
import { echoesAfter } from './echoes';
import { threatHeld } from './fights';
import { litThing } from './lighting';
import { type LearnedState, LOSING_MOVES, MAPPED_ROOMS, VISIT_COMMANDS, VISIT_LIGHTS } from './learned';
import { lossAt, lossShape, lostThings, placesThings } from './losses';
import { withMappedMove, withPayingVisit } from './placePlans';
import { keepNewest, withNewestEntry } from './newest';
import { saysDark, saysDarkAhead } from './replyReading';
import { triedKey } from './policy';
import type { Rng } from './rng';
import { afterBreakthrough } from './rooms';
import { AgentState, LIMITS, placeName, turnView, withTruth } from './state';
import { carriedLower, perilsAfter, plansGivenUpAfter } from './cellMemory';
import { carriedNames, countMade } from './spent';
import { markVisited, moveAt, rememberDeath, rememberReward, visitedSet } from './remember';
import { pushOnce } from './newest';
import { nounsInReach, typedCommands, typedContext } from './typed';
import { learnTyping, Typing } from './typing';
import { updateReliability } from './updater';

/** The `none` explorer's words after a step: the nouns met where the player now is, and the words the parser refused. */
function typingAfter(state: AgentState, step: GameState & { command: string }): Typing {
  const typing = state.typing!;
  const here = typedContext(
    typing,
    state.nouns,
    state.truth.location.id,
    state.truth.inventory.map((item) => item.name),
  );
  const shape = state.strikesShapes ? typedCommands(here).find((c) => c.command === step.command)?.shape : undefined;
  return learnTyping(
    typing,
    {
      from: state.truth.location.id,
      to: step.truth.location.id,
      command: step.command,
      reply: step.observation,
      nouns: step.nouns ?? [],
      known: nounsInReach(here),
    },
    shape === undefined ? undefined : { shape, gained: gainedAnything(state, step) },
  );
}

/** Whether a step did anything a player would count: a score, another room, something new held. */
function gainedAnything(state: AgentState, step: GameState): boolean {
  const held = new Set(state.truth.inventory.map((item) => item.id));
  return (
    step.truth.score !== state.truth.score ||
    step.truth.location.id !== state.truth.location.id ||
    step.truth.inventory.some((item) => !held.has(item.id))
  );
}

/** The things lit so far, with the one this command lit (see lighting.ts). */
const withLit = (lit: string[], thing: string | null) => (thing ? pushOnce(lit, thing, LIMITS.lit) : lit);

/**
 * The commands listed after the step that were not listed before it, when it left the player in
 * the same room (a move makes every command new, and says nothing of what it made possible).
 */
function enabledBy(state: AgentState, step: GameState): string[] {
  if (state.commands.length === 0 || step.truth.location.id !== state.truth.location.id) return [];
  const before = new Set(state.commands);
  return step.commands.filter((command) => !before.has(command)).slice(0, LIMITS.enabled);
}

/** The commands made since the player came into the room it stands in, after `step`. */
const visitAfter = (state: AgentState, step: GameState & { command: string }) =>
  step.truth.location.id === state.truth.location.id ? [...state.visit, step.command].slice(-VISIT_COMMANDS) : [];

/**
 * What a step teaches plans by place (see placePlans.ts): a move that changed rooms maps the room
 * left; a step that scored keeps the visit that paid, with the things lit and carried after it.
 */
function learnedPlaces(learned: LearnedState, state: AgentState, step: GameState & { command: string }, scoreDelta: number): LearnedState {
  if (step.truth.died) return learned;
  const from = state.truth.location.id;
  const to = step.truth.location.id;
  let out = learned;
  if (from !== to) out = { ...out, roomMap: withMappedMove(out.roomMap ?? {}, from, step.command, to) };
  if (scoreDelta > 0) {
    const carried = carriedLower({ truth: step.truth });
    const lit = withLit(state.lit, litThing(step.command, step.observation))
      .filter((thing) => carried.has(thing))
      .slice(0, VISIT_LIGHTS);
    const commands = [...state.visit, step.command].slice(-VISIT_COMMANDS);
    out = { ...out, payingVisits: withPayingVisit(out.payingVisits ?? [], { room: from, commands, reward: scoreDelta, lit }) };
  }
  return out;
}

/**
 * Where the player now stands, the moves the room map holds from it that the list does not offer:
 * Zork I's chimney up from the studio, mapped when the player carried little, is no way with the
 * lantern and the sword, and a plan walking there turned back at it for forty turns.
 */
function closedMovesAfter(state: AgentState, learned: LearnedState, step: GameState & { command: string }): Record<string, string[]> {
  const here = String(step.truth.location.id);
  const offered = new Set(step.commands);
  const mapped = Object.keys({ ...learned.roomMap?.[here], ...state.exits[here] });
  const closed = mapped.filter((command) => !offered.has(command));
  if (!closed.length && !state.closedMoves[here]) return state.closedMoves;
  return withNewestEntry(state.closedMoves, here, closed, MAPPED_ROOMS);
}

/** A command that lost carried things (see losses.ts) is remembered with its room. */
function learnedLosses(learned: LearnedState, state: AgentState, step: GameState & { command: string }): LearnedState {
  if (lostThings(state.truth.inventory, step.truth.inventory, step.commands).length === 0) return learned;
  const carried = carriedNames(state);
  if (!placesThings(lossShape(step.command, carried))) return learned;
  return {
    ...learned,
    losingMoves: pushOnce(learned.losingMoves ?? [], lossAt(state.truth.location.id, step.command, carried), LOSING_MOVES),
  };
}

/** What echoesAfter reads of a step: what was on screen and seen before it, and after. */
function echoStep(state: AgentState, step: GameState & { command: string }) {
  const seen = (truth: AgentState['truth']) => ({
    room: truth.location.id,
    carried: carriedNames({ truth }),
    score: truth.score,
  });
  return {
    command: step.command,
    reply: step.observation,
    shown: state.observation,
    before: seen(state.truth),
    after: seen(step.truth),
    died: step.truth.died,
  };
}

/** The state after `step` (the engine's result of running `step.command`, which is what is learned from). */
export function learn(
  state: AgentState,
  config: EpisodeConfig,
  decision: Decision,
  step: GameState & { command: string },
  rng: Rng,
  modules: readonly AnyMemoryModule[] = MEMORY_MODULES,
): AgentState {
  const assist = assistFor(config.assist);
  const command = step.command;
  // A scene's moves (9:05's yes/no questions in the car) change only global variables, so the
  // object tree's hash stays put through the whole scene; the probe tells them apart by the
  // globals they set. Learning from the probe's hash keeps "no, then yes" apart from "yes".
  const scene = state.options.find((option) => option.command === command && option.scene);
  const reached = scene?.resultHash ?? step.worldHash;
  const scoreDelta = step.truth.score - state.truth.score;
  const outcome = { scoreDelta, newState: !visitedSet(state).has(reached), worldChanged: reached !== state.worldHash };
  const beliefsBefore = decision.beliefs;
  const analysis = decision.analysis;
  // A first ever: later episodes return here (see learned.frontier).
  const firstEver =
    !step.truth.died && isFirstEver(cellOf(step.truth), { seen: new Set(state.cells), seenBefore: new Set(state.learned.cells) });
  const reliability = analysis
    ? updateReliability(state.learned.reliability, outcome, {
        actedOnBlocker: decision.reason === 'blocker',
        // The analysis judged the *previous* action's progress: score the claim against what that action did.
        progressClaim: state.lastOutcome ? { claimed: analysis.last_action_made_progress, actual: state.lastOutcome } : null,
        recommendationProbe: decision.recommendationProbe,
        conclusionProbe: decision.conclusionProbe,
        actedOn: decision.reason === 'recommended' ? 'recommendation' : decision.reason === 'thought' ? 'thought' : null,
        ...(assist.judgesHelpByFirsts(state) ? { firstEver } : {}),
      })
    : state.learned.reliability;
  let learned: LearnedState = {
    ...state.learned,
    reliability,
    dynamics: observeDynamics(state.learned.dynamics, state.worldHash, command, reached, scoreDelta),
  };
  if (scoreDelta > 0) learned = rememberReward(learned, state.worldHash, command);
  if (step.truth.died)
    learned = rememberDeath(learned, state.worldHash, placeOf(cellOf(state.truth)), moveAt(state.truth.location.id, command));
  if (state.plansByPlace && assist.plansByPlace) learned = learnedPlaces(learned, state, step, scoreDelta);
  if (state.mindsLosses && assist.shows === 'commands' && !step.truth.died && scoreDelta <= 0)
    learned = learnedLosses(learned, state, step);
  if (state.lightsFirst && saysDark(step.observation))
    learned = { ...learned, darkRooms: pushOnce(learned.darkRooms ?? [], String(step.truth.location.id), LIMITS.darkRooms) };
  const place = placeName(step.truth, state.namesNamelessRooms);
  const newPlace = place !== '' && !state.places.includes(place);
  const key = triedKey(state.worldHash, command);
  const effectMade = state.options.find((option) => option.command === command)?.effect;
  const next: AgentState = {
    ...state,
    turn: state.turn + 1,
    snapshot: step.snapshot,
    truth: step.truth,
    worldHash: reached,
    observation: step.observation,
    options: step.options,
    commands: step.commands,
    lastCommand: command,
    lastOutcome: outcome,
    rngState: rng.state,
    visited: markVisited(state.visited, reached),
    tried: keepNewest({ ...state.tried, [key]: (state.tried[key] ?? 0) + 1 }, LIMITS.tried),
    learned,
    beliefs: withTruth(
      { ...beliefsBefore, actionHistory: pushBounded(beliefsBefore.actionHistory, command, BELIEF_LIMITS.actionHistory) },
      step.truth,
    ),
    llm: {
      calls: state.llm.calls + decision.usage.calls,
      promptTokens: state.llm.promptTokens + decision.usage.promptTokens,
      completionTokens: state.llm.completionTokens + decision.usage.completionTokens,
      fallbackTurns: state.llm.fallbackTurns + (decision.fallback ? 1 : 0),
      ...((decision.model ?? state.llm.model) ? { model: decision.model ?? state.llm.model } : {}),
    },
    cells: pushOnce(state.cells, cellOf(step.truth), LIMITS.cells),
    // The state the find was made from: a later episode returns there and tries what was not tried.
    discovered: firstEver ? pushOnce(state.discovered, shortState(state.worldHash), LIMITS.frontier) : state.discovered,
    closedMoves:
      state.returnsToFrontierRooms && assist.plansByPlace && !step.truth.died ? closedMovesAfter(state, learned, step) : state.closedMoves,
    // The room the find was made in: a later episode walks back there by room (see returns.ts).
    discoveredRooms:
      firstEver && state.returnsToFrontierRooms && assist.plansByPlace
        ? pushOnce(state.discoveredRooms, step.truth.location.id, LIMITS.frontier)
        : state.discoveredRooms,
    done: pushOnce(state.done, `${state.truth.location.id}|${command}`, LIMITS.done),
    made: countMade(state.made, state.truth.location.id, command),
    echoes: state.spendsEchoes && assist.shows === 'commands' ? echoesAfter(state.echoes, echoStep(state, step)) : state.echoes,
    places: newPlace ? [...state.places, place].slice(-LIMITS.places) : state.places,
    stalledTurns: scoreDelta > 0 || newPlace ? 0 : state.stalledTurns + 1,
    nouns: step.nouns ?? [],
    // A command that left the game waiting for a key opened a menu (the menu's own keys do not count).
    menus: step.waitsForKey && !state.waitsForKey ? pushOnce(state.menus, command, LIMITS.menus) : state.menus,
    waitsForKey: step.waitsForKey ?? false,
    effects: effectMade ? pushOnce(state.effects, effectMade, LIMITS.effects) : state.effects,
    typing: state.typing ? typingAfter(state, step) : null,
    lastThoughtboxTurn: decision.thinking ? state.turn : state.lastThoughtboxTurn,
    oracleTurns: state.oracleTurns + (decision.analysis || decision.fallback ? 1 : 0),
    peakScore: Math.max(state.peakScore ?? state.truth.score, step.truth.score),
    enabled: state.followsUp ? enabledBy(state, step) : [],
    lit: state.lightsFirst ? withLit(state.lit, litThing(command, step.observation)) : state.lit,
    toldOfDark: state.toldOfDark || (state.lightsFirst && state.heedsDarkAhead && saysDarkAhead(step.observation)),
    threatenedIn: state.facesDanger ? threatHeld(state.threatenedIn, step.truth.location.id, step.observation) : null,
    arrivedBy: state.facesDanger ? arrivalAfter(state.arrivedBy, state.truth.location.id, step.truth.location.id, command) : null,
    perils: state.mindsPerils ? perilsAfter(state, step.truth.location.id, step.truth.died) : [],
    visit: state.plansByPlace ? visitAfter(state, step) : [],
  };
  const placed = state.plansByPlace && assist.plansByPlace ? { ...next, plansGivenUp: plansGivenUpAfter(next) } : next;
  const explored = assist.mapRooms(afterBreakthrough(placed, state, command), state);
  return { ...explored, memory: observeMemory(explored.memory, turnView(explored, state), modules) };
}
