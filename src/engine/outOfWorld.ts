/**
 * Verbs that talk to the interpreter rather than the world (save, quit, transcript, ...) or repeat
 * the last command. The grammar marks most as meta, but not every game's tables do; a player never
 * needs them to explore, and quit or restart would end the episode. Matched on the first word, truncated
 * as the story truncates.
 */
const OUT_OF_WORLD = [
  'quit',
  'restart',
  'restore',
  'save',
  'script',
  'unscript',
  'transcript',
  'verbose',
  'brief',
  'superbrief',
  'super',
  'score',
  'fullscore',
  'full',
  'diagnose',
  'version',
  'notify',
  'undo',
  'again',
  'g',
  'q',
  'oops',
  'nouns',
  'pronouns',
  'hint',
  'hints',
  'walkthru',
  'walkthrough',
  'solution',
  'clue',
  'clues',
  'help',
  'about',
  'info',
  'credits',
  'die',
  'random',
  'recording',
  'replay',
  'normal',
  'short',
  'long',
  'terse',
  'wordy',
  'places',
  'objects',
];

/** A test of a command (or a command pattern) by its first word: false for the verbs above. */
export function inWorldCommands(resolution: number): (command: string) => boolean {
  const outOfWorld = new Set(OUT_OF_WORLD.map((verb) => verb.slice(0, resolution)));
  return (command) => !outOfWorld.has(command.split(' ')[0].slice(0, resolution));
}
