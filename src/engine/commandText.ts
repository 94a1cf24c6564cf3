/** The text that crosses the session's boundary: commands going in, observations coming out. */
import { InvalidCommandError } from './errors';

/** Longest command accepted. Z-machine input buffers are at most 255 characters; most games use ~120. */
export const MAX_COMMAND_LENGTH = 200;

/** Check a command before it reaches the VM. */
export function validateCommand(command: unknown): string {
  if (typeof command !== 'string') throw new InvalidCommandError(`A command must be a string, got ${typeof command}.`);
  if (command.length > MAX_COMMAND_LENGTH) {
    throw new InvalidCommandError(`Command is ${command.length} characters long; the limit is ${MAX_COMMAND_LENGTH}.`);
  }
  const bad = command.search(/[^\x20-\x7e]/);
  if (bad >= 0) {
    const code = command.charCodeAt(bad).toString(16).padStart(4, '0');
    throw new InvalidCommandError(
      `Command contains a non-printable or non-ASCII character (U+${code}) at position ${bad}; use plain printable ASCII.`,
    );
  }
  return command;
}

/**
 * The turn's text as an agent should read it: no carriage returns or trailing spaces, no blank
 * lines before it, and without the prompt the game printed last (">" after the text; a game's own
 * prompt such as "[Court Yard]>" or "Select an option >>" keeps its words, loses its arrows).
 */
export function cleanObservation(text: string): string {
  return text
    .replace(/\r/g, '')
    .replace(/[ \t]*>+[ \t]*$/, '')
    .replace(/[ \t]+$/gm, '')
    .replace(/^\n+/, '')
    .trimEnd();
}
