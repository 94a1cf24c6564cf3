/**
 * The commands a player types without the valid-action list (the `none` assist), and the order
 * they are tried in. They are built from the story's own movement words and grammar (the lexicon
 * the engine reads from the story file at the start) and the nouns its replies name (the words of
 * a reply its dictionary knows as nouns): every command shape of the grammar on the things named
 * where the player stands and the things carried, and the two-object shapes (put, unlock, give X
 * ... Y) with a carried thing first. They are ranked by how often each shape made progress (a
 * score, a new room, a new item) across other games (the prior, see verbPrior.ts), and the parser's
 * refusals ("You can't see any such thing", "I don't know the word") strike nouns out.
 */
import { z } from 'zod';
import { Lexicon, LexiconSchema, ShapeWorth, ShapeWorthSchema } from '../schemas/game';
import { idleAfter, IdleTriesSchema } from './idleTyped';
import { OPPOSITE } from './directions';
import { withNewestEntry } from './newest';
import {
  ambiguousWords,
  AROUND_EXITS,
  DARK,
  askedFirst,
  listedNouns,
  menuChoices,
  namedDirections,
  refusedWords,
  saysNotAVerb,
  saysUnknownWord,
  wholeExits,
} from './replyReading';

/** A command with the shape it was built from and how promising that shape is. */
export interface TypedCommand {
  command: string;
  /** The prior's key: the template ("open $", "put $ in $"), or the direction. */
  shape: string;
  worth: number;
  /** A move made here before, to make again now that what blocked it was opened. */
  again?: true;
  /** The way back out of the dark: made however often it was made from here before. */
  flee?: true;
  /** Taking a thing the room's replies listed apart from the description (see listedNouns). */
  listed?: true;
}

/** What the typed commands are built from. */
export interface TypedContext {
  lexicon: Lexicon;
  /** Nouns the last reply named. */
  replyNouns: readonly string[];
  /** Nouns earlier replies named in this room. */
  roomNouns: readonly string[];
  /** What the player carries, as the game names it. */
  carried: readonly string[];
  /** Words the parser refused here (see refusedWords). */
  refused: ReadonlySet<string>;
  /** The prior's worth of each shape (see verbPrior.ts); shapes it lacks are worth `unknownWorth`. */
  worth: Readonly<Record<string, number>>;
  unknownWorth: number;
  /**
   * The room's exits its replies named ("a path leads southwest"), how many commands were made
   * here, what blocked the last move (see blockedAfter) and the way back out of the dark (see
   * DARK): absent in runs started before the explorer read them (the order is then as before).
   */
  exits?: {
    named: readonly string[];
    madeHere: number;
    blocked?: Blocked;
    retreat?: string;
    listed?: readonly string[];
    struck?: readonly string[];
    menu?: readonly string[];
    asked?: string;
    /** A command refused here until something was done first, now that it is done (see deferredAfter). */
    deferred?: string;
    /** Words the parser said are not verbs when typed first (see UNKNOWN_VERB): no move or shape starts with them. */
    unknownVerbs?: readonly string[];
    /** Commands naming nothing that were answered alike twice (see idleTyped.ts): not typed again. */
    struckIdle?: readonly string[];
    /** Every way out of the room, where a reply said which they all are (see wholeExits). */
    whole?: readonly string[];
    /** Moves that went nowhere here which the last reply named since (see renamedAfter): made again. */
    renamed?: readonly string[];
  };
}

/** A thing named in the last reply is more likely in reach than one named earlier in the room. */
const STALE_NOUN = 0.7;
/** A direction the reply names ("a path leads north") is more likely an exit. */
const NAMED_DIRECTION = 2;
/** Where a reply said which ways out a room has, the directions it did not name come after everything else there. */
const UNLISTED_DIRECTION = 0.02;
/** An exit the room's replies named is tried before anything else there: it leads somewhere. */
const NAMED_EXIT = 1;
/**
 * Each command made in a room makes what is left there less promising, so after a handful the
 * explorer walks on (a room's first commands are its best; a room has many more than 100 steps'
 * worth of shapes, and the dead end's seventieth is worth less than the next room's first).
 */
