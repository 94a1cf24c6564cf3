/**
 * Jericho's valid-action method on our engine: build candidate commands from the story's own
 * grammar and dictionary and the objects in scope, try each from the same saved state, keep the
 * ones that change the world (object tree or score) or end the game, and return one command per
 * group of candidates that had the same effect.
 *
 * Some scenes change nothing in the object tree: 9:05 ends in a car where the player answers
 * yes/no questions, and only global variables move. When nothing changes the world, the
 * object-free commands are tried again and kept when they change the globals differently from
 * letting a turn pass ("wait"): those are the scene's moves.
 */
import { createHash } from 'node:crypto';
import type { Grammar, GrammarLine, Token } from './grammar';
import { diffKey, isEmptyDiff, WorldDiff, worldDiff, worldHash } from './objects';
import type { GameSession, VmState } from './session';
import { cellOf } from '../schemas/game';
import { nounPhrases } from './vocabulary';
import type { ProbePool } from './probePool';

export interface ValidAction {
  command: string;
  /** Other candidates that had exactly the same effect. */
  equivalents: string[];
  diff: WorldDiff;
  scoreDelta: number;
  endsGame: boolean;
  /** World hash after the command. */
  resultHash: string;
  outcome: 'continue' | 'died' | 'won' | 'ended';
  /** The Go-Explore cell the command leads to (see cellOf). */
  resultCell: string;
  /** A scene's move (see findSceneActions): its resultHash also covers the globals it set. */
  scene?: true;
}

export interface CandidateOptions {
  /** Depth of the location's object tree searched for things in scope. */
  scopeDepth?: number;
  /** Upper bound on candidates tried per state; the order is deterministic, so a cap is too. */
  maxCandidates?: number;
}

/**
 * A display preference only: when several dictionary words name the same verb, show the most
 * familiar. Candidate generation never depends on this list.
 */
const FAMILIAR_VERBS = [
  'north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest', 'up', 'down', 'in', 'out',
  'take', 'put', 'drop', 'open', 'close', 'examine', 'look', 'read', 'go', 'enter', 'exit', 'climb', 'turn', 'push', 'pull',
  'move', 'give', 'show', 'ask', 'tell', 'unlock', 'lock', 'attack', 'kill', 'eat', 'drink', 'wear', 'remove', 'light',
  'extinguish', 'search', 'tie', 'untie', 'fill', 'pour', 'throw', 'wave', 'dig', 'break', 'insert', 'wait', 'inventory',
  'listen', 'smell', 'touch', 'jump', 'pray', 'say', 'wake', 'kiss', 'buy', 'sit', 'stand', 'get', 'lie', 'sleep',
];

function preferredVerb(line: GrammarLine, resolution: number): string {
  for (const v of FAMILIAR_VERBS) {
    const stored = v.slice(0, resolution);
    if (line.synonyms.includes(stored)) return v;
  }
  // Otherwise the shortest whole (untruncated) word of three letters or more, else the first.
  const whole = line.synonyms.filter((w) => w.length >= 3 && w.length < resolution).sort((a, b) => a.length - b.length || a.localeCompare(b));
  return whole[0] ?? line.verb;
}

const slots = (tokens: Token[]) => tokens.filter((t) => t.kind === 'object' || t.kind === 'topic');

export interface Template {
  words: Array<string | Token>;
  /** Per object slot: must the object be in the inventory? */
  held: boolean[];
  /**
   * The phrasing for "all" in the first slot, when a line of this action takes several objects
   * there (Inform's multi tokens, ZIL's MANY): this template's own line when it does, else the
   * best other one ("take off all" where "remove" takes one).
   */
  allWords?: Array<string | Token>;
}

function verbRank(verb: string): number {
  const i = FAMILIAR_VERBS.indexOf(verb);
  return i < 0 ? FAMILIAR_VERBS.length : i;
}

/**
 * Templates worth trying: fillable, not meta, and one per (action, number of objects). Lines that
 * share an action and object count call the same action routine on the same objects, whatever
 * their verb or prepositions, so trying one of them is enough; the most familiar phrasing wins.
 */
