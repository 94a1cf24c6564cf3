/**
 * The object operations a command executes, in the order it executes them: every @insert_obj,
 * @set_attr and @clear_attr, whether or not it changes anything. Jericho's frotz records exactly
 * these (frotz/src/common/object.c: the first 16 of each kind per turn) and calls a candidate
 * valid when any was recorded, then groups candidates by the record. A turn that sets a scratch
 * attribute and clears it again, or throws a thing that ends where "drop" would put it, leaves
 * the same world as another command but a different record; grouping by the record as well as by
 * the net change tells such commands apart as Jericho does.
 *
 * ZVM compiles those opcodes into calls of the VM's own methods, which ./zvmObjects replaces with
 * frotz's; they tell `objectOpWatch` of each operation, object 0 included, as frotz records it.
 * Only a VM whose memory is the traced session's records, so other sessions in the same thread are
 * unaffected.
 */
import { ignoresAttributeChange, ignoresMove, type WorldMask } from './objects';
import { type ObjectOpKind, objectOpWatch } from './zvmObjects';

/** Jericho keeps the first 16 operations of each kind per turn. */
const OPS_PER_KIND = 16;

export interface ObjectOps {
  /** [object, destination] pairs, in order. */
  moves: number[];
  /** [object, attribute] pairs, in order. */
  sets: number[];
  clears: number[];
}

interface ActiveTrace extends ObjectOps {
  memory: ArrayBufferLike;
}

let active: ActiveTrace | null = null;

function observe(memory: ArrayBufferLike, kind: ObjectOpKind, a: number, b: number): void {
  const trace = active;
  if (trace && memory === trace.memory && trace[kind].length < OPS_PER_KIND * 2) trace[kind].push(a, b);
}

objectOpWatch.observe = observe;

/**
 * Run `body` with the object operations of the VM behind `memory` (a session's `mem`) recorded.
 * Not reentrant: one trace at a time per thread, which is how candidates are tried.
 */
export function traceObjectOps<T>(memory: Uint8Array, body: () => T): { result: T; ops: ObjectOps } {
  const trace: ActiveTrace = { memory: memory.buffer, moves: [], sets: [], clears: [] };
  const outer = active;
  active = trace;
  try {
    return { result: body(), ops: { moves: trace.moves, sets: trace.sets, clears: trace.clears } };
  } finally {
    active = outer;
  }
}

/** The record without what the mask says to ignore (daemons, parser scratch attributes). */
export function maskedOps(ops: ObjectOps, mask: WorldMask): ObjectOps {
  // Helpers at module level: tsx names every function a const holds, at run time, on each call
  // (esbuild's keepNames), and this runs for every candidate of the valid-action search.
  return {
    moves: keptPairs(ops.moves, (object, destination) => !mask.ignoreObjects.has(object) && !ignoresMove(mask, object, destination)),
    sets: keptPairs(
      ops.sets,
      (object, attribute) => keepsAttribute(mask, object, attribute) && !ignoresAttributeChange(mask, true, object, attribute),
    ),
    clears: keptPairs(
      ops.clears,
      (object, attribute) => keepsAttribute(mask, object, attribute) && !ignoresAttributeChange(mask, false, object, attribute),
    ),
  };
}

function keepsAttribute(mask: WorldMask, object: number, attribute: number): boolean {
  return (
    !mask.ignoreObjects.has(object) &&
    !mask.ignoreAttributes.has(attribute) &&
    !mask.ignoreObjectAttributes.some(([o, a]) => o === object && a === attribute)
  );
}

/** The (a, b) pairs of a flat list that `keep` keeps. */
function keptPairs(flat: number[], keep: (a: number, b: number) => boolean): number[] {
  const out: number[] = [];
  for (let i = 0; i < flat.length; i += 2) if (keep(flat[i], flat[i + 1])) out.push(flat[i], flat[i + 1]);
  return out;
}

export function isEmptyOps(ops: ObjectOps): boolean {
  return ops.moves.length === 0 && ops.sets.length === 0 && ops.clears.length === 0;
}

/** A canonical string for a record: equal strings, equal operations in equal order. */
export function opsKey(ops: ObjectOps): string {
  return `${pairList(ops.moves, '>')}|${pairList(ops.sets, '+')}|${pairList(ops.clears, '-')}`;
}

function pairList(flat: number[], sep: string): string {
  const out: string[] = [];
  for (let i = 0; i < flat.length; i += 2) out.push(`${flat[i]}${sep}${flat[i + 1]}`);
  return out.join(',');
}