const FATIGUE = 0.85;
/** A reply saying a thing stops the move ("the door is closed", "...is in the way"), not that there is no way. */
const IN_THE_WAY = /\b(?:is|are) (?:closed|locked|shut|barred|blocked)\b|\bin the way\b|\bnailed shut\b/;
/**
 * A thing the room's replies list apart ("There is a small mailbox here.") is taken before the
 * named exits are walked: what a game lists beside the room's description is what it means to be
 * picked up or used, where the nouns of the description itself are mostly scenery.
 */
const TAKE_LISTED = NAMED_EXIT + 0.5;
/** A menu's choices (see menuChoices) come before anything else. */
const MENU = 4 * NAMED_EXIT;
/** What a reply said to do first (see askedFirst) comes next, but for a menu. */
const ASKED = 3.5 * NAMED_EXIT;
/** Then the command that reply refused: what stood in its way is done. */
const DEFERRED = 3.25 * NAMED_EXIT;
/** A move that went nowhere here, named by a later reply ("It come from northeast"): the story points that way now. */
const RENAMED = 2.75 * NAMED_EXIT;
/** The shapes a thing is picked up with, the first the story's grammar has. */
const TAKING = ['take $', 'get $', 'pick up $'];
/** What is tried, in this order, on a listed thing that was not taken ("It is securely anchored."): the mailbox opened, the tree looked at. */
const LOOKING = ['open $', 'examine $'];
/** The shapes that clear a way: tried first on the things named in the reply to a move that went nowhere. */
const OPENING = ['open $', 'unlock $'];
/** Two-object shapes are filled with at most this many carried things and room things. */
const MAX_CARRIED = 4;
const MAX_TARGETS = 8;

/** The noun a player would type for a carried thing: the last word of its name ("brass lantern" → lantern). */
export function carriedNoun(name: string): string | null {
  const words = name.toLowerCase().match(/[a-z][a-z-]*[a-z]/g);
  return words?.length ? words[words.length - 1] : null;
}

/** Every typed command worth considering here, most promising first. */
export function typedCommands(ctx: TypedContext): TypedCommand[] {
  const worthOf = (shape: string) => ctx.worth[shape] ?? ctx.unknownWorth;
  const out = new Map<string, TypedCommand>();
  const add = (command: string, shape: string, factor: number) => {
    const worth = worthOf(shape) * factor;
    const known = out.get(command);
    if (!known || known.worth < worth) out.set(command, { command, shape, worth });
  };
  const reply = ` ${ctx.replyNouns.join(' ')} `;
  const exits = ctx.exits;
  if (exits) {
    /** A command ranked by what the room said, whatever its shape's worth. */
    const pin = (command: string, shape: string, worth: number, mark: Pick<TypedCommand, 'again' | 'flee' | 'listed'> = {}) =>
      out.set(command, { command, shape, worth, ...mark });
    const tired = FATIGUE ** exits.madeHere;
    // A menu on screen takes a number, whatever else the room holds: its choices in order, each
    // made again once the world has changed (the talk went on), then the way out.
    exits.menu?.forEach((choice, index) => pin(choice, choice, MENU - 0.1 * index, { again: true }));
    // "You should get out of bed first": what the game says to do comes next.
    if (exits.asked) pin(exits.asked, exits.asked, ASKED, { again: true });
    for (const listed of listedCommands(ctx, exits.listed ?? [])) pin(listed.command, listed.shape, listed.worth, { listed: true });
    const unknownVerbs = new Set(exits.unknownVerbs ?? []);
    const whole = exits.whole ?? [];
    const unlisted = (direction: string) => whole.length > 0 && !whole.includes(direction) && !AROUND_EXITS.has(direction);
    for (const direction of ctx.lexicon.directions)
      if (unknownVerbs.has(direction)) continue;
      else if (exits.named.includes(direction)) pin(direction, direction, NAMED_EXIT + worthOf(direction));
      else add(direction, direction, unlisted(direction) ? tired * UNLISTED_DIRECTION : tired);
    // Decided once per shape, not for each of the commands filled from it.
    const struck = new Set([...(exits.struck ?? []), ...(exits.struckIdle ?? [])]);
    const untypable = new Set(ctx.lexicon.templates.filter((shape) => struck.has(shape) || unknownVerbs.has(shape.split(' ')[0])));
    addShapes(ctx, (command, shape, factor) => untypable.has(shape) || add(command, shape, factor), tired);
    // Walked into the dark: back the way it came before anything else (a grue waits in Zork I's dark).
    if (exits.retreat) pin(exits.retreat, exits.retreat, 3 * NAMED_EXIT, { flee: true });
    // "You can't, since the door is in the way": what stopped a move is opened next, as a player
    // would, and once something was opened the move is made again.
    const blocked = exits.blocked;
    if (blocked?.opened) pin(blocked.move, blocked.move, 2 * NAMED_EXIT, { again: true });
    for (const noun of blocked?.by ?? [])
      for (const shape of OPENING)
        if (ctx.lexicon.templates.includes(shape) && !ctx.refused.has(noun))
          pin(shape.replace('$', noun), shape, NAMED_EXIT + worthOf(shape));
    for (const direction of exits.renamed ?? []) if (!unknownVerbs.has(direction)) pin(direction, direction, RENAMED, { again: true });
    // Last, so that no other ranking of the same command (a named exit's) takes its mark away.
    if (exits.deferred) pin(exits.deferred, exits.deferred, DEFERRED, { again: true });
    return [...out.values()].sort((a, b) => b.worth - a.worth);
  }
  // Directions are nouns too in some stories (Inform's compass objects): a reply naming one names an exit.
  for (const direction of ctx.lexicon.directions) add(direction, direction, reply.includes(` ${direction} `) ? NAMED_DIRECTION : 1);
  addShapes(ctx, add, 1);
  return [...out.values()].sort((a, b) => b.worth - a.worth);
}