export function templates(grammar: Grammar, resolution: number): Template[] {
  const best = new Map<string, { line: GrammarLine; verb: string; score: number }>();
  const bestMulti = new Map<string, { line: GrammarLine; verb: string; score: number }>();
  const order: string[] = [];
  for (const line of grammar.lines) {
    if (line.meta || line.tokens.some((t) => t.kind === 'unfillable')) continue;
    const objectSlots = slots(line.tokens);
    if (objectSlots.length > 2) continue;
    const key = `${line.action}/${objectSlots.length}`;
    const verb = preferredVerb(line, resolution);
    // Prefer familiar verbs; then "give X to Y" over "give Y X", and "open X" over "open up X".
    const hasWord = line.tokens.some((t) => t.kind === 'word');
    const awkward = objectSlots.length === 2 ? !hasWord : hasWord && objectSlots.length === 1;
    const score = verbRank(verb) + (awkward ? 1000 : 0);
    const current = best.get(key);
    if (!current) order.push(key);
    if (!current || score < current.score) best.set(key, { line, verb, score });
    const first = objectSlots[0];
    const currentMulti = bestMulti.get(key);
    if (first?.kind === 'object' && first.multi && (!currentMulti || score < currentMulti.score)) bestMulti.set(key, { line, verb, score });
  }
  const wordsOf = (line: GrammarLine, verb: string): Array<string | Token> => [verb, ...line.tokens.map((t) => (t.kind === 'word' ? t.text : t))];
  return order.map((key) => {
    const { line, verb } = best.get(key)!;
    // When the chosen line takes several objects it is also the best such line, so allWords is its own phrasing.
    const multiLine = bestMulti.get(key);
    return {
      words: wordsOf(line, verb),
      held: slots(line.tokens).map((t) => t.kind === 'object' && t.held),
      ...(multiLine ? { allWords: wordsOf(multiLine.line, multiLine.verb) } : {}),
    };
  });
}

/**
 * Infocom rooms list their "local globals" (a house seen from outside, a window, a forest) in a
 * property whose bytes are objects that all live under one container other than the rooms'
 * own parent. Those are in scope in the room without being in its subtree.
 */
function localGlobals(session: GameSession, room: number): number[] {
  const { objects, mem } = session;
  if (session.story.inform || session.story.version > 3) return [];
  const roomParent = objects.parent(mem, room);
  for (const { data } of objects.properties(mem, room)) {
    const ids = Array.from(data).filter((b) => b !== 0);
    if (ids.length === 0 || ids.some((b) => b > objects.count)) continue;
    const parent = objects.parent(mem, ids[0]);
    if (parent === 0 || parent === roomParent || ids.some((b) => objects.parent(mem, b) !== parent)) continue;
    return ids;
  }
  return [];
}

/** Objects the player can plausibly refer to, in tree order: the location's contents, its local globals, then inventory. */
export function scopeObjects(session: GameSession, depth = 3): { all: number[]; held: number[] } {
  const room = session.locationId;
  const player = session.player;
  const held = player ? session.objects.descendants(session.mem, player, 2) : [];
  const around = room ? [...session.objects.descendants(session.mem, room, depth), ...localGlobals(session, room)] : [];
  const seen = new Set<number>();
  const all: number[] = [];
  for (const id of [...around, ...held]) {
    if (id === player || id === room || seen.has(id)) continue;
    seen.add(id);
    all.push(id);
  }
  return { all, held: held.filter((id) => id !== player) };
}

/**
 * Directions, the grammar's object-free commands ("wait", "sleep"...), and "yes"/"no" when the
 * dictionary has them: a yes-or-no question is read by a library routine, outside the grammar.
 */
export function sceneCandidates(session: GameSession): string[] {
  const out = new Set<string>(session.grammar.directions);
  for (const answer of ['yes', 'no']) if (session.dictionary.has(answer)) out.add(answer);
  for (const t of templates(session.grammar, session.dictionary.resolution)) {
    if (t.held.length === 0) out.add(t.words.join(' '));
  }
  return [...out];
}

