/**
 * Two kinds of output that grue reads without Glk, so Glk is not asked to draw them.
 *
 * Every candidate the valid-action search tries is a turn: ZVM hands its text to Glk, which
 * accumulates it in the lower window and serialises it into a display update when the game next
 * waits for input; a version 3 game also redraws its status line, one grid cell at a time. On
 * Zork I that was about a tenth of a candidate's time, for display nobody shows:
 *
 * - Lower-window text is recorded where ZVM prints it (./screen), which is what observations
 *   are made of; Glk's copy of it was never read.
 * - The version 3 status line is rendered here as ZVM rendered it through Glk (io.js v3_status:
 *   the location's short name at the left, the score and turns or the time at the right) and
 *   stored as the status window's grid, where the session reads it.
 */
import type { CaptureGlkOte, GlkApi } from './glk';
import type { Zvm } from './zvm';

/** The parts of ZVM these read: its version 3 status routine and where its text is going. */
interface BypassedZvm extends Zvm {
  v3_status(): void;
  globals: number;
  io: Zvm['io'] & { currentwin: number; width: number };
  statuswin: (Zvm['statuswin'] & { gridwidth: number }) | null;
}

export function bypassGlkForWhatGrueReads(vm: Zvm, glk: GlkApi, glkote: CaptureGlkOte): void {
  const zvm = vm as BypassedZvm;
  // ZVM prints lower-window text with glk_put_jstring on the current stream, upper-window text
  // one character at a time the same way; only the upper window's grid is read from Glk.
  const putString = glk.glk_put_jstring as (text: string, allBytes?: boolean) => void;
  glk.glk_put_jstring = (text: string, allBytes?: boolean) => {
    if (zvm.io.currentwin === 0) return;
    putString(text, allBytes);
  };
  zvm.v3_status = function (this: BypassedZvm) {
    const window = this.statuswin;
    if (!window) return;
    glkote.drawGrid(window.disprock, [v3StatusRow(this, window.gridwidth)]);
  };
}

/**
 * The row ZVM's v3_status drew: `width` spaces, then " " and the location's name from column 0,
 * then the right-hand side ending one column before `width`. Text past the grid's width wrapped
 * onto rows a one-row window does not have, and cells past `width` kept the spaces they start with.
 */
function v3StatusRow(vm: BypassedZvm, gridWidth: number): string {
  const memory = vm.m;
  const width = vm.io.width;
  const hoursOrScore = memory.getUint16(vm.globals + 2);
  const minutesOrTurns = memory.getUint16(vm.globals + 4);
  const properties = memory.getUint16(vm.objects + 9 * memory.getUint16(vm.globals) + 7);
  const shortName = String(vm.decode(properties + 1, memory.getUint8(properties) * 2));
  // Header flag 1 bit 1: the status line shows a clock (§8.2.3.2).
  const right =
    memory.getUint8(0x01) & 0x02
      ? `Time: ${hoursOrScore % 12 === 0 ? 12 : hoursOrScore % 12}:${minutesOrTurns < 10 ? '0' : ''}${minutesOrTurns} ${hoursOrScore > 11 ? 'PM' : 'AM'}`
      : `Score: ${hoursOrScore}  Turns: ${minutesOrTurns}`;
  const left = ` ${shortName.slice(0, width - right.length - 4)}`;
  return overlay(overlay(' '.repeat(gridWidth), 0, left), Math.max(0, width - right.length - 1), right);
}

/** `row` with `text` written over it from `column`, cut at the row's end. */
function overlay(row: string, column: number, text: string): string {
  if (column >= row.length) return row;
  return (row.slice(0, column) + text + row.slice(column + text.length)).slice(0, row.length);
}