/** The commands on the things listed here (see TAKE_LISTED, LOOKING), but those carried. */
function listedCommands(ctx: TypedContext, listed: readonly string[]): Array<Omit<TypedCommand, 'listed'>> {
  const taking = TAKING.find((shape) => ctx.lexicon.templates.includes(shape));
  if (!taking) return [];
  const carried = new Set(ctx.carried.map(carriedNoun));
  const looking = LOOKING.filter((shape) => ctx.lexicon.templates.includes(shape));
  return listed
    .filter((noun) => !ctx.refused.has(noun) && !carried.has(noun) && !ctx.lexicon.directions.includes(noun))
    .flatMap((noun) =>
      [taking, ...looking].map((shape, index) => ({ command: shape.replace('$', noun), shape, worth: TAKE_LISTED - 0.1 * index })),
    );
}

/** Every shape of the grammar filled with the nouns in reach, each worth its shape's worth times `factor` (and the noun's). */
function addShapes(ctx: TypedContext, add: (command: string, shape: string, factor: number) => void, factor: number) {
  const directions = new Set(ctx.lexicon.directions);
  const usable = (noun: string) => !ctx.refused.has(noun) && !directions.has(noun);
  const fresh = ctx.replyNouns.filter(usable);
  const stale = ctx.roomNouns.filter((noun) => usable(noun) && !fresh.includes(noun));
  const carried = [...new Set(ctx.carried.map(carriedNoun).filter((noun): noun is string => noun !== null && usable(noun)))];
  const things: Array<[string, number]> = [
    ...fresh.map((noun): [string, number] => [noun, 1]),
    ...stale.map((noun): [string, number] => [noun, STALE_NOUN]),
    ...carried.filter((noun) => !fresh.includes(noun) && !stale.includes(noun)).map((noun): [string, number] => [noun, 1]),
  ];
  const targets = [...fresh, ...stale].slice(0, MAX_TARGETS);
  for (const shape of ctx.lexicon.templates) {
    const slots = shape.split(' ').filter((word) => word === '$').length;
    if (slots === 0) add(shape, shape, factor);
    else if (slots === 1) for (const [noun, nounFactor] of things) add(shape.replace('$', noun), shape, factor * nounFactor);
    else if (slots === 2)
      for (const item of carried.slice(0, MAX_CARRIED))
        for (const target of targets) if (target !== item) add(shape.replace('$', item).replace('$', target), shape, factor);
  }
}