/** Candidate commands for the current state, deterministic in order and content. */
export function candidateCommands(session: GameSession, options: CandidateOptions = {}): string[] {
  const grammar = session.grammar;
  const resolution = session.dictionary.resolution;
  const scope = scopeObjects(session, options.scopeDepth ?? 3);
  const phrase = nounPhrases(session, scope.all);
  const objects = scope.all.filter((id) => phrase.has(id));
  const heldSet = new Set(scope.held);
  const parentOf = (id: number) => session.objects.parent(session.mem, id);
  const out: string[] = [];
  const seen = new Set<string>();
  const push = (c: string) => {
    if (!seen.has(c)) {
      seen.add(c);
      out.push(c);
    }
  };

  for (const d of grammar.directions) push(d);
  for (const t of templates(grammar, resolution)) {
    const nSlots = t.held.length;
    // A slot the grammar says must be held is filled from the inventory in two-object commands.
    // On its own it also takes what lies around: the parser picks it up first ("wear watch"
    // with the watch on the floor).
    const pools = t.held.map((mustHold) => (mustHold && nSlots > 1 ? objects.filter((o) => heldSet.has(o)) : objects));
    // "all" stands for an object in a slot that takes several ("take all", "put all in the box").
    const ALL = 0;
    const fill = (chosen: number[], words = t.words) => {
      let k = 0;
      const text = words.map((w) => (typeof w === 'string' ? w : chosen[k] === ALL ? (k++, 'all') : phrase.get(chosen[k++])!)).join(' ');
      push(text);
    };
    if (nSlots === 0) fill([]);
    else if (nSlots === 1) {
      for (const a of pools[0]) fill([a]);
      if (t.allWords) fill([ALL], t.allWords);
    } else {
      // Two-object commands act on something the player carries (the thing put, given or thrown,
      // or the tool used) or take one thing out of another ("take the key from the box"); other
      // pairs of objects that are both out of hand are not tried.
      for (const a of pools[0]) for (const b of pools[1]) if (a !== b && (heldSet.has(a) || heldSet.has(b) || parentOf(a) === b)) fill([a, b]);
      if (t.allWords) for (const b of pools[1]) fill([ALL, b], t.allWords);
    }
  }
  return options.maxCandidates ? out.slice(0, options.maxCandidates) : out;
}

/** Try every candidate from the current state; return one command per distinct effect. The session's state is unchanged afterwards. */
export function findValidActions(session: GameSession, candidates: string[] = candidateCommands(session)): ValidAction[] {
  const search = validActionSearch(session, candidates);
  for (let step = search.next(); ; step = search.next()) if (step.done) return step.value;
}

/**
 * The same search for callers that must keep their event loop: an activity heartbeats (`onYield`,
 * every `yieldEveryMs`) while it probes, so a worker that dies mid-probe is noticed in seconds.
 * With a pool (and enough candidates) the candidates are tried on its threads; otherwise here,
 * giving the event loop back between candidates. The session must not be used by anything else
 * until it resolves.
 */
export async function findValidActionsYielding(session: GameSession, options: { yieldEveryMs?: number; onYield?: () => void; pool?: ProbePool } = {}): Promise<ValidAction[]> {
  const every = options.yieldEveryMs ?? 250;
  const candidates = candidateCommands(session);
  if (options.pool?.worthIt(candidates.length)) {
    const start = session.captureState();
    const timer = setInterval(() => options.onYield?.(), every);
    try {
      return finishSearch(session, start, await options.pool.probe(session, candidates));
    } finally {
      clearInterval(timer);
    }
  }
  const search = validActionSearch(session, candidates);
  let since = performance.now();
  for (let step = search.next(); ; step = search.next()) {
    if (step.done) return step.value;
    if (performance.now() - since >= every) {
      options.onYield?.();
      await new Promise((resolve) => setImmediate(resolve));
      since = performance.now();
    }
  }
}

/** One candidate that changed the world, with its place in the candidate list. */
export interface ProbeHit {
  index: number;
  /** Equal keys mean equal effects. */
  key: string;
  action: ValidAction;
}

/**
 * Tries single candidates from one state: restore, run, compare. Used by the serial search below
 * and by each thread of a ProbePool, so both judge effects the same way.
 */
export function candidateProber(session: GameSession, start: VmState = session.captureState()): (command: string, index: number) => ProbeHit | null {
  session.restoreState(start);
  const before = session.worldState();
  const beforeBytes = Buffer.from(session.objects.entryBytes(session.mem));
  return (command, index) => {
    session.restoreState(start);
    try {
      session.tryCommand(command);
    } catch {
      // A candidate that crashes, loops or quits the game is simply not a valid action.
      return null;
    }
    // Most candidates change nothing: skip building the world state when no object byte moved.
    if (beforeBytes.equals(session.objects.entryBytes(session.mem)) && session.score === before.score && !session.isDone && watchedUnchanged(session, before)) return null;
    const after = session.worldState();
    const diff = worldDiff(before, after);
    const scoreDelta = after.score - before.score;
    const endsGame = session.isDone && !start.flags.done;
    if (isEmptyDiff(diff) && scoreDelta === 0 && !endsGame) return null;
    return {
      index,
      key: `${diffKey(diff)}#${scoreDelta}#${endsGame}`,
      action: { command, equivalents: [], diff, scoreDelta, endsGame, resultHash: worldHash(after), outcome: outcomeOf(session), resultCell: cellOf(session.groundTruth()) },
    };
  };
}

