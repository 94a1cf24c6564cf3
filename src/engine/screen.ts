/**
 * What the game put on the screen during a turn, recorded as frotz would show it.
 *
 * ZVM hands text to Glk, and Glk keeps only what is on screen when the game next waits for
 * input: text printed before a screen clear is gone, and the upper window (a grid) keeps only its
 * last drawing. frotz, as Jericho runs it, keeps every character a turn prints. So the recorder
 * takes the game's text where ZVM prints it (`_print`) and keeps its own model of the upper window:
 *
 * - Lower-window text is kept in order; clearing the window drops nothing.
 * - The upper window is a grid of cells. The rows the status line occupies are those inside the
 *   upper window's height when the game last waited for input (or now, if lower). Rows written
 *   below that during a turn are part of what the turn printed (a quotation box, a sign drawn in
 *   the upper window) and go into the observation, where the game printed them relative to the
 *   lower-window text. A row erased or scrolled away before the turn ends still counts.
 * - The status line is what the status rows show when the game waits for input, drawn fresh.
 */
import type { Zvm } from './zvm';

export interface ScreenTurn {
  /** Everything the turn printed: lower-window text with upper-window text spliced in. */
  text: string;
  /** The status rows of the upper window as they stand now, trailing spaces trimmed. */
  statusLine: string;
}

interface UpperText {
  /** Where in the lower-window text the row was first written this turn. */
  offset: number;
  row: number;
  text: string;
}

export class ScreenRecorder {
  private lowerText = '';
  private grid: string[][] = [];
  /** Upper rows written since the last input request, with the lower-text offset of their first write. */
  private written = new Map<number, number>();
  /** Upper text written this turn and erased before the turn ended. */
  private erased: UpperText[] = [];
  /** The upper window's height when the game last waited for input; undefined before the first wait. */
  private statusHeight: number | undefined;

  constructor(private readonly vm: Zvm) {}

  /** Wrap ZVM's printing and window calls; ZVM's own behaviour is unchanged. */
  install(): void {
    const vm = this.vm;
    const record = (text: string) => this.record(text);
    const clearRows = (from: number, to?: number) => this.clearRows(from, to ?? this.grid.length);
    const print = vm._print;
    vm._print = function (this: Zvm, text: string) {
      record(String(text));
      return print.call(this, text);
    };
    const eraseWindow = vm.erase_window;
    vm.erase_window = function (this: Zvm, window: number) {
      // -1 and -2 clear the whole screen, 1 the upper window, 0 only the lower (which loses nothing here).
      if (window !== 0) clearRows(0);
      return eraseWindow.call(this, window);
    };
    const splitWindow = vm.split_window;
    vm.split_window = function (this: Zvm, lines: number) {
      const before = this.io.height as number;
      // ZVM blanks the rows a split exposes; in version 3 the whole upper window is cleared (standard 8.6.1.1.2).
      if (this.version3 && lines > 0) clearRows(0);
      else if (lines > before) clearRows(before, lines);
      return splitWindow.call(this, lines);
    };
  }

  /** The text the game printed since the last call, and the status line as it stands. */
  take(): ScreenTurn {
    const height = this.upperHeight();
    const floor = Math.min(this.statusHeight ?? height, height);
    const upper = [...this.erased];
    for (const [row, offset] of this.written) {
      if (row >= floor) upper.push({ offset, row, text: this.rowText(row) });
    }
    const text = splice(this.lowerText, upper);
    this.lowerText = '';
    this.erased = [];
    this.written.clear();
    this.statusHeight = height;
    return { text, statusLine: this.statusLine };
  }

  get statusLine(): string {
    const rows: string[] = [];
    for (let row = 0; row < this.upperHeight(); row++) rows.push(this.rowText(row));
    return rows.join('\n').trimEnd();
  }

  /** The upper window as it stands and the status rows' height, for a saved state. */
  capture(): { upper: string[]; statusHeight: number } {
    const upper: string[] = [];
    for (let row = 0; row < this.grid.length; row++) upper.push(this.rowText(row));
    return { upper, statusHeight: this.statusHeight ?? this.upperHeight() };
  }

  /** Put the upper window back as a state left it; nothing of a turn in progress survives a restore. */
  restore(upper: string[], statusHeight: number): void {
    this.grid = upper.map((row) => [...row]);
    this.lowerText = '';
    this.erased = [];
    this.written.clear();
    this.statusHeight = statusHeight;
  }

  private upperHeight(): number {
    return this.vm.upperwin ? (this.vm.io.height as number) : 0;
  }

  private record(text: string): void {
    const io = this.vm.io;
    // Stream 3 (text printed into a table) is not displayed.
    if ((io.streams[3] as unknown[]).length) return;
    const shown = text.replace(/\r/g, '\n');
    if (io.currentwin && this.vm.upperwin) this.recordUpper(shown);
    else if (!io.currentwin && io.streams[1]) this.lowerText += shown;
  }

  /** Mirror what ZVM puts in the grid: one cell at a time from the cursor, wrapping at the width, never past the height. */
  private recordUpper(text: string): void {
    const io = this.vm.io;
    const width = io.width as number;
    const height = io.height as number;
    let row = io.row as number;
    let col = io.col as number;
    for (const ch of text) {
      if (row >= height) break;
      if (ch === '\n') {
        row++;
        col = 0;
        continue;
      }
      const cells = (this.grid[row] ??= []);
      while (cells.length < col) cells.push(' ');
      cells[col] = ch;
      if (!this.written.has(row)) this.written.set(row, this.lowerText.length);
      if (++col === width) {
        col = 0;
        row++;
      }
    }
  }

  /** Blank rows [from, to), keeping what a turn wrote on them below the status rows. */
  private clearRows(from: number, to: number): void {
    const floor = this.statusHeight ?? 0;
    for (let row = from; row < to; row++) {
      const offset = this.written.get(row);
      if (offset !== undefined && row >= floor) this.erased.push({ offset, row, text: this.rowText(row) });
      this.written.delete(row);
      this.grid[row] = [];
    }
  }

  private rowText(row: number): string {
    return (this.grid[row] ?? []).join('').trimEnd();
  }
}

/** Insert upper-window text into the lower-window text where it was printed, rows in screen order. */
function splice(lower: string, upper: UpperText[]): string {
  const blocks = new Map<number, UpperText[]>();
  for (const item of upper) {
    if (!item.text.trim()) continue;
    blocks.set(item.offset, [...(blocks.get(item.offset) ?? []), item]);
  }
  if (!blocks.size) return lower;
  let out = '';
  let at = 0;
  for (const offset of [...blocks.keys()].sort((a, b) => a - b)) {
    const rows = blocks.get(offset)!.sort((a, b) => a.row - b.row);
    out += lower.slice(at, offset);
    out += `\n${rows.map((r) => r.text.trim()).join('\n')}\n`;
    at = offset;
  }
  return out + lower.slice(at);
}
