/**
 * Jericho's valid-action method on our engine: build candidate commands from the story's own
 * grammar and dictionary and the objects in scope, try each from the same saved state, keep the
 * ones that change the world (object tree or score) or end the game, and return one command per
 * group of candidates that had the same effect.
 *
 * Some scenes change nothing in the object tree: 9:05 ends in a car where the player answers
 * yes/no questions, and only global variables move. When nothing changes the world, the
 * object-free commands are tried again and kept when they change the globals differently from
 * letting a turn pass ("wait"): those are the scene's moves (see sceneActions.ts).
 */
import { candidateScope, cutLines, otherShapeCommands, singleCandidates, storyVerbsAlone } from './candidates';
import { familiarity } from './grammarTemplates';
import { PairPlan } from './pairs';
import { Rephrasings } from './rephrasings';
import { diffKey, isEmptyDiff, withoutOneWayIgnores, worldDiff, type WorldState } from './objects';
import type { GameSession, VmState } from './session';
import { isEmptyOps, maskedOps, type ObjectOps, opsKey, traceObjectOps } from './objectOps';
import type { ProbePool } from './probePool';
import { appendAll } from './appendAll';
import { groupHits, type ProbeHit, type Prober, type ValidAction } from './effectGroups';
import type { YieldOptions } from './stepsRunner';
import { spellOut } from './wholeWords';
import type { CandidateScope, Template } from './templates';
import { findSceneActions, outcomeOf } from './sceneActions';

export type { ValidAction } from './effectGroups';

/** What a search tried and what it found. */
export interface ValidActionSearch {
  actions: ValidAction[];
  /** Every candidate tried, in order: the first pass, then the pairs. */
  candidates: string[];
}

/**
 * Try every candidate from the current state; return one command per distinct effect. Without a
 * candidate list, the two passes of candidates.ts; with one, exactly those. The session's state is
 * unchanged afterwards.
 */
export function findValidActions(session: GameSession, candidates?: string[], context: SearchContext = {}): ValidAction[] {
  return runSerial(session, candidates ? onePass(candidates) : twoPasses(session, context)).actions;
}

/** What the search may know besides the session: the reply the game gave last (see scope.ts). */
export interface SearchContext {
  reply?: string;
}

/** The two-pass search on this thread (see candidates.ts). */
export function searchValidActions(session: GameSession, context: SearchContext = {}): ValidActionSearch {
  return runSerial(session, twoPasses(session, context));
}

/**
 * The next candidate list to try, given the hits so far; null when the search is done. `reworded`:
 * the commands of the last pass that name an object by a word it shares or a pronoun (see
 * rephrasings.ts), and the "all" commands of an action's other shape ("put all down"), so that
 * none leads a group another command phrased as the candidates phrase things also leads.
 */
type Passes = ((hits: ProbeHit[]) => string[] | null) & { reworded?: ReadonlySet<string> };

function onePass(candidates: string[]): Passes {
  let done = false;
  return () => (done ? null : ((done = true), candidates));
}

/**
 * The candidate lists of the search: the first pass, then (given its hits) the held pairs and the
 * screens, then the screened objects' expansions (see pairs.ts), where all that found few
 * effects the widened pass (see FEW_EFFECTS), then the verbs alone (see storyVerbsAlone) with the
 * screens of the lines cut before their second slot (see cutLines), each cut line whose screen did
 * something on every thing in scope, and last
 * the one-word wordings of what did something, those where the parser's announced guess names the
 * thing of a slot kept tried with every thing there (see rephrasings.ts), and where the record
 * sees the parser's bytes, each group in the words of the other lines of its template, then each
 * other line of a two-object template with each thing in each slot once (only the things that
 * share a phrase, where no group in another line's words was a group of its own). The start
 * state is read before any candidate runs, and again from a restored copy for the widened pass.
 */
