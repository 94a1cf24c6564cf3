/**
 * Headless Glk for ZVM.
 *
 * glkote-term's Glk library (glkapi.js) keeps all of its state in one closure and publishes
 * itself as a module singleton, so two games in one process would share windows and input
 * requests. We compile its source once into a factory and call the factory once per session:
 * every session gets its own closure, and nothing leaks through the module cache or globals.
 *
 * The display side is a subclass of glkote-term's own GlkOte base class that records input
 * requests and grid windows instead of drawing them, with a fixed screen of frotz's size in
 * Jericho (128 columns; the height ZVM caps) so output never depends on the terminal the process
 * happens to run in. The game's text itself is recorded before it reaches Glk (./screen).
 */
import { readFileSync } from 'node:fs';

// glkote-term ships no types; these are the parts of its contract we rely on.
const GlkOteBase: new () => GlkOteBaseInstance = require('glkote-term/src/glkote-term.js');

export interface GlkWindow {
  id: number;
  disprock: number;
  type: number;
  line_request: boolean;
  char_request: boolean;
}

/** The subset of the Glk API object that grue calls directly. ZVM calls much more of it. */
export interface GlkApi {
  init(options: object): void;
  update(): void;
  glk_set_echo_line_event(win: GlkWindow, val: number): void;
  glk_request_line_event_uni(win: GlkWindow, buf: number[], initlen: number): void;
  glk_request_char_event_uni(win: GlkWindow): void;
  glk_cancel_line_event(win: GlkWindow, eventref: unknown): void;
  glk_cancel_char_event(win: GlkWindow): void;
  [name: string]: unknown;
}

interface GlkOteBaseInstance {
  generation: number;
  interface: { accept(obj: object): void } | null;
  update(data: GlkUpdate): void;
  send_response(type: string, win: { id: number } | null, val?: unknown, val2?: unknown): void;
}

type StyledContent = Array<string | { text?: string }>;
interface GlkUpdate {
  type: string;
  gen: number;
  windows?: Array<{ id: number; type: string }> | null;
  content?: Array<{
    id: number;
    clear?: boolean;
    text?: Array<{ append?: boolean; content?: StyledContent }>;
    lines?: Array<{ line: number; content?: StyledContent }>;
  }> | null;
  input?: Array<{ id: number; type: 'line' | 'char'; gen: number; maxlen?: number }> | null;
  specialinput?: { type: string; filemode?: string } | null;
  message?: string;
}

const glkSource = readFileSync(require.resolve('glkote-term/src/glkapi.js'), 'utf8');
// The library assigns to an undeclared `Glk`; declaring it keeps that assignment inside the factory.
const glkFactory = new Function('module', `var Glk;\n${glkSource}\nreturn Glk;`) as (module: object) => GlkApi;

/** A fresh, independent instance of the Glk library. */
export function createGlk(): GlkApi {
  const glk = glkFactory({});
  // Echoing the player's command back into the transcript is a display nicety we do not want:
  // observations are the game's words only.
  const request = glk.glk_request_line_event_uni.bind(glk);
  glk.glk_request_line_event_uni = (win, buf, initlen) => {
    glk.glk_set_echo_line_event(win, 0);
    request(win, buf, initlen);
  };
  return glk;
}

const FIXED_METRICS = {
  buffercharheight: 1,
  buffercharwidth: 1,
  buffermarginx: 0,
  buffermarginy: 0,
  graphicsmarginx: 0,
  graphicsmarginy: 0,
  gridcharheight: 1,
  gridcharwidth: 1,
  gridmarginx: 0,
  gridmarginy: 0,
  height: 1000,
  inspacingx: 0,
  inspacingy: 0,
  outspacingx: 0,
  outspacingy: 0,
  width: 128,
};

export interface PendingInput {
  windowId: number;
  type: 'line' | 'char';
}

function styledText(content: StyledContent | undefined): string {
  if (!content) return '';
  let out = '';
  for (let i = 0; i < content.length; i++) {
    const item = content[i];
    if (typeof item === 'string') {
      // Flat form: style, text, style, text, ...
      out += content[++i] ?? '';
    } else if (item && typeof item.text === 'string') {
      out += item.text;
    }
  }
  return out;
}