/** Hits grouped by effect, each group led by its earliest candidate; the order does not depend on how the hits were found. */
export function groupHits(hits: ProbeHit[]): Map<string, ValidAction> {
  const groups = new Map<string, ValidAction>();
  for (const hit of [...hits].sort((a, b) => a.index - b.index)) {
    const group = groups.get(hit.key);
    if (group) group.equivalents.push(hit.action.command);
    else groups.set(hit.key, { ...hit.action, equivalents: [] });
  }
  return groups;
}

/**
 * What the search returns once the candidates are tried: the scene tier when nothing changed the
 * world, and each group shown by its most familiar phrasing (the rest stay listed as equivalents).
 * Leaves the session in `start`.
 */
export function finishSearch(session: GameSession, start: VmState, groups: Map<string, ValidAction>): ValidAction[] {
  try {
    if (groups.size === 0) {
      session.restoreState(start);
      findSceneActions(session, start, session.worldState(), groups);
    }
  } finally {
    session.restoreState(start);
  }
  return [...groups.values()].map((g) => {
    const all = [g.command, ...g.equivalents];
    const best = all.reduce((a, b) => (familiarity(b) < familiarity(a) ? b : a));
    return { ...g, command: best, equivalents: all.filter((c) => c !== best) };
  });
}

/** The search as a generator that pauses after each candidate, so callers choose when to yield. */
function* validActionSearch(session: GameSession, candidates: string[]): Generator<void, ValidAction[], void> {
  const start = session.captureState();
  const hits: ProbeHit[] = [];
  try {
    const probe = candidateProber(session, start);
    for (let i = 0; i < candidates.length; i++) {
      yield;
      const hit = probe(candidates[i], i);
      if (hit) hits.push(hit);
    }
  } catch (err) {
    session.restoreState(start);
    throw err;
  }
  return finishSearch(session, start, groupHits(hits));
}

function watchedUnchanged(session: GameSession, before: ReturnType<GameSession['worldState']>): boolean {
  const addrs = session.mask.watchRam ?? [];
  for (let i = 0; i < addrs.length; i++) if (session.mem[addrs[i]] !== before.watched[i]) return false;
  return true;
}

/** How a probed command left the game. */
function outcomeOf(session: GameSession): ValidAction['outcome'] {
  const t = session.groundTruth();
  return t.died ? 'died' : t.victory ? 'won' : session.isOver ? 'ended' : 'continue';
}

/** The 240 global variables (480 bytes), copied. */
const globalsOf = (session: GameSession) => Buffer.from(session.mem.subarray(session.story.globals, session.story.globals + 480));

function globalsAfter(session: GameSession, start: ReturnType<GameSession['captureState']>, command: string): Buffer | null {
  session.restoreState(start);
  try {
    session.tryCommand(command);
  } catch {
    return null;
  }
  return globalsOf(session);
}

/** The scene tier (see the header): object-free commands whose effect on the globals differs from a passing turn's. */
function findSceneActions(session: GameSession, start: ReturnType<GameSession['captureState']>, before: ReturnType<GameSession['worldState']>, groups: Map<string, ValidAction>): void {
  session.restoreState(start);
  const untouched = globalsOf(session);
  const waited = globalsAfter(session, start, 'wait') ?? untouched;
  for (const command of sceneCandidates(session)) {
    const after = globalsAfter(session, start, command);
    if (!after) continue;
    const endsGame = session.isDone && !start.flags.done;
    const key = `${after.toString('hex')}#${endsGame}`;
    if (!endsGame && (after.equals(untouched) || after.equals(waited))) continue;
    const group = groups.get(key);
    if (group) {
      group.equivalents.push(command);
      continue;
    }
    const world = session.worldState();
    // Told apart from the unchanged world by the globals they set, so a scene's moves read as new states.
    const resultHash = createHash('md5').update(worldHash(world)).update(after).digest('hex');
    groups.set(key, { command, equivalents: [], diff: worldDiff(before, world), scoreDelta: world.score - before.score, endsGame, resultHash, outcome: outcomeOf(session), resultCell: cellOf(session.groundTruth()), scene: true });
  }
}

function familiarity(command: string): number {
  const verb = command.split(' ')[0];
  const rank = FAMILIAR_VERBS.indexOf(verb);
  return (rank < 0 ? FAMILIAR_VERBS.length : rank) * 1000 + command.length;
}