const BlockedSchema = z.object({ move: z.string(), by: z.array(z.string()), opened: z.boolean() });
export type Blocked = z.infer<typeof BlockedSchema>;
const DeferredSchema = z.object({ command: z.string(), room: z.number().int(), asked: z.string(), done: z.boolean() });
export type Deferred = z.infer<typeof DeferredSchema>;

/** What the `none` explorer carries through an episode: the story's lexicon, its shapes' worth, the nouns met. */
export const TypingSchema = z.object({
  lexicon: LexiconSchema,
  ...ShapeWorthSchema.shape,
  /** Room id -> nouns replies named there, newest rooms last. */
  roomNouns: z.record(z.string(), z.array(z.string())),
  /** `room|word` for a noun not in reach in that room, `*|word` for a word the parser does not know. */
  refused: z.array(z.string()),
  /** Room id -> every way out a reply said the room has (see wholeExits), the latest such reply's; absent in states from before they were kept. */
  roomWholeExits: z.record(z.string(), z.array(z.string())).optional(),
  /** Room id -> directions replies named there (see namedDirections); absent in states carried from before they were kept. */
  roomExits: z.record(z.string(), z.array(z.string())).optional(),
  /** The last move that went nowhere here, the things its reply named (the door in the way), and whether one was opened since. */
  blocked: BlockedSchema.nullable().optional(),
  /** The move back out of the dark the last move led into (see DARK), until another move is made. */
  retreat: z.string().nullable().optional(),
  /** Rooms a move led into the dark: no room to come back to for its untried commands (newest last). */
  darkRooms: z.array(z.number().int()).optional(),
  /** Room id -> things replies listed there apart from the description (see listedNouns); absent in states from before they were kept. */
  roomListed: z.record(z.string(), z.array(z.string())).optional(),
  /** Shape -> the last reply a command of it had that gained nothing, its words of the command masked (see learnTyping). */
  shapeReplies: z.record(z.string(), z.string()).optional(),
  /** Shapes the parser refused alike on two things (see learnTyping): not tried again this episode. */
  struckShapes: z.array(z.string()).optional(),
  /** The numbers the last reply offered as a menu's choices ("[1] Ask about the job"; see menuChoices), "0" last when it offered a way out. */
  menu: z.array(z.string()).optional(),
  /** What the last reply said to do first ("You should get out of bed first." → "get out of bed"; see askedFirst). */
  asked: z.string().nullable().optional(),
  /** First words of commands the parser said are not verbs (see UNKNOWN_VERB), wherever typed; absent in states from before they were kept. */
  unknownVerbs: z.array(z.string()).optional(),
  /** `room|word` for a word of a command the parser asked which of several things was meant by (see ambiguousWords); absent in states from before they were kept. */
  ambiguous: z.array(z.string()).optional(),
  /** Commands naming nothing, not moves: their last replies and those answered alike twice (see idleTyped.ts); absent in states from before they were kept. */
  idle: IdleTriesSchema.optional(),
  /** The command a reply refused until `asked` was done, where it was made, and whether `asked` has been done since. */
  deferred: DeferredSchema.nullable().optional(),
  /** `room|direction` for each move that went nowhere there (see renamedAfter); absent in states from before they were kept. */
  nowhere: z.array(z.string()).optional(),
  /** Moves that went nowhere where the player stands and that the last reply named (see renamedAfter). */
  renamed: z.array(z.string()).optional(),
  /** `room|direction` for each such move made again there: once each (see renamedAfter). */
  retriedNamed: z.array(z.string()).optional(),
});
export type Typing = z.infer<typeof TypingSchema>;

const LIMITS = { rooms: 24, nounsPerRoom: 24, refused: 200, struck: 200, shapeReplies: 64 } as const;

/** The words refused in `room` (`ambiguous`: and the words the parser asked which of several was meant; see ambiguousWords). */
export function refusedIn(typing: Typing, room: number, ambiguous = false): Set<string> {
  const out = new Set<string>();
  for (const entry of [...typing.refused, ...(ambiguous ? (typing.ambiguous ?? []) : [])]) {
    const bar = entry.indexOf('|');
    const where = entry.slice(0, bar);
    if (where === '*' || where === String(room)) out.add(entry.slice(bar + 1));
  }
  return out;
}