/** A GlkOte that records output and input requests instead of drawing them. */
export class CaptureGlkOte extends GlkOteBase {
  private windowTypes = new Map<number, string>();
  /** Grid windows (the v3 status window, the upper window) by window id, as last drawn. */
  private readonly grids = new Map<number, string[]>();
  /** Grid windows grue draws itself (the v3 status line). */
  private readonly drawnHere = new Set<number>();
  pending: PendingInput | null = null;
  special: { filemode: string } | null = null;
  exited = false;
  fatal: string | null = null;

  measure_window() {
    return { ...FIXED_METRICS };
  }

  /** A grid window's lines as last drawn (a copy). */
  gridOf(windowId: number): string[] {
    return [...(this.grids.get(windowId) ?? [])];
  }

  setGrid(windowId: number, lines: string[]): void {
    this.grids.set(windowId, [...lines]);
  }

  /** Draw a grid window here, not through Glk (./glkBypass): Glk's updates no longer redraw it. */
  drawGrid(windowId: number, lines: string[]): void {
    this.drawnHere.add(windowId);
    this.setGrid(windowId, lines);
  }

  sendLine(text: string): void {
    if (!this.pending) throw new Error('the game is not waiting for input');
    const { windowId, type } = this.pending;
    this.pending = null;
    if (type === 'line') this.send_response('line', { id: windowId }, text);
    else this.send_response('char', { id: windowId }, text.length ? text[0] : 'return');
  }

  /** Answer a save/restore/transcript file prompt: grue never touches the player's disk. */
  refuseFilePrompt(): void {
    const special = this.special;
    this.special = null;
    if (!special) return;
    // Glk's callback dereferences the fileref when reading, so a read is answered with a name
    // that does not exist (the game prints its own "failed" message); a write is cancelled.
    const value = special.filemode === 'read' ? { filename: '\u0000grue-no-such-file' } : null;
    this.send_response('specialresponse', null, 'fileref_prompt', value);
  }

  // --- hooks the GlkOte base class calls -------------------------------------------------
  cancel_inputs(): void {
    this.pending = null;
  }

  update_windows(windows: Array<{ id: number; type: string }>): void {
    this.windowTypes.clear();
    for (const w of windows) this.windowTypes.set(w.id, w.type);
  }

  update_content(content: NonNullable<GlkUpdate['content']>): void {
    for (const win of content) {
      if (!win.lines || this.drawnHere.has(win.id)) continue;
      const grid = this.grids.get(win.id) ?? [];
      for (const line of win.lines) grid[line.line] = styledText(line.content);
      this.grids.set(win.id, grid);
    }
  }

  update_inputs(inputs: NonNullable<GlkUpdate['input']>): void {
    // Prefer the main (buffer) window when several windows ask at once.
    const sorted = [...inputs].sort(
      (a, b) => (this.windowTypes.get(a.id) === 'buffer' ? -1 : 0) - (this.windowTypes.get(b.id) === 'buffer' ? -1 : 0),
    );
    const first = sorted[0];
    this.pending = first ? { windowId: first.id, type: first.type } : null;
  }

  disable(): void {}

  accept_specialinput(data: { type: string; filemode?: string }): void {
    if (data.type === 'fileref_prompt') this.special = { filemode: data.filemode ?? 'read' };
  }

  exit(): void {
    this.exited = true;
    this.pending = null;
  }

  error(message: unknown): void {
    this.fatal = String(message);
  }

  log(): void {}

  warning(): void {}
}

/** A Dialog (file access) that has no files: games cannot read or write the player's disk. */
export const NO_FILES_DIALOG = {
  streaming: false,
  autosave_read: () => null,
  autosave_write: () => undefined,
  file_construct_ref: (filename: string, usage: string, gameid: string) => ({ filename, usage, gameid }),
  file_construct_temp_ref: (usage: string) => ({ filename: '\u0000grue-temp', usage }),
  file_clean_fixed_name: (name: string) => name,
  file_ref_exists: () => false,
  file_remove_ref: () => undefined,
  file_read: () => null,
  file_write: () => undefined,
  file_fopen: () => null,
};
