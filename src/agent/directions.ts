/** The compass as the agent types and reads it. */
export const DIRECTIONS = ['north', 'south', 'east', 'west', 'northeast', 'northwest', 'southeast', 'southwest', 'up', 'down', 'in', 'out'];

/** The compass words' one- and two-letter short forms, as regular-expression alternatives. */
const SHORT_FORMS = ['[nsewud]', 'ne', 'nw', 'se', 'sw'];
const COMPASS_WORD = new RegExp(`^(${[...DIRECTIONS, ...SHORT_FORMS].join('|')})$`);

/** A compass word or its one- or two-letter short form ("e", "ne"). */
export const isDirectionWord = (word: string) => COMPASS_WORD.test(word);

/** A compass word, its one- or two-letter short form, or "go …" opens a move command. */
const MOVE = new RegExp(`^(${[...DIRECTIONS, ...SHORT_FORMS, 'go'].join('|')})\\b`);

export function isMove(command: string): boolean {
  return MOVE.test(command);
}