/** What a step teaches: the nouns its reply named where the player now is, and the words the parser refused. */
export function learnTyping(
  typing: Typing,
  step: { from: number; to: number; command: string; reply: string; nouns: readonly string[]; known: readonly string[] },
  tried?: { shape: string; gained: boolean },
): Typing {
  const key = String(step.to);
  const before = typing.roomNouns[key] ?? [];
  const merged = [...step.nouns, ...before.filter((noun) => !step.nouns.includes(noun))].slice(0, LIMITS.nounsPerRoom);
  const roomNouns = withRoomEntry(typing.roomNouns, key, merged);
  const lower = step.reply.toLowerCase();
  const asked = askedFirst(step.reply);
  const unknown = saysUnknownWord(lower);
  const intoDark = step.from !== step.to && DARK.test(lower);
  const refused = refusedWords(step.command, step.reply, step.known).map((word) => `${unknown ? '*' : step.from}|${word}`);
  const fresh = refused.filter((entry) => !typing.refused.includes(entry));
  const named = namedDirections(step.reply, typing.lexicon.directions);
  return {
    ...typing,
    roomNouns,
    refused: fresh.length ? [...typing.refused, ...fresh].slice(-LIMITS.refused) : typing.refused,
    roomExits: withRoomWords(typing.roomExits ?? {}, key, named),
    roomWholeExits: withWholeExits(typing.roomWholeExits ?? {}, key, wholeExits(step.reply, typing.lexicon.directions)),
    roomListed: withRoomWords(typing.roomListed ?? {}, key, listedNouns(step.reply, step.nouns)),
    blocked: blockedAfter(typing, step, lower),
    retreat: intoDark ? wayBack(typing.lexicon.directions, step.command) : null,
    darkRooms: intoDark ? withRoom(typing.darkRooms ?? [], step.to) : (typing.darkRooms ?? []),
    // A reply refusing the thing ("You can't see any such thing.") says nothing of the verb.
    ...(tried && refused.length === 0 ? refusalsAfter(typing, tried, step.command, lower) : {}),
    menu: menuChoices(step.reply),
    asked,
    deferred: deferredAfter(typing.deferred ?? null, step, asked),
    unknownVerbs: withEntries(typing.unknownVerbs ?? [], saysNotAVerb(lower) ? firstWord(step.command) : []),
    ambiguous: withEntries(
      typing.ambiguous ?? [],
      ambiguousWords(step.command, lower, step.known).map((word) => `${step.from}|${word}`),
    ),
    ...(tried ? { idle: idleAfter(typing.idle, { ...tried, command: step.command, reply: step.reply }, typing.lexicon.directions) } : {}),
    ...renamedAfter(typing, step, named),
  };
}

/**
 * Lost Pig's forest "look dark" to the northeast until, some turns on, a noise "come from
 * northeast": a move that went nowhere in a room is made again there, once, when a later reply
 * names its direction as the player stands there (not the move's own reply, and not on entering
 * the room, whose description names its exits every time).
 */
function renamedAfter(
  typing: Typing,
  step: { from: number; to: number; command: string },
  named: readonly string[],
): Pick<Typing, 'nowhere' | 'renamed' | 'retriedNamed'> {
  const command = step.command.trim().toLowerCase();
  const move = typing.lexicon.directions.includes(command);
  const nowhere = withEntries(typing.nowhere ?? [], move && step.from === step.to ? [`${step.from}|${command}`] : []);
  const retriedNamed = withEntries(typing.retriedNamed ?? [], typing.renamed?.includes(command) ? [`${step.from}|${command}`] : []);
  const renamed =
    step.from === step.to
      ? named.filter(
          (direction) =>
            direction !== command && nowhere.includes(`${step.to}|${direction}`) && !retriedNamed.includes(`${step.to}|${direction}`),
        )
      : [];
  return { nowhere, renamed, retriedNamed };
}

