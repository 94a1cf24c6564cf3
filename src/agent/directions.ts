import { COMPASS_SHORT_FORMS } from '../text';

/** The compass as the agent types and reads it. */
export const DIRECTIONS = ['north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest', 'up', 'down', 'in', 'out'];

/** The way that leads back on most maps. */
export const OPPOSITE: Readonly<Record<string, string>> = {
  north: 'south',
  south: 'north',
  east: 'west',
  west: 'east',
  northeast: 'southwest',
  southwest: 'northeast',
  northwest: 'southeast',
  southeast: 'northwest',
  up: 'down',
  down: 'up',
  in: 'out',
  out: 'in',
};

/** The compass word a move names ("nw", "go northwest": "northwest"); null for anything else. */
export function directionOf(command: string): string | null {
  const word = command
    .trim()
    .toLowerCase()
    .replace(/^go\s+/, '');
  const full = COMPASS_SHORT_FORMS[word] ?? word;
  return DIRECTIONS.includes(full) ? full : null;
}

/** Of `candidates`, the move back the way `arrivedBy` came ("up": "down" or "d"); null when none is offered. */
export function wayBackAmong(arrivedBy: string, candidates: readonly string[]): string | null {
  const from = directionOf(arrivedBy);
  const back = from === null ? undefined : OPPOSITE[from];
  return (back && candidates.find((command) => directionOf(command) === back)) ?? null;
}

/** The move that brought the player where it stands after a command: that command if it moved the player, else the one before while it stays. */
export const arrivalAfter = (arrivedBy: string | null, from: number, to: number, command: string): string | null =>
  from === to ? arrivedBy : isMove(command) ? command : null;

const SHORT_FORMS = Object.keys(COMPASS_SHORT_FORMS);
const COMPASS_WORD = new RegExp(`^(${[...DIRECTIONS, ...SHORT_FORMS].join('|')})$`);

/** A compass word or its one- or two-letter short form ("e", "ne"). */
export const isDirectionWord = (word: string) => COMPASS_WORD.test(word);

/** A compass word, its one- or two-letter short form, or "go …" opens a move command. */
const MOVE = new RegExp(`^(${[...DIRECTIONS, ...SHORT_FORMS, 'go'].join('|')})\\b`);

export function isMove(command: string): boolean {
  return MOVE.test(command);
}
