/**
 * The story header as frotz's dumb interface fills it in Jericho 3.3.1 (src/common/fastmem.c
 * restart_header, src/dumb/dumb_init.c os_init_screen, dumb_input.c and dumb_output.c), written
 * after ZVM's own header update. Games read these bytes to decide what to print: an interpreter
 * that declares bold, italic or fixed-width support, another screen size or another standard
 * revision makes some games print other text than they print under Jericho.
 *
 * - Flags 1: the story's own byte, plus "split screen available" in v3 and "timed input" in v4+
 *   (no colour, bold, emphasis or fixed-width declared).
 * - Flags 2: no undo, sound, mouse, menus or pictures.
 * - Interpreter DEC-20 (1), version 'F'; a screen of 232 rows by 128 columns in 1x1 units; default
 *   colours 0; standard 1.0.
 */

/** frotz's dumb interface asks for 1000 rows, but keeps the number in a byte: every header field says 232. */
export const FROTZ_SCREEN_ROWS = 1000 & 0xff;
export const FROTZ_SCREEN_COLUMNS = 128;

const CONFIG_SPLITSCREEN = 0x20;
const CONFIG_TIMEDINPUT = 0x80;
const OLD_SOUND_FLAG = 0x0010;
const GRAPHICS_FLAG = 0x0008;
const UNDO_FLAG = 0x0010;
const MOUSE_FLAG = 0x0020;
const SOUND_FLAG = 0x0080;
const MENU_FLAG = 0x0100;
const INTERPRETER_DEC_20 = 1;

/** Write frotz's header fields into RAM. `story` is the story file as loaded (its own header bytes). */
export function writeFrotzHeader(ram: DataView, story: Uint8Array): void {
  const version = story[0];
  let config = story[1];
  let flags = ram.getUint16(0x10);
  if (version === 3) {
    config |= CONFIG_SPLITSCREEN;
    flags &= ~OLD_SOUND_FLAG;
  } else {
    config |= CONFIG_TIMEDINPUT;
  }
  // Jericho builds frotz with no undo slots, so v5+ games are told there is no undo (and @save_undo answers -1).
  if (version >= 5) flags &= ~(UNDO_FLAG | MOUSE_FLAG | MENU_FLAG | SOUND_FLAG);
  flags &= ~GRAPHICS_FLAG;
  ram.setUint8(0x01, config);
  ram.setUint16(0x10, flags);
  if (version >= 4) {
    ram.setUint8(0x1e, INTERPRETER_DEC_20);
    ram.setUint8(0x1f, 'F'.charCodeAt(0));
    ram.setUint8(0x20, FROTZ_SCREEN_ROWS);
    ram.setUint8(0x21, FROTZ_SCREEN_COLUMNS);
  }
  if (version >= 5) {
    ram.setUint16(0x22, FROTZ_SCREEN_COLUMNS);
    ram.setUint16(0x24, FROTZ_SCREEN_ROWS);
    ram.setUint8(0x26, 1);
    ram.setUint8(0x27, 1);
    ram.setUint8(0x2c, 0);
    ram.setUint8(0x2d, 0);
  }
  ram.setUint8(0x32, 1);
  ram.setUint8(0x33, 0);
}
