/**
 * Object-tree opcodes as frotz runs them (src/common/object.c: z_insert_obj, z_remove_obj,
 * z_set_attr, z_clear_attr, z_test_attr, z_get_parent/child/sibling), applied to ZVM (ifvms
 * 1.1.6), whose versions read and write whatever lies where an object's entry would be.
 *
 * - Object 0 is no object. frotz reports an error and does nothing when a game moves object 0,
 *   moves something into it, removes it or sets or clears one of its attributes, and reads 0 (or
 *   false) for its parent, child, sibling and attributes. ZVM indexes entries from 1, so "object
 *   0" is the end of the property defaults table: The Zork Undiscovered Underground moves object 0
 *   into Backstage when the coin is thrown there, and ZVM made object 0 Backstage's first child,
 *   cutting the player, the trunk and seven more out of its list of children.
 * - A removed object has no siblings (the standard's tree; ZVM left the old sibling pointer, so a
 *   game reading it saw a stale one and the tree differed from frotz's).
 * - Removing an object walks its parent's children to find the one before it. In a tree that does
 *   not hold the object where its parent pointer says, ZVM's walk never ended (inside one opcode,
 *   where the block budget cannot see it): the walk is bounded, and a broken tree is a fault.
 */
import type { Zvm } from './zvm';

/** The ZVM methods the object opcodes compile to (`e.insert_obj(a, b)` ...), beyond ./zvm's contract. */
interface ObjectZvm extends Zvm {
  version3: boolean;
  m: DataView;
  insert_obj(obj: number, dest: number): void;
  get_child(obj: number): number;
  get_sibling(obj: number): number;
  set_attr(obj: number, attribute: number): void;
  clear_attr(obj: number, attribute: number): void;
  test_attr(obj: number, attribute: number): number;
  set_family(obj: number, newParent: number, parent: number, child: number, olderSibling?: number, youngerSibling?: number): void;
}

/** What an object operation records, in ./objectOps' terms. */
export type ObjectOpKind = 'moves' | 'sets' | 'clears';

/**
 * Told of every @insert_obj, @set_attr and @clear_attr before it runs, object 0 included: Jericho's
 * frotz records the operation before it checks the object (object.c), so a game that moves object
 * 0 (Zork: The Undiscovered Underground's "throw") has that in its record. ./objectOps listens.
 */
export const objectOpWatch: { observe: ((memory: ArrayBufferLike, kind: ObjectOpKind, a: number, b: number) => void) | null } = {
  observe: null,
};

/** More siblings than any story has objects (v3: 255, later: 65,535). */
const MAX_SIBLINGS = 65_536;

export function frotzObjectTree(zvm: Zvm): void {
  const vm = zvm as ObjectZvm;
  const zvmMethods = Object.getPrototypeOf(vm) as ObjectZvm;
  vm.insert_obj = function (this: ObjectZvm, obj: number, dest: number) {
    objectOpWatch.observe?.(this.m.buffer, 'moves', obj, dest);
    if (obj !== 0 && dest !== 0) zvmMethods.insert_obj.call(this, obj, dest);
  };
  vm.set_attr = function (this: ObjectZvm, obj: number, attribute: number) {
    objectOpWatch.observe?.(this.m.buffer, 'sets', obj, attribute);
    if (obj !== 0) zvmMethods.set_attr.call(this, obj, attribute);
  };
  vm.clear_attr = function (this: ObjectZvm, obj: number, attribute: number) {
    objectOpWatch.observe?.(this.m.buffer, 'clears', obj, attribute);
    if (obj !== 0) zvmMethods.clear_attr.call(this, obj, attribute);
  };
  vm.test_attr = function (this: ObjectZvm, obj: number, attribute: number) {
    return obj === 0 ? 0 : zvmMethods.test_attr.call(this, obj, attribute);
  };
  vm.get_parent = function (this: ObjectZvm, obj: number) {
    return obj === 0 ? 0 : zvmMethods.get_parent.call(this, obj);
  };
  vm.get_child = function (this: ObjectZvm, obj: number) {
    return obj === 0 ? 0 : zvmMethods.get_child.call(this, obj);
  };
  vm.get_sibling = function (this: ObjectZvm, obj: number) {
    return obj === 0 ? 0 : zvmMethods.get_sibling.call(this, obj);
  };
  vm.remove_obj = function (this: ObjectZvm, obj: number) {
    const parent = obj === 0 ? 0 : this.get_parent(obj);
    if (parent === 0) return;
    const younger = this.get_sibling(obj);
    let older = this.get_child(parent);
    if (older === obj) this.set_family(obj, 0, parent, younger);
    else {
      for (let steps = 0; ; steps++) {
        const next = this.get_sibling(older);
        if (next === obj) break;
        if (next === 0 || steps >= MAX_SIBLINGS)
          throw new Error(`the object tree is broken: object ${obj}'s parent is ${parent}, but ${parent}'s children do not include it`);
        older = next;
      }
      this.set_family(obj, 0, 0, 0, older, younger);
    }
    if (this.version3) this.m.setUint8(this.objects + 9 * obj + 5, 0);
    else this.m.setUint16(this.objects + 14 * obj + 8, 0);
  };
}
