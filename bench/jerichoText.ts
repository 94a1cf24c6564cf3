/**
 * Does grue print the text Jericho printed? Jericho 3.3.1's observations are frotz's screen text
 * after Jericho's own per-game cleaning, and carry artifacts of Jericho itself (its README lists
 * them): so the two are compared with whitespace, case and punctuation aside, and with these
 * artifacts forgiven, each a rule that applies to every game alike:
 *
 * - Status-line text mixed into the observation: Jericho's screen buffer takes every character a
 *   game prints, the status line's included (redrawn mid-turn by some games), in the order the game
 *   draws them. Where Jericho's text has letters grue's lacks, a run of grue's status-line words
 *   (with any numbers) is taken off it.
 * - Text cut at a prompt: Jericho cuts most observations at the first `>` (two characters before
 *   it) or `[`, and so cuts any text that contains one (inhumane, karn, reverb, spirit). grue's text
 *   cut at any `>`, `<` or `[` up to two characters before it counts as Jericho's.
 * - The prompt's words: Jericho drops a game's own prompt ("[The Court Yard]>"); grue keeps its words.
 *   grue's text may run on past Jericho's by at most one short line.
 * - The first or last characters: Jericho drops the first one or two characters of some games' text,
 *   and the two before a prompt it cuts.
 */

const PROMPT_WORDS = 40;

/** Lower-case letters and digits only: whitespace, case and punctuation aside. */
export function letters(text: string): string {
  return text.toLowerCase().replace(/[^a-z0-9]/g, '');
}

export function sameAsJericho(grue: string, jericho: string, statusLine = ''): boolean {
  const g = letters(grue);
  for (const j of jerichoReadings(grue, jericho, statusLine)) {
    if (j === g) return true;
    if (g.startsWith(j) && (promptOnly(grue, j) || cutAtPrompt(grue, j))) return true;
    if ((g.endsWith(j) || g.startsWith(j)) && g.length - j.length <= 2) return true;
    if (j.length > 0 && g.startsWith(j.slice(0, -1)) && cutAtPrompt(grue, j.slice(0, -1))) return true;
  }
  return false;
}

/** Jericho's text, and the same with status-line text taken off where grue's text does not have it. */
function jerichoReadings(grue: string, jericho: string, statusLine: string): string[] {
  const j = letters(jericho);
  const chunk = statusChunk(statusLine);
  return chunk ? [j, withoutStatus(letters(grue), j, chunk)] : [j];
}

/**
 * A run of status-line words: the words of grue's status line as it stands, any number in place of
 * its numbers (the status line Jericho mixed in may be one drawn earlier in the turn, with an
 * older score or time), and numbers alone.
 */
function statusChunk(statusLine: string): RegExp | undefined {
  const words = [...new Set(statusLine.split(/\s+/).map(letters).filter(Boolean))]
    .map((word) => word.replace(/[0-9]+/g, '\u0000'))
    .map((word) =>
      word
        .replace(/[a-z]/g, (c) => c)
        .split('\u0000')
        .join('[0-9]+'),
    )
    .sort((a, b) => b.length - a.length);
  if (!words.length) return undefined;
  return new RegExp(`^(?:${[...words, '[0-9]+'].join('|')})+`);
}

/** Walk both texts; where Jericho's has letters grue's lacks, take off a run of status-line words. */
function withoutStatus(g: string, j: string, chunk: RegExp): string {
  let out = '';
  let gi = 0;
  let ji = 0;
  while (ji < j.length) {
    if (gi < g.length && g[gi] === j[ji]) {
      out += j[ji++];
      gi++;
      continue;
    }
    const match = chunk.exec(j.slice(ji));
    const length = match ? longestAligned(match[0], j, ji, g, gi) : 0;
    if (!length) return out + j.slice(ji);
    ji += length;
  }
  return out;
}

/** The longest prefix of a status run after which Jericho's text picks up grue's again (or ends). */
function longestAligned(run: string, j: string, ji: number, g: string, gi: number): number {
  for (let length = run.length; length > 0; length--) {
    const next = ji + length;
    if (next === j.length || (gi < g.length && j[next] === g[gi])) return length;
  }
  return 0;
}

/** grue's text runs on past Jericho's only by its last line (a prompt's words). */
function promptOnly(grue: string, jericho: string): boolean {
  const lines = grue.trimEnd().split('\n');
  const last = lines.pop() ?? '';
  return letters(last).length <= PROMPT_WORDS && letters(lines.join('\n')) === jericho;
}

/** grue's text cut at a `>`, `<` or `[` (or up to two characters before it) reads as Jericho's. */
function cutAtPrompt(grue: string, jericho: string): boolean {
  for (let at = grue.search(/[<>[]/); at >= 0; at = nextMark(grue, at + 1)) {
    for (let back = 0; back <= 2; back++) if (letters(grue.slice(0, Math.max(0, at - back))) === jericho) return true;
  }
  return false;
}

function nextMark(text: string, from: number): number {
  const rest = text.slice(from).search(/[<>[]/);
  return rest < 0 ? -1 : from + rest;
}