/** `entries` with `added` appended once each, the newest kept. */
function withEntries(entries: readonly string[], added: readonly string[]): string[] {
  const fresh = added.filter((entry) => !entries.includes(entry));
  return fresh.length ? [...entries, ...fresh].slice(-LIMITS.refused) : [...entries];
}

/** The first word of `command`, lower-case, as a list of one (none for an empty command). */
function firstWord(command: string): string[] {
  const verb = command.trim().toLowerCase().split(/\s+/)[0];
  return verb ? [verb] : [];
}

/**
 * "South" answered "You'll have to get out of bed first.": once "get out of bed" is made, "south"
 * is worth making again in that room, as a player would; it is kept until it is made again or
 * another reply asks for something first. `asked`: what the step's reply asked (see askedFirst).
 */
function deferredAfter(deferred: Deferred | null, step: { from: number; command: string }, asked: string | null): Deferred | null {
  if (asked && asked !== step.command) return { command: step.command, room: step.from, asked, done: false };
  if (!deferred) return null;
  if (step.command === deferred.asked) return { ...deferred, done: true };
  return deferred.done && step.command === deferred.command ? null : deferred;
}

/**
 * A shape whose commands on two things got the same reply, the things aside, and gained nothing
 * ("That isn't a vehicle." to "drive dresser", then to "drive watch") is the verb refused, not
 * the thing: it is struck for the episode, where the prior would have it tried on every noun.
 */
function refusalsAfter(typing: Typing, tried: { shape: string; gained: boolean }, command: string, reply: string) {
  const replies = typing.shapeReplies ?? {};
  const struck = typing.struckShapes ?? [];
  if (tried.gained || !tried.shape.includes('$')) return { shapeReplies: replies, struckShapes: struck };
  const words = new Set(command.split(/\s+/));
  const masked = reply
    .replace(/[a-z][a-z-]*/g, (word) => (words.has(word) ? '$' : word))
    .trim()
    .slice(0, 120);
  if (replies[tried.shape] === masked && !struck.includes(tried.shape))
    return { shapeReplies: replies, struckShapes: [...struck, tried.shape].slice(-LIMITS.struck) };
  // The newest last, the oldest dropped: the carried state stays small however long the episode.
  const { [tried.shape]: _, ...others } = replies;
  const kept = Object.keys(others).slice(-(LIMITS.shapeReplies - 1));
  return {
    shapeReplies: { ...Object.fromEntries(kept.map((shape) => [shape, others[shape]])), [tried.shape]: masked },
    struckShapes: struck,
  };
}

/** The move opposite `move`, when it is a direction the story knows and so is its opposite. */
function wayBack(directions: readonly string[], move: string): string | null {
  const back = directions.includes(move) ? OPPOSITE[move] : undefined;
  return back && directions.includes(back) ? back : null;
}

function withRoom(rooms: readonly number[], room: number): number[] {
  return rooms.includes(room) ? [...rooms] : [...rooms, room].slice(-LIMITS.rooms);
}

/** What stands in the way after `step`: a move that went nowhere and what its reply named, kept until the next move or a change of room. */
function blockedAfter(
  typing: Typing,
  step: { from: number; to: number; command: string; nouns: readonly string[] },
  reply: string,
): Blocked | null {
  const directions = typing.lexicon.directions;
  if (step.from !== step.to) return null;
  if (directions.includes(step.command)) {
    const by = IN_THE_WAY.test(reply) ? step.nouns.filter((noun) => !directions.includes(noun)) : [];
    return by.length && !typing.blocked?.opened ? { move: step.command, by, opened: false } : null;
  }
  const blocked = typing.blocked ?? null;
  const opening = blocked && OPENING.some((shape) => blocked.by.some((noun) => shape.replace('$', noun) === step.command));
  return blocked && opening ? { ...blocked, opened: true } : blocked;
}

/** `byRoom` with `room`'s entry set to `value`, at most LIMITS.rooms rooms kept (see newest.ts). */
const withRoomEntry = <T>(byRoom: Record<string, T>, room: string, value: T) => withNewestEntry(byRoom, room, value, LIMITS.rooms);

