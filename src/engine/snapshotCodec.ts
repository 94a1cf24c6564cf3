/**
 * The serialisable form of a VM state: RAM as a delta from the story's original RAM (mostly zeros,
 * so it compresses well), the stack, the registers, the RNG and the pending input, deflated behind
 * a magic tag. Equal states encode to equal bytes (fixed key order), so snapshots can be compared.
 */
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { SnapshotError } from './errors';
import type { InputState, VmState } from './vmState';

/** Format 2: frotz's random number generator state (format 1 held ZVM's xorshift seed) and the screen's status rows. */
const SNAPSHOT_MAGIC = 'GRUESNP2';
const OLDER_MAGICS = ['GRUESNP1'];

interface SnapshotHeader {
  md5: string;
  frames: number[];
  frameptr: number;
  sp: number;
  pc: number;
  rng: VmState['rng'];
  readData: VmState['readData'];
  io: Record<string, unknown>;
  input: InputState | null;
  flags: VmState['flags'];
  screen: VmState['screen'];
  ramLength: number;
  stackLength: number;
}

export function encodeSnapshot(state: VmState, origRam: Uint8Array, md5: string): Uint8Array {
  const delta = new Uint8Array(state.ram.length);
  for (let i = 0; i < delta.length; i++) delta[i] = state.ram[i] ^ origRam[i];
  const fields: SnapshotHeader = {
    md5,
    frames: state.frames,
    frameptr: state.frameptr,
    sp: state.sp,
    pc: state.pc,
    rng: state.rng,
    readData: state.readData,
    io: state.io,
    input: state.input,
    flags: state.flags,
    screen: state.screen,
    ramLength: state.ram.length,
    stackLength: state.stack.length,
  };
  const header = Buffer.from(JSON.stringify(fields));
  const body = Buffer.alloc(4 + header.length + delta.length + state.stack.length);
  body.writeUInt32BE(header.length, 0);
  header.copy(body, 4);
  body.set(delta, 4 + header.length);
  body.set(state.stack, 4 + header.length + delta.length);
  return new Uint8Array(Buffer.concat([Buffer.from(SNAPSHOT_MAGIC), deflateRawSync(body, { level: 6 })]));
}

export function decodeSnapshot(snapshot: Uint8Array, origRam: Uint8Array, md5: string): VmState {
  const buf = Buffer.from(snapshot.buffer, snapshot.byteOffset, snapshot.byteLength);
  const magic = buf.subarray(0, SNAPSHOT_MAGIC.length).toString('latin1');
  if (OLDER_MAGICS.includes(magic)) {
    throw new SnapshotError(
      `This snapshot was made by an older grue (format ${magic.slice(-1)}: another random ` +
        `number generator); it cannot be resumed by this version. Start the episode again.`,
    );
  }
  if (buf.length < SNAPSHOT_MAGIC.length || magic !== SNAPSHOT_MAGIC) {
    throw new SnapshotError('Not a grue snapshot (bad magic bytes).');
  }
  let body: Buffer;
  let header: SnapshotHeader;
  try {
    body = inflateRawSync(buf.subarray(SNAPSHOT_MAGIC.length));
    const headerLength = body.readUInt32BE(0);
    header = JSON.parse(body.subarray(4, 4 + headerLength).toString('utf8'));
    body = body.subarray(4 + headerLength);
  } catch (err) {
    throw new SnapshotError(`Snapshot is corrupt: ${(err as Error).message}`);
  }
  if (header.md5 !== md5) {
    throw new SnapshotError(`Snapshot belongs to story ${header.md5}, not to this session's story ${md5}.`);
  }
  if (body.length !== header.ramLength + header.stackLength || header.ramLength !== origRam.length) {
    throw new SnapshotError('Snapshot is corrupt: its memory sections have the wrong size.');
  }
  const ram = new Uint8Array(header.ramLength);
  for (let i = 0; i < ram.length; i++) ram[i] = body[i] ^ origRam[i];
  return {
    ram,
    stack: new Uint8Array(body.subarray(header.ramLength)),
    frames: header.frames,
    frameptr: header.frameptr,
    sp: header.sp,
    pc: header.pc,
    rng: header.rng,
    readData: header.readData,
    io: header.io,
    input: header.input,
    flags: header.flags,
    screen: header.screen,
  };
}
