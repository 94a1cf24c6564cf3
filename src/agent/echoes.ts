/**
 * Echoes, under `valid`: a command the game answered as it had before, changing nothing the player
 * holds or where it stands, is spent for the episode wherever it is made (see spentIn). Each move
 * makes the world state new, and a clock makes each turn new, so "untried from this state" kept such
 * commands untried in every room: Planetfall's explorer made "wear chronometer" ("You are wearing
 * the chronometer.") five times in 18 turns, Awaken's "take limb" ("You already have that.") eleven
 * times in 100, Balances' "examine spell book" in every room it reached, and Zork I's campaigns
 * spent one turn in twelve on "look" just after arriving, the room's description shown again.
 * A reply is an echo when its first line (the command's own answer: a clock's or a companion's news
 * follows it) is the one this command had the last time, anywhere, no command naming its things
 * made since; or, for a command naming nothing ("look"), when it only shows again what was on
 * screen before it.
 */
import { z } from 'zod';
import { isMove } from './directions';
import { withNewestEntry } from './newest';
import { asCompared } from './replyReading';
import { thingWordsOf } from './verbSpread';

export const EchoesSchema = z.object({
  /** Command -> the first line of its last reply that changed nothing seen, whitespace and case aside, cut short. */
  replies: z.record(z.string(), z.string()),
  /** Commands answered with an echo: spent for the episode (see spentIn), oldest first. */
  spent: z.array(z.string()),
});
export type Echoes = z.infer<typeof EchoesSchema>;

export const NO_ECHOES: Echoes = { replies: {}, spent: [] };

const LIMITS = { replies: 40, spent: 60, line: 48 } as const;

/** What the player sees of the world around a command: where it stands, what it holds, its score. */
export interface Seen {
  room: number;
  carried: readonly string[];
  score: number;
}

/** The first line of a reply that is not blank, as compared, cut short. */
export function firstLine(reply: string): string {
  const line = reply.split('\n').find((text) => text.trim() !== '') ?? '';
  return asCompared(line).slice(0, LIMITS.line);
}

const sameSeen = (before: Seen, after: Seen) =>
  before.room === after.room &&
  before.score === after.score &&
  [...before.carried].sort().join('|') === [...after.carried].sort().join('|');

/** What `command` teaches of echoes, from what was on screen before it (`shown`) and its reply. */
export function echoesAfter(
  echoes: Echoes,
  step: { command: string; reply: string; shown: string; before: Seen; after: Seen; died: boolean },
): Echoes {
  const command = step.command.trim().toLowerCase();
  if (isMove(command)) return echoes;
  const things = thingWordsOf(command);
  // What was done to a thing since may have undone what a command did to it: "put snorkel in
  // raincoat", then "take snorkel", and "wear snorkel" is answered as before yet not an echo.
  const kept = Object.entries(echoes.replies).filter(
    ([made]) => made === command || !thingWordsOf(made).some((word) => things.includes(word)),
  );
  const { [command]: last, ...others } = Object.fromEntries(kept);
  if (echoes.spent.includes(command) || step.died || !sameSeen(step.before, step.after)) return { ...echoes, replies: others };
  const line = firstLine(step.reply);
  const reply = asCompared(step.reply);
  const showsAgain = things.length === 0 && reply !== '' && asCompared(step.shown).includes(reply);
  if (line !== '' && (line === last || showsAgain)) return { replies: others, spent: [...echoes.spent, command].slice(-LIMITS.spent) };
  return { ...echoes, replies: withNewestEntry(others, command, line, LIMITS.replies) };
}
