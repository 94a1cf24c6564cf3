/**
 * Names of Z-machine instructions (standard 1.1 §14), for error messages: which instruction a
 * fault happened at, read from the bytes at its address (the form rules are §4.3).
 */

const TWO_OP = [
  undefined,
  'je',
  'jl',
  'jg',
  'dec_chk',
  'inc_chk',
  'jin',
  'test',
  'or',
  'and',
  'test_attr',
  'set_attr',
  'clear_attr',
  'store',
  'insert_obj',
  'loadw',
  'loadb',
  'get_prop',
  'get_prop_addr',
  'get_next_prop',
  'add',
  'sub',
  'mul',
  'div',
  'mod',
  'call_2s',
  'call_2n',
  'set_colour',
  'throw',
];
const ONE_OP = [
  'jz',
  'get_sibling',
  'get_child',
  'get_parent',
  'get_prop_len',
  'inc',
  'dec',
  'print_addr',
  'call_1s',
  'remove_obj',
  'print_obj',
  'ret',
  'jump',
  'print_paddr',
  'load',
];
const ZERO_OP = [
  'rtrue',
  'rfalse',
  'print',
  'print_ret',
  'nop',
  'save',
  'restore',
  'restart',
  'ret_popped',
  'pop',
  'quit',
  'new_line',
  'show_status',
  'verify',
  undefined,
  'piracy',
];
const VAR_OP = [
  'call_vs',
  'storew',
  'storeb',
  'put_prop',
  'sread',
  'print_char',
  'print_num',
  'random',
  'push',
  'pull',
  'split_window',
  'set_window',
  'call_vs2',
  'erase_window',
  'erase_line',
  'set_cursor',
  'get_cursor',
  'set_text_style',
  'buffer_mode',
  'output_stream',
  'input_stream',
  'sound_effect',
  'read_char',
  'scan_table',
  'not',
  'call_vn',
  'call_vn2',
  'tokenise',
  'encode_text',
  'copy_table',
  'print_table',
  'check_arg_count',
];
const EXT_OP = [
  'save',
  'restore',
  'log_shift',
  'art_shift',
  'set_font',
  'draw_picture',
  'picture_data',
  'erase_picture',
  'set_margins',
  'save_undo',
  'restore_undo',
  'print_unicode',
  'check_unicode',
  'set_true_colour',
];

/** The few opcodes whose name depends on the version (§14.1). */
function versioned(kind: string, number: number, version: number): string | undefined {
  if (kind === '1OP' && number === 15) return version <= 4 ? 'not' : 'call_1n';
  if (kind === '0OP' && number === 9) return version <= 4 ? 'pop' : 'catch';
  if (kind === 'VAR' && number === 0) return version <= 3 ? 'call' : 'call_vs';
  if (kind === 'VAR' && number === 4) return version <= 4 ? 'sread' : 'aread';
  return undefined;
}

/**
 * The instruction at `pc` as a person would look it up: `ret_popped (0OP:8, byte 0xb8)`, or
 * `no instruction (2OP:0, byte 0x00)` for a byte that starts none.
 */
export function describeOpcodeAt(memory: Uint8Array, pc: number, version: number): string {
  if (!Number.isInteger(pc) || pc < 0 || pc >= memory.length) return `an address outside the story (${pc})`;
  const first = memory[pc];
  const byte = `byte 0x${first.toString(16).padStart(2, '0')}`;
  let kind: string;
  let number: number;
  let table: ReadonlyArray<string | undefined>;
  if (first === 0xbe && version >= 5) {
    kind = 'EXT';
    number = pc + 1 < memory.length ? memory[pc + 1] : -1;
    table = EXT_OP;
  } else if ((first & 0xc0) === 0xc0) {
    kind = first & 0x20 ? 'VAR' : '2OP';
    number = first & 0x1f;
    table = first & 0x20 ? VAR_OP : TWO_OP;
  } else if ((first & 0xc0) === 0x80) {
    kind = (first & 0x30) === 0x30 ? '0OP' : '1OP';
    number = first & 0x0f;
    table = kind === '0OP' ? ZERO_OP : ONE_OP;
  } else {
    kind = '2OP';
    number = first & 0x1f;
    table = TWO_OP;
  }
  const name = versioned(kind, number, version) ?? table[number];
  return `${name ?? 'no instruction'} (${kind}:${number}, ${byte})`;
}
