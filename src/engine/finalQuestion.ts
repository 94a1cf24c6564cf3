/**
 * The question a story asks once it has ended, by death or by victory: "Would you like to RESTART,
 * RESTORE a saved game or QUIT?" (the Inform library), "(Type RESTART, RESTORE, or QUIT):"
 * (Infocom), "(1) Quit, (2) Restart, (3) Restore" (Sherlock). Whatever is typed next is an answer
 * to it, not a move: Inform says "Please give one of the answers above." without asking again, so
 * a session keeps the game ended once the question was seen (see GameSession.updateFlags).
 *
 * Found as the three words together in the reply's last lines, in any order: in the 11,208 steps
 * of Jericho's own walkthrough traces they are together only in a game's last reply.
 */
const FINAL_WORDS = [/\brestart\b/i, /\brestore\b/i, /\bquit\b/i];

/** Lines at the end of a reply the question may span (Seastalker puts each answer on a line of its own). */
const QUESTION_LINES = 4;

export function asksFinalQuestion(reply: string): boolean {
  const lines = reply
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  const ending = lines.slice(-QUESTION_LINES).join(' ');
  return FINAL_WORDS.every((word) => word.test(ending));
}
