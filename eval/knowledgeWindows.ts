/**
 * The deterministic half of `npm run eval:knowledge` (no LLM): the recorded turn windows, the
 * snapshot an IMPL item is checked from, and the specificity test.
 *
 * Windows are rebuilt from the real engine on every run: a fixed Zork I command list (the bench
 * route through the house, cellar, gallery, attic and troll room, then a continuation that kills
 * the troll, walks into the dark with the lamp off until a grue eats the player, climbs the tree
 * for the egg and brings it to the trophy case) played with a fixed seed, turned into the
 * `TurnView`s a memory module sees and cut into `extendWindow` windows of `every` turns — the
 * same windows the knowledge module would send to `updateKnowledge`.
 */
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { ZORK_ROUTE } from '../bench/routes';
import { GameSession } from '../src/engine/session';
import { objectNouns } from '../src/engine/vocabulary';
import type { KnowledgeItem, TurnWindow, VerifyRequest } from '../src/memory/knowledge/schema';
import { emptyWindow, extendWindow, shouldUpdateAt, UpdateDecision } from '../src/memory/knowledge/window';
import type { TurnView } from '../src/memory/module';

export const ZORK1 = resolve(__dirname, '..', '..', 'shared', 'games', 'zork1.z3');

/**
 * After ZORK_ROUTE (which ends attacking the troll): two more blows kill the troll (seed 1), the
 * lamp goes off in the East-West Passage, and the next move in the dark Round Room is a grue's
 * meal; the game resurrects the player in the forest, where the tree on the Forest Path holds the
 * jewelled egg that ends in the trophy case.
 */
export const KNOWLEDGE_CONTINUATION = [
  'attack troll with knife',
  'attack troll with knife',
  'take axe',
  'east',
  'turn off lamp',
  'east',
  'north',
  'east',
  'climb tree',
  'take egg',
  'down',
  'south',
  'east',
  'enter house',
  'west',
  'take sword',
  'put egg in case',
  'examine case',
  'inventory',
  'take lamp',
];
export const KNOWLEDGE_ROUTE: readonly string[] = [...ZORK_ROUTE, ...KNOWLEDGE_CONTINUATION];
export const KNOWLEDGE_SEED = 1;
/** Turns per window (the knowledge module's `--knowledge-every` default). */
export const WINDOW_TURNS = 10;

/** The game as it was before a turn (index t = after turn t; index 0 = the start). */
export interface RecordedState {
  turn: number;
  location: string;
  snapshot: string;
}

export interface RecordedWindow {
  index: number;
  window: TurnWindow;
  /** The last window of the recording (the seed's final update). */
  final: boolean;
  /** The seed-000 heuristic gate on this window (with the final override on the last one). */
  gate: UpdateDecision;
  /** Rooms the engine had seen by the window's end: the room names an item may be tied to. */
  rooms: string[];
  /** The states from the window's start to its end: the snapshot before each of its turns, and after its last. */
  states: RecordedState[];
}

export interface Recording {
  story: string;
  storyMd5: string;
  seed: number;
  commands: readonly string[];
  views: TurnView[];
  states: RecordedState[];
  windows: RecordedWindow[];
}

const base64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');

/** The story file, or an error that says where it is expected and how to get it. */
export function requireZork(path: string = ZORK1): string {
  if (!existsSync(path)) {
    throw new Error(
      `eval:knowledge needs Zork I at ${path} (see ../shared/games/README.md): the turn windows are played in the real engine.`,
    );
  }
  return path;
}

/** Play `commands` from a fresh game and cut the turns into windows of `every` turns. */
export function recordWindows(story: string, options: { commands?: readonly string[]; seed?: number; every?: number } = {}): Recording {
  const commands = options.commands ?? KNOWLEDGE_ROUTE;
  const seed = options.seed ?? KNOWLEDGE_SEED;
  const every = options.every ?? WINDOW_TURNS;
  const session = GameSession.fromFile(story, { seed });
  const states: RecordedState[] = [{ turn: 0, location: session.groundTruth().location.name, snapshot: base64(session.snapshot()) }];
  const views: TurnView[] = [];
  let before = session.groundTruth();
  for (const [i, command] of commands.entries()) {
    const turn = i + 1;
    const step = session.step(command);
    const { observation, command: ran, ...truth } = step;
    const snapshot = base64(session.snapshot());
    views.push({
      turn,
      command: ran,
      before,
      truth,
      observation,
      worldHash: session.worldHash(),
      snapshot,
      storyMd5: session.story.md5,
      goal: '',
      ending: turn === commands.length,
    });
    states.push({ turn, location: truth.location.name, snapshot });
    before = truth;
  }

  const windows: RecordedWindow[] = [];
  const seen: string[] = [];
  let window = emptyWindow(1);
  for (const view of views) {
    window = extendWindow(window, view);
    for (const room of [view.before?.location.name, view.truth.location.name]) if (room && !seen.includes(room)) seen.push(room);
    const complete = view.turn - window.startTurn + 1 >= every || view.ending;
    if (!complete || !window.actions.length) continue;
    windows.push({
      index: windows.length,
      window,
      final: view.ending,
      gate: shouldUpdateAt(window, view.ending),
      rooms: [...seen],
      states: states.slice(window.startTurn - 1, window.endTurn + 1),
    });
    window = emptyWindow(view.turn + 1);
  }
  return { story, storyMd5: session.story.md5, seed, commands, views, states, windows };
}

