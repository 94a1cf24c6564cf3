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
import { Lexicon, LexiconSchema, ShapeWorthSchema } from '../schemas/game';

/** A command with the shape it was built from and how promising that shape is. */
export interface TypedCommand {
  command: string;
  /** The prior's key: the template ("open $", "put $ in $"), or the direction. */
  shape: string;
  worth: number;
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
}

/** A thing named in the last reply is more likely in reach than one named earlier in the room. */
const STALE_NOUN = 0.7;
/** A direction the reply names ("a path leads north") is more likely an exit. */
const NAMED_DIRECTION = 2;
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
  // Directions are nouns too in some stories (Inform's compass objects): a reply naming one names an exit.
  for (const direction of ctx.lexicon.directions) add(direction, direction, reply.includes(` ${direction} `) ? NAMED_DIRECTION : 1);
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
    if (slots === 0) add(shape, shape, 1);
    else if (slots === 1) for (const [noun, factor] of things) add(shape.replace('$', noun), shape, factor);
    else if (slots === 2)
      for (const item of carried.slice(0, MAX_CARRIED))
        for (const target of targets) if (target !== item) add(shape.replace('$', item).replace('$', target), shape, 1);
  }
  return [...out.values()].sort((a, b) => b.worth - a.worth);
}

const UNKNOWN_WORD = [
  /don't know the word "?([a-z-]+)/,
  /(?:doesn't|does not|didn't) (?:know|recogni[sz]e) the word "?([a-z-]+)/,
  /the word "?([a-z-]+)"? (?:isn't|is not) (?:one I|in my)/,
];
const NOT_IN_REACH = [
  /can't see any(?: such thing|thing like that| ([a-z-]+))/,
  /(?:you )?(?:don't|do not|can't|cannot) see (?:any|that|the|a|an)\b/,
  /(?:there is|there's|i see) no\b/,
  /(?:isn't|is not|aren't|are not) (?:here|available)/,
  /no such thing/,
  /(?:nothing|not) (?:like that|by that name)/,
];

/**
 * The words of `command` the parser's `reply` refused: the word it names as unknown, or every
 * noun of the command when it says no such thing is in reach. Empty when the reply refuses nothing.
 */
export function refusedWords(command: string, reply: string, nouns: readonly string[]): string[] {
  const text = reply.toLowerCase();
  for (const pattern of UNKNOWN_WORD) {
    const match = text.match(pattern);
    if (match) return [match[1]];
  }
  if (!NOT_IN_REACH.some((pattern) => pattern.test(text))) return [];
  const words = command.toLowerCase().split(/\s+/);
  return nouns.filter((noun) => words.includes(noun));
}

/** What the `none` explorer carries through an episode: the story's lexicon, its shapes' worth, the nouns met. */
export const TypingSchema = z.object({
  lexicon: LexiconSchema,
  ...ShapeWorthSchema.shape,
  /** Room id -> nouns replies named there, newest rooms last. */
  roomNouns: z.record(z.string(), z.array(z.string())),
  /** `room|word` for a noun not in reach in that room, `*|word` for a word the parser does not know. */
  refused: z.array(z.string()),
});
export type Typing = z.infer<typeof TypingSchema>;

const LIMITS = { rooms: 24, nounsPerRoom: 24, refused: 200 } as const;

/** The words refused in `room`. */
export function refusedIn(typing: Typing, room: number): Set<string> {
  const out = new Set<string>();
  for (const entry of typing.refused) {
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
): Typing {
  const key = String(step.to);
  const { [key]: before = [], ...others } = typing.roomNouns;
  const merged = [...step.nouns, ...before.filter((noun) => !step.nouns.includes(noun))].slice(0, LIMITS.nounsPerRoom);
  const kept = Object.keys(others).slice(-(LIMITS.rooms - 1));
  const roomNouns = { ...Object.fromEntries(kept.map((room) => [room, others[room]])), [key]: merged };
  const unknown = UNKNOWN_WORD.some((pattern) => pattern.test(step.reply.toLowerCase()));
  const refused = refusedWords(step.command, step.reply, step.known).map((word) => `${unknown ? '*' : step.from}|${word}`);
  const fresh = refused.filter((entry) => !typing.refused.includes(entry));
  return { ...typing, roomNouns, refused: fresh.length ? [...typing.refused, ...fresh].slice(-LIMITS.refused) : typing.refused };
}

/** The typed commands' context where the player stands. */
export function typedContext(typing: Typing, replyNouns: readonly string[], room: number, carried: readonly string[]): TypedContext {
  return {
    lexicon: typing.lexicon,
    replyNouns,
    roomNouns: typing.roomNouns[String(room)] ?? [],
    carried,
    refused: refusedIn(typing, room),
    worth: typing.worth,
    unknownWorth: typing.unknownWorth,
  };
}

/** The nouns a command here may have used: the last reply's, the room's, and the carried things'. */
export function nounsInReach(ctx: TypedContext): string[] {
  const carried = ctx.carried.map(carriedNoun).filter((noun): noun is string => noun !== null);
  return [...new Set([...ctx.replyNouns, ...ctx.roomNouns, ...carried])];
}