function twoPasses(session: GameSession, context: SearchContext): Passes {
  // A game waiting for one key takes each command's first letter: only the menu keys (the scene tier) mean anything.
  if (session.waitsForKey) return onePass([]);
  const start = session.captureState();
  const rephrasings = new Rephrasings(session, candidateScope(session, context.reply));
  const scope = rephrasings.recording();
  const singles = singleCandidates(session, scope);
  const tried = new Set(singles);
  let pass = 0;
  let plan: PairPlan;
  let screened = 0;
  let beforeVariants = 0;
  let beforeOtherLines: number | undefined;
  let cutScreens: Array<{ words: Template['words']; commands: string[] }> = [];
  const reworded = otherShapeCommands(scope);
  const list = (commands: string[]) => {
    for (const command of commands) tried.add(command);
    return commands;
  };
  const next = (hits: ProbeHit[]) => {
    pass++;
    if (pass === 1) return singles;
    if (pass === 2) {
      // Whatever a one-object command moved can be moved: taken, mostly. Not "moved into the
      // player", so that the pairs do not hang on the player object being known.
      const moved = new Set(hits.flatMap((hit) => hit.action.diff.moved.map((m) => m.object)));
      const portable = new Set([...scope.held, ...moved]);
      plan = new PairPlan(scope, portable, singles, moved);
      screened = hits.length;
      return list(plan.first());
    }
    if (pass === 3) {
      const effects = new Map<string, number>();
      for (const hit of hits) effects.set(hit.key, (effects.get(hit.key) ?? 0) + 1);
      const outcomes = hits.slice(screened).map((hit) => ({
        ...hit.action,
        movedOnTheWay: hit.moved,
        touched: hit.touched,
        sharedEffect: effects.get(hit.key)! > 1,
      }));
      return list(plan.second(outcomes));
    }
    if (pass === 4) {
      if (new Set(hits.map((hit) => hit.key)).size < FEW_EFFECTS) return widened(session, start, context, tried);
      pass++;
    }
    if (pass === 5) {
      cutScreens = cutLines(scope.templates).map((words) => ({
        words,
        commands: cutScreenObjects(scope).map((o) => scope.fill(words, [o])),
      }));
      return list([...storyVerbsAlone(session), ...cutScreens.flatMap((screen) => screen.commands)].filter((c) => !tried.has(c)));
    }
    // Each cut line whose screen did something, on every thing in scope.
    if (pass === 6) {
      const hit = new Set(hits.map((h) => h.action.command));
      const cut = cutScreens.filter((screen) => screen.commands.some((c) => hit.has(c)));
      return list([...new Set(cut.flatMap(({ words }) => scope.objects.map((o) => scope.fill(words, [o]))))].filter((c) => !tried.has(c)));
    }
    if (pass === 7) {
      const groups = [...groupHits(hits).values()].map((g) => [g.command, ...g.equivalents]);
      beforeVariants = hits.length;
      const variants = rephrasings.variants(groups, tried, whatThePlayerReads(session, start, context.reply));
      for (const command of variants) reworded.add(command);
      return list(variants);
    }
    if (pass === 8) {
      const touched = new Map(hits.slice(0, beforeVariants).map((hit) => [hit.action.command, hit.touched]));
      const variantHits = hits.slice(beforeVariants).sort((a, b) => a.index - b.index);
      const spread = rephrasings.spread(
        variantHits.map((hit) => ({ command: hit.action.command, touched: hit.touched })),
        (command) => touched.get(command),
        tried,
      );
      for (const command of spread) reworded.add(command);
      return list(spread);
    }
    // Only where the record sees the parser's own bytes (watched ones changed) can another line's words be another group.
    if (pass === 9 && hits.some((hit) => hit.action.diff.watched?.length)) {
      const groups = [...groupHits(hits).values()].map((g) => [g.command, ...g.equivalents]);
      const lines = rephrasings.otherLines(groups, tried);
      for (const command of lines) reworded.add(command);
      beforeOtherLines = hits.length;
      return list(lines);
    }
    // Every thing, where a group in another line's words was a group of its own (the parser keeps
    // the line it matched); else only the things whose phrase another shares (the parser picks one).
    if (pass === 10 && beforeOtherLines !== undefined) {
      const known = new Set(hits.slice(0, beforeOtherLines).map((hit) => hit.key));
      const lineKept = hits.slice(beforeOtherLines).some((hit) => !known.has(hit.key));
      const screens = rephrasings.otherLineScreens(tried, lineKept ? undefined : rephrasings.sharedPhraseThings());
      if (!screens.length) return null;
      for (const command of screens) reworded.add(command);
      return list(screens);
    }
    return null;
  };
  return Object.assign(next, { reworded });
}

