/**
 * ZVM's @copy_table copies through a fresh ArrayBuffer (getUint8Array slices the memory, then
 * setUint8Array writes the slice back): an allocation per call, and Inform's and Infocom's later
 * parsers copy the input buffer with it several times a command, which the valid-action search
 * types tens of thousands of times a state. A positive size means "copy as if through a
 * temporary", which is exactly what copyWithin does in place (§15 copy_table). Zeroing (second
 * table 0), the forward copy a negative size asks for, and any copy that reads past the story or
 * writes past dynamic memory are left to ZVM, so they behave, and fail, as they did.
 */
import type { Zvm } from './zvm';

/** The ZVM internals @copy_table uses, beyond the contract in ./zvm. */
interface CopyingZvm {
  m: DataView;
  staticmem: number;
  copy_table(first: number, second: number, size: number): void;
}

export function fasterTableCopy(vm: Zvm): void {
  const zvm = vm as unknown as CopyingZvm;
  const copyThroughZvm = zvm.copy_table;
  let bytes: Uint8Array | null = null;
  zvm.copy_table = function (this: CopyingZvm, first: number, second: number, size: number) {
    const length = (size << 16) >> 16;
    if (second === 0 || length < 0 || first + length > this.m.byteLength || second + length > this.staticmem)
      return copyThroughZvm.call(this, first, second, size);
    if (bytes?.buffer !== this.m.buffer) bytes = new Uint8Array(this.m.buffer, this.m.byteOffset, this.m.byteLength);
    bytes.copyWithin(second, first, first + length);
  };
}