/** Where an item is checked from: the first state of the window in its room, else the window's start. */
export function snapshotFor(window: RecordedWindow, room: string | null): RecordedState {
  const wanted = room?.trim().toLowerCase();
  return (wanted && window.states.find((s) => s.location.toLowerCase() === wanted)) || window.states[0];
}

/** The `verifyKnowledge` checks of the IMPL items that have a verification, each from the snapshot of its room. */
export function checksFor(items: readonly KnowledgeItem[], window: RecordedWindow): VerifyRequest['checks'] {
  return items
    .filter((item) => item.layer === 'IMPL' && item.verification)
    .map((item) => ({ id: item.id, snapshot: snapshotFor(window, item.room).snapshot, verification: item.verification! }));
}

// ── specificity: does an item name a real object or room of the story? ─────────────────────

/**
 * Words that name nothing in particular: the Infocom pseudo-objects every room shares (you, it,
 * the ground, your hands, the air, the walls), directions, and words any advice uses ("room",
 * "door", "path", "treasure"). A name made only of these, or one of these alone, is not a name.
 */
const GENERIC = new Set(
  (
    'you me myself self cretin adventurer player it them her him random object objects item items thing things such number pseudo intnum zzmgck ' +
    'ground floor dirt wall walls surrounding granite pair hands hand air blast lungs mouth breath teeth overboard set blessings graces sailor zorkmid ' +
    'north south east west northeast northwest southeast southwest up down in out ' +
    'room rooms area place places way path paths trail passage passages door doors exit exits stairs steps staircase stairway ' +
    'treasure treasures tool tools piece pile heap group body light dark darkness game small large big huge little old man person head cover container liquid quantity advent adventure'
  ).split(' '),
);
const ARTICLES = /^(the|a|an|some)\s+/;

/** Lower case, every run of non-letters and non-digits one space: phrases compare word by word. */
export const normalized = (text: string) =>
  ` ${text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()} `;

export interface StoryNames {
  /** Object and room names as the object table prints them (lower case, no leading article). */
  phrases: string[];
  /** The objects' vocabulary words (Infocom's SYNONYM, Inform's name), as the dictionary stores them. */
  nouns: string[];
  /** Every word of the printed names: what a truncated noun ("lanter") may stand for ("lantern"). */
  nameWords: string[];
  /** Letters the dictionary keeps per word: a noun that long may be the start of a longer word. */
  resolution: number;
}

/** Every name in the story's object table, with the objects' vocabulary, minus the generic words. */
export function storyNames(session: GameSession): StoryNames {
  const resolution = session.dictionary.resolution;
  const generic = (w: string) => GENERIC.has(w) || (w.length >= resolution && [...GENERIC].some((g) => g.startsWith(w)));
  const phrases = new Set<string>();
  const nouns = new Set<string>();
  const nameWords = new Set<string>();
  for (let id = 1; id <= session.objects.count; id++) {
    const name = session.objects.name(session.mem, id).toLowerCase().trim().replace(ARTICLES, '');
    const words = normalized(name).trim().split(' ').filter(Boolean);
    if (words.some((w) => w.length >= 3 && !GENERIC.has(w))) phrases.add(words.join(' '));
    for (const w of words) if (w.length >= 3) nameWords.add(w);
    for (const noun of objectNouns(session, id)) {
      const w = noun.toLowerCase().replace(/[^a-z0-9]/g, '');
      if (w.length >= 3 && !generic(w)) nouns.add(w);
    }
  }
  return { phrases: [...phrases].sort(), nouns: [...nouns].sort(), nameWords: [...nameWords].sort(), resolution };
}

/**
 * The story's names found in `text`: a whole object or room name as a phrase ("trophy case",
 * "living room"), or an object's noun as a word ("rug", "lamp", plurals too). A noun the
 * dictionary truncated ("lanter") matches the longer word only when a printed name has that word
 * ("lantern"), so "contai" (the bottle's "container") does not match "contains".
 */
export function namesIn(text: string, names: StoryNames): string[] {
  const haystack = normalized(text);
  const tokens = [
    ...new Set(
      haystack
        .trim()
        .split(' ')
        .filter((t) => t && !GENERIC.has(t)),
    ),
  ];
  const nameWords = new Set(names.nameWords);
  const found = names.phrases.filter((p) => haystack.includes(` ${p} `));
  for (const noun of names.nouns) {
    const truncated = noun.length >= names.resolution;
    if (tokens.some((t) => t === noun || t === `${noun}s` || t === `${noun}es` || (truncated && t.startsWith(noun) && nameWords.has(t))))
      found.push(noun);
  }
  return [...new Set(found)];
}

/** The item's text or keywords name a real object or room of the story. */
export function isSpecific(item: Pick<KnowledgeItem, 'text' | 'keywords'>, names: StoryNames): boolean {
  return namesIn([item.text, ...item.keywords].join(' . '), names).length > 0;
}

/** The share of items that name a real object or room (0 for no items). */
export function specificity(items: readonly Pick<KnowledgeItem, 'text' | 'keywords'>[], names: StoryNames): number {
  return items.length ? items.filter((i) => isSpecific(i, names)).length / items.length : 0;
}