/** `byRoom` with `room`'s ways out replaced by `exits` when a reply gave them. */
function withWholeExits(byRoom: Record<string, string[]>, room: string, exits: readonly string[]): Record<string, string[]> {
  return exits.length === 0 ? byRoom : withRoomEntry(byRoom, room, [...exits]);
}

/** `byRoom` with `words` added to `room`'s. */
function withRoomWords(byRoom: Record<string, string[]>, room: string, words: readonly string[]): Record<string, string[]> {
  const before = byRoom[room] ?? [];
  const added = words.filter((word) => !before.includes(word));
  if (added.length === 0) return byRoom;
  return withRoomEntry(byRoom, room, [...before, ...added].slice(-LIMITS.nounsPerRoom));
}

/** The typing a game starts with: the nouns and the exits its first reply names. */
export function startTyping(lexicon: Lexicon, worth: ShapeWorth, room: number, observation: string, nouns: readonly string[]): Typing {
  return {
    lexicon,
    ...worth,
    roomNouns: { [room]: [...nouns] },
    refused: [],
    roomExits: { [room]: namedDirections(observation, lexicon.directions) },
    roomWholeExits: { [room]: wholeExits(observation, lexicon.directions) },
    roomListed: { [room]: listedNouns(observation, nouns) },
  };
}

/** The patches a run plays with that change what the `none` explorer reads of a room (see typedContext). */
export const READING_FLAGS = [
  'fleesDark',
  'takesListed',
  'strikesShapes',
  'answersMenus',
  'doesAsked',
  'retriesAsked',
  'strikesUnknownVerbs',
  'strikesIdle',
  'strikesAmbiguous',
  'readsWholeExits',
  'retriesNamed',
] as const;

/** What the `none` explorer reads of a room: how many commands were made in it so far, and the patches a run plays with. */
export type Reading = { madeHere: number } & Partial<Record<(typeof READING_FLAGS)[number], boolean>>;

/**
 * The typed commands' context where the player stands. `reading` is given when the explorer reads
 * the room's named exits (see AgentState.readsExits), with how many commands were made here so far.
 */
export function typedContext(
  typing: Typing,
  replyNouns: readonly string[],
  room: number,
  carried: readonly string[],
  reading?: Reading,
): TypedContext {
  return {
    ...(reading
      ? {
          exits: {
            named: typing.roomExits?.[String(room)] ?? [],
            madeHere: reading.madeHere,
            blocked: typing.blocked ?? undefined,
            retreat: (reading.fleesDark && typing.retreat) || undefined,
            ...(reading.takesListed ? { listed: typing.roomListed?.[String(room)] ?? [] } : {}),
            ...(reading.strikesShapes ? { struck: typing.struckShapes ?? [] } : {}),
            ...(reading.answersMenus ? { menu: typing.menu ?? [] } : {}),
            ...(reading.doesAsked && typing.asked ? { asked: typing.asked } : {}),
            ...(reading.strikesUnknownVerbs ? { unknownVerbs: typing.unknownVerbs ?? [] } : {}),
            ...(reading.strikesIdle ? { struckIdle: typing.idle?.struck ?? [] } : {}),
            ...(reading.readsWholeExits ? { whole: typing.roomWholeExits?.[String(room)] ?? [] } : {}),
            ...(reading.retriesNamed ? { renamed: typing.renamed ?? [] } : {}),
            ...(reading.retriesAsked && typing.deferred?.done && typing.deferred.room === room
              ? { deferred: typing.deferred.command }
              : {}),
          },
        }
      : {}),
    lexicon: typing.lexicon,
    replyNouns,
    roomNouns: typing.roomNouns[String(room)] ?? [],
    carried,
    refused: refusedIn(typing, room, reading?.strikesAmbiguous),
    worth: typing.worth,
    unknownWorth: typing.unknownWorth,
  };
}

/** The nouns a command here may have used: the last reply's, the room's, and the carried things'. */
export function nounsInReach(ctx: TypedContext): string[] {
  const carried = ctx.carried.map(carriedNoun).filter((noun): noun is string => noun !== null);
  return [...new Set([...ctx.replyNouns, ...ctx.roomNouns, ...carried])];
}