/** The things a cut line is screened with: the first thing held and the first not held. */
function cutScreenObjects(scope: CandidateScope): number[] {
  const held = scope.objects.find((o) => scope.held.has(o));
  const loose = scope.objects.find((o) => !scope.held.has(o));
  return [held, loose].filter((o): o is number => o !== undefined);
}

/**
 * The last reply, and what "look" and "inventory" say at the start state (where the session is
 * left): the text whose pronouns the last pass tries.
 */
function whatThePlayerReads(session: GameSession, start: VmState, reply = ''): string {
  session.restoreState(start);
  return [reply, ...['look', 'inventory'].map((command) => session.replyOrFault(command) ?? '')].join('\n');
}

/**
 * Below this many distinct effects the search is widened to every global the parser finds from
 * anywhere: in the dark an Infocom room's description names nothing ("It is pitch black"), so
 * Hitchhiker's "turn on light" went untried while getting back into bed and the door were all
 * there was to do.
 */
export const FEW_EFFECTS = 4;

/**
 * The one-object commands on every global not tried yet, read from the start state. The session is
 * left there: every candidate runs from the start state anyway, and the last one tried may have
 * ended the game (a state that cannot be restored).
 */
function widened(session: GameSession, start: VmState, context: SearchContext, tried: Set<string>): string[] {
  session.restoreState(start);
  return singleCandidates(session, candidateScope(session, context.reply, true)).filter((c) => !tried.has(c));
}

function runSerial(session: GameSession, passes: Passes): ValidActionSearch {
  const search = serialSearch(session, passes);
  for (let step = search.next(); ; step = search.next()) if (step.done) return step.value;
}

/**
 * The same search for callers that must keep their event loop: an activity heartbeats (`onYield`,
 * every `yieldEveryMs`) while it probes, so a worker that dies mid-probe is noticed in seconds.
 * With a pool (and enough candidates) each pass is tried on its threads; otherwise here, giving
 * the event loop back between candidates. The session must not be used by anything else until
 * it resolves.
 */
export async function findValidActionsYielding(session: GameSession, options: YieldingOptions = {}): Promise<ValidAction[]> {
  return (await searchValidActionsYielding(session, options)).actions;
}

export interface YieldingOptions extends SearchContext, YieldOptions {
  pool?: ProbePool;
}

export async function searchValidActionsYielding(session: GameSession, options: YieldingOptions = {}): Promise<ValidActionSearch> {
  const every = options.yieldEveryMs ?? 250;
  const start = session.captureState();
  const passes = twoPasses(session, options);
  const timer = setInterval(() => options.onYield?.(), every);
  try {
    const hits: ProbeHit[] = [];
    const tried: string[] = [];
    for (let list = passes(hits); list; list = passes(hits)) {
      if (options.pool?.worthIt(list.length)) {
        let probe: Prober | undefined;
        const here = (indices: number[]) => probeHere((probe ??= candidateProber(session, start)), list, 0, every, indices);
        appendAll(hits, await options.pool.probeHits(session, list, tried.length, start, here));
      } else appendAll(hits, await probeHere(candidateProber(session, start), list, tried.length, every));
      appendAll(tried, list);
    }
    return { actions: finishSearch(session, start, groupHits(hits), passes.reworded), candidates: tried };
  } finally {
    clearInterval(timer);
    session.restoreState(start);
  }
}

