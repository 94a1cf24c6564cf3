/** The compass as the agent types and reads it. */
export const DIRECTIONS = ['north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest', 'up', 'down', 'in', 'out'];

/** A compass word or its one- or two-letter short form ("e", "ne"). */
export const isDirectionWord = (word: string) => DIRECTIONS.includes(word) || /^([nsewud]|ne|nw|se|sw)$/.test(word);

/** A compass word, its one- or two-letter short form, or "go …" opens a move command. */
const MOVE = new RegExp(`^(${[...DIRECTIONS, '[nsewud]', 'ne', 'nw', 'se', 'sw', 'go'].join('|')})\\b`);

export function isMove(command: string): boolean {
  return MOVE.test(command);
}
