/**
 * What the `none` explorer carries through an episode (`Typing`): the story's lexicon and its
 * shapes' worth, the nouns and exits replies named by room, and what the parser refused, struck or
 * answered alike, read from each reply (see replyReading.ts) as the episode goes.
 */
import { z } from 'zod';
import { Lexicon, LexiconSchema, ShapeWorth, ShapeWorthSchema } from '../schemas/game';
import { OPPOSITE } from './directions';
import { idleAfter, IdleTriesSchema } from './idleTyped';
import { withNewestEntry } from './newest';
import {
  ambiguousWords,
  askedFirst,
  DARK,
  listedNouns,
  menuChoices,
  namedDirections,
  refusedWords,
  saysNotAVerb,
  saysUnknownWord,
  wholeExits,
} from './replyReading';

/** A reply saying a thing stops the move ("the door is closed", "...is in the way"), not that there is no way. */
const IN_THE_WAY = /\b(?:is|are) (?:closed|locked|shut|barred|blocked)\b|\bin the way\b|\bnailed shut\b/;
/** The shapes that clear a way: tried first on the things named in the reply to a move that went nowhere. */
export const OPENING = ['open $', 'unlock $'];

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