/** One pass (or the candidates at `indices` of it) on this thread, giving the event loop back every `every` ms. */
async function probeHere(probe: Prober, list: string[], offset: number, every: number, indices?: number[]): Promise<ProbeHit[]> {
  const hits: ProbeHit[] = [];
  let since = performance.now();
  const count = indices ? indices.length : list.length;
  for (let k = 0; k < count; k++) {
    const i = indices ? indices[k] : k;
    const hit = probe(list[i], offset + i);
    if (hit) hits.push(hit);
    if (performance.now() - since >= every) {
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
  return hits;
}

/**
 * Tries single candidates from one state: restore, run, compare. Used by the serial search below
 * and by each thread of a ProbePool, so both judge effects the same way.
 */
export function candidateProber(session: GameSession, start: VmState = session.captureState()): Prober {
  session.restoreState(start);
  const before = session.effectState();
  const beforeBytes = Buffer.from(session.objects.entryBytes(session.mem));
  const beforeHash = session.worldHashAfter(before);
  const opsOf = (command: string): ObjectOps | null => {
    session.restoreState(start);
    try {
      return maskedOps(traceObjectOps(session.mem, () => session.tryCommand(command)).ops, session.mask);
    } catch {
      // A candidate that crashes, loops or quits the game is simply not a valid action.
      return null;
    }
  };
  const passing = passingTurnOps(session, opsOf);
  // A turn that only passes is one move, as in Jericho, whose effect test sees a clock's
  // operations: "wait" where a clock runs. Its result is the same for every command with the
  // wait's operations, so it is read once.
  let passedTurn: Omit<ProbeHit, 'index'> | undefined;
  const passingHit = (command: string, index: number, ops: ObjectOps, untouched: boolean): ProbeHit => {
    if (!passedTurn) {
      const found = effectHit(command, index, ops, untouched);
      passedTurn = { ...found, action: { ...found.action, passesTime: true } };
    }
    return { ...passedTurn, index, action: { ...passedTurn.action, command } };
  };
  /**
   * A command that did nothing: the passing turn when its operations are the wait's; "look" itself
   * when a look's operations are its own (Ballyhoo's look moves the player out and back, which
   * Jericho's record counts); else no action.
   */
  const idleHit = (command: string, index: number, ops: ObjectOps, untouched: boolean, key: string): ProbeHit | null => {
    if (key === passing.wait) return passingHit(command, index, ops, untouched);
    return key === passing.look && command === 'look' ? effectHit(command, index, ops, untouched) : null;
  };
  // `untouched`: the world is as it was (sameWorld, score, watched bytes), so it is not read again:
  // most candidates that do something do it only to what the mask leaves out.
  const effectHit = (command: string, index: number, ops: ObjectOps, untouched: boolean): ProbeHit => {
    const after = untouched ? before : session.effectState();
    const diff = withoutOneWayIgnores(worldDiff(before, after), session.mask);
    const scoreDelta = after.score - before.score;
    const endsGame = session.isDone && !start.flags.done;
    const unchanged = isEmptyDiff(diff) && scoreDelta === 0 && !endsGame;
    // The net change and the operations that made it: Jericho's grouping, refined by the net change.
    const effect = `${diffKey(diff)}#${opsKey(ops)}#${scoreDelta}#${endsGame}`;
    return {
      index,
      key: effect,
      moved: [...new Set(ops.moves.filter((_, k) => k % 2 === 0))],
      touched: [...ops.moves, ...ops.sets, ...ops.clears].filter((_, k) => k % 2 === 0),
      action: {
        command,
        equivalents: [],
        diff,
        scoreDelta,
        endsGame,
        resultHash: untouched ? beforeHash : session.worldHashAfter(after),
        outcome: outcomeOf(session),
        resultCell: session.cell(),
        effect,
        ...(unchanged ? { noNetChange: true as const } : {}),
      },
    };
  };
  return (command, index) => {
    const ops = opsOf(command);
    if (!ops) return null;
    const key = opsKey(ops);
    // Most candidates change nothing, or only what the mask leaves out (a daemon's object, a
    // scratch attribute): skip building the world state then; the answer would be the same.
    const untouched =
      session.score === before.score &&
      !session.isDone &&
      session.objects.sameWorld(session.mem, beforeBytes, session.mask) &&
      watchedUnchanged(session, before);
    // Operations of a turn in which nothing happens: unless the world changed, the command did
    // nothing, or, with the wait's, let a turn pass.
    const idle = isEmptyOps(ops) || key === passing.wait || key === passing.look;
    if (untouched && idle) return idleHit(command, index, ops, untouched, key);
    const found = effectHit(command, index, ops, untouched);
    return idle && found.action.noNetChange ? idleHit(command, index, ops, untouched, key) : found;
  };
}

/**
 * The object operations of turns in which nothing happens ("look", "wait"): the game's own clocks
 * and daemons (a flag cleared every turn whether or not it was set). A command whose operations
 * are one of these and that changes nothing did nothing, but for the wait's: that lets a turn
 * pass. "wait" alone is not enough to tell: Zork's passes three turns.
 */
function passingTurnOps(session: GameSession, opsOf: (command: string) => ObjectOps | null): { wait?: string; look?: string } {
  const keys: { wait?: string; look?: string } = {};
  for (const command of ['look', 'wait'] as const) {
    const ops = session.dictionary.has(command) ? opsOf(command) : null;
    if (ops && !isEmptyOps(ops)) keys[command] = opsKey(ops);
  }
  return keys;
}

/**
 * What the search returns once the candidates are tried: the scene tier when nothing changed the
 * world, and each group shown by its most familiar phrasing (the rest stay listed as equivalents),
 * the groups that change something first, the passing turn ("wait") among the last. Leaves the
 * session in `start`.
 */
export function finishSearch(
  session: GameSession,
  start: VmState,
  groups: Map<string, ValidAction>,
  reworded: ReadonlySet<string> = new Set(),
): ValidAction[] {
  try {
    if ([...groups.values()].every((g) => g.noNetChange)) {
      session.restoreState(start);
      findSceneActions(session, start, session.effectState(), groups);
    }
  } finally {
    session.restoreState(start);
  }
  // The passing turn is offered as "wait" or not at all: its other members ("east" into a wall,
  // "wake") would read as moves that do something.
  const kept = [...groups.values()].filter((g) => !g.passesTime || g.command === 'wait' || g.equivalents.includes('wait'));
  const ordered = kept.filter((g) => !g.noNetChange).concat(kept.filter((g) => g.noNetChange));
  // A verb alone ("open") names a group only when nothing in it names the thing ("open kitchen
  // window"); a word shared with other objects ("open small") only when nothing names it better.
  const alone = new Set(storyVerbsAlone(session));
  const resolution = session.dictionary.resolution;
  return ordered.map((g) => {
    const all = [g.command, ...g.equivalents];
    const phrased = all.filter((c) => !alone.has(c) && !reworded.has(c));
    const named = phrased.length ? phrased : all.filter((c) => !alone.has(c));
    const best = g.passesTime ? 'wait' : (named.length ? named : all).reduce((a, b) => (familiarity(b) < familiarity(a) ? b : a));
    // Shown with the dictionary's cut words spelled out ("inflate", not "inflat"): read the same.
    const command = spellOut(best, resolution);
    const equivalents = [...new Set(all.filter((c) => c !== best).map((c) => spellOut(c, resolution)))].filter((c) => c !== command);
    return { ...g, command, equivalents };
  });
}

/** The search as a generator that pauses after each candidate, so callers choose when to yield. */
function* serialSearch(session: GameSession, passes: Passes): Generator<void, ValidActionSearch, void> {
  const start = session.captureState();
  const hits: ProbeHit[] = [];
  const tried: string[] = [];
  try {
    const probe = candidateProber(session, start);
    const run = function* (list: string[]) {
      for (const command of list) {
        yield;
        const hit = probe(command, tried.length);
        tried.push(command);
        if (hit) hits.push(hit);
      }
    };
    for (let list = passes(hits); list; list = passes(hits)) yield* run(list);
  } catch (err) {
    session.restoreState(start);
    throw err;
  }
  return { actions: finishSearch(session, start, groupHits(hits), passes.reworded), candidates: tried };
}

function watchedUnchanged(session: GameSession, before: WorldState): boolean {
  const addrs = session.mask.watchRam ?? [];
  for (let i = 0; i < addrs.length; i++) if (session.mem[addrs[i]] !== before.watched[i]) return false;
  return true;
}
