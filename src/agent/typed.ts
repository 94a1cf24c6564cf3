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
import type { Lexicon } from '../schemas/game';
import { AROUND_EXITS } from './replyReading';
import { type Blocked, OPENING, refusedIn, type Typing } from './typing';

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
