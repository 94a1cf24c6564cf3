/**
 * Fights under `valid`: fighting is risky and comes last among untried commands (see riskOf in
 * untried.ts), but a player struck and doing something else is killed. Threatened, the explorer
 * fights back with what it carries, and goes on while the foe stands (see nextUntried).
 */
import { startsWithAny } from './cells';

/**
 * The reply says something is attacking the player, or that something armed is there. Fighting is
 * risky and comes last, but a player struck and doing something else is killed: Zork I's explorer
 * opened the sack and took the garlic while the troll's axe fell, and died at turn 56 with a sword
 * in hand. The troll's blows are told many ways ("the axe crashes against the rock, throwing
 * sparks"); the room told first that it was "brandishing a bloody axe".
 */
const THREAT_CUES = [
  /\b(?:brandish|brandishes|brandishing|wields|wielding)\b/,
  /\b(?:hits|strikes|wounds|stabs|slashes|bites|claws|punches|kicks|knocks)\s+you\b/,
  /\b(?:misses|grazes|nicks)\s+(?:you|your)\b/,
  /\b(?:attacks|lunges at|swings at|charges at|leaps at|lashes out at)\s+you\b/,
  /\b(?:swings|stabs|thrusts|lunges|slashes)\b[^.!?]*\bmiss(?:es)?\b/,
  /\byou are (?:hit|wounded|struck|bitten|stabbed)\b/,
];

export const threatened = (reply: string) => {
  const text = reply.toLowerCase();
  return THREAT_CUES.some((cue) => cue.test(text));
};

/**
 * Blows of one fight command in one room that keep the fight going without a threat in the reply
 * (Zork I's troll fell to the fifth). A fight picked as a last resort, when only risky moves
 * were left, is no loop: after these it is back among the risky moves.
 */
export const FIGHT_ROUNDS = 8;

/** A fight with something in hand: "kill troll with sword", not "kill troll" (which asks with what). */
const FIGHT = startsWithAny(['attack', 'kill', 'fight', 'hit', 'stab', 'slay', 'strike']);
export const isArmedFight = (command: string) => {
  const c = command.trim().toLowerCase();
  return FIGHT.test(c) && / with /.test(c);
};

/** Where a threat holds after a reply: the room it was read in, while the player stays there. */
export const threatHeld = (threatenedIn: number | null, location: number, reply: string): number | null =>
  threatened(reply) ? location : threatenedIn === location ? threatenedIn : null;
