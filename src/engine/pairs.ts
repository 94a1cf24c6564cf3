/**
 * Two-object candidates (put X in Y, throw X at Y, unlock X with Y, break X with Y), chosen so the
 * search does not try every pair of objects in scope against every two-object grammar line.
 *
 * - Every pair with something the player holds, and every pair where one object is inside the
 *   other ("take X from Y", "ask Y for X", "search Y for X"): the thing put, given, thrown or used
 *   is usually carried, a key only fits its own lock, and what someone holds is asked of them.
 * - Things that can be carried but are not (found by the first pass: some one-object command
 *   moved them) are screened: each object in the line's first slot is tried once with one such
 *   thing in the second, and each object in the second slot once with one such thing in the
 *   first (never the object's own container or content). An object whose screen does something
 *   beyond taking the partner ("break the board with the awl": the board breaks; "ask the old
 *   man about the bottle": he answers and notes it), moves something on the way, puts the
 *   partner in or on it (a workbench that takes one loose thing takes the others), or marks the
 *   partner without taking it ("ask chuck for door"), is then tried with every object in the
 *   other slot, since each one taken on the way, asked about, asked for or put there is another
 *   outcome.
 * - Things in scope that cannot be carried (nothing moved them) never fill a slot the grammar
 *   wants held, but a story's object may answer a verb in any slot: Enchanter's dusty book, too
 *   heavy to take, opens for "open the pencil with the dusty book" and marks the pencil touched.
 *   Each such thing is screened once in each held slot, with a thing carried in the other (else a
 *   loose one), and where the screen does anything it is tried with every object there.
 */
import { ALL, type CandidateScope, type Template } from './templates';
import { isEmptyDiff, type WorldDiff } from './objects';

/** What a candidate that changed the world did, as far as the screens need to know. */
export interface PairOutcome {
  command: string;
  diff: WorldDiff;
  scoreDelta: number;
  endsGame: boolean;
  /** What the command moved on its way, put back or not ("push the bucket to the ball": taken, then dropped). */
  movedOnTheWay?: number[];
  /** The object of each of its operations (see ProbeHit.touched), those that left nothing changed too. */
  touched?: number[];
  /** Another candidate of the search so far had the same effect. */
  sharedEffect?: boolean;
}

interface Screen {
  template: number;
  /** The object screened and the slot it is in (0 or 1). */
  object: number;
  slot: 0 | 1;
  partner: number;
  /** The partner was carried, so nothing was taken on the way and a change to it is the screen's own. */
  partnerHeld?: boolean;
}

export class PairPlan {
  private readonly screens = new Map<string, Screen[]>();
  /** "put all in X" commands, for the counts tried where "all" did something ("put six in X"). */
  private readonly allPairs = new Map<string, Array<{ template: number; second: number }>>();
  private readonly tried: Set<string>;
  /** Portable things not in the inventory: the screens' partners and the expansions' candidates. */
  private readonly loose: number[];

  /** What the held pairs pair with everything: the things held, or those of them some command moved. */
  private readonly carried: ReadonlySet<number>;

  /**
   * `moved`, when the first pass is known: the things some one-object command moved. A thing held
   * that nothing moves — the player's arm, a wound — is part of the player, and pairing it with
   * everything in scope made a third of Seastalker's candidates ("test workbench on arm").
   */
  constructor(
    private readonly scope: CandidateScope,
    portable: ReadonlySet<number>,
    tried: Iterable<string>,
    moved?: ReadonlySet<number>,
  ) {
    this.tried = new Set(tried);
    this.carried = moved ? new Set([...scope.held].filter((o) => moved.has(o))) : scope.held;
    // Not the player, whom every step moves: "put me in the workbench" screens nothing. The player
    // is found as what holds the things held, so the player object need not be known.
    const holders = new Set([...scope.held].map((o) => scope.parentOf(o)));
    this.loose = scope.objects.filter((o) => portable.has(o) && !scope.held.has(o) && !holders.has(o));
  }

  /** The pool for a slot: a slot the grammar wants held takes only what is or can be carried. */
  private pool(t: Template, slot: 0 | 1): number[] {
    return t.held[slot] ? this.scope.objects.filter((o) => this.scope.held.has(o) || this.loose.includes(o)) : this.scope.objects;
  }

  /** A template's words filled with two objects (0 for "all", written `allWord`), unless that command was tried already. */
  private add(out: string[], words: Template['words'], a: number, b: number, allWord?: string): void {
    const command = this.scope.fill(words, [a, b], allWord);
    if (this.tried.has(command)) return;
    this.tried.add(command);
    out.push(command);
  }

  /** The held pairs, "take X from Y", and the screens. */
  first(): string[] {
    const out: string[] = [];
    const { parentOf, held, hasAttribute } = this.scope;
    const carried = this.carried;
    this.scope.templates.forEach((t, index) => {
      if (t.held.length !== 2) return;
      const [firsts, seconds] = [this.pool(t, 0), this.pool(t, 1)];
      // A thing held and never moved still goes with what the line's slot looks for (ZIL's FIND):
      // "give arm to tip", the actors being what "give X to" finds.
      const [find0, find1] = t.find ?? [];
      const sought = (o: number, find: number | undefined) => find !== undefined && hasAttribute(o, find);
      // Two things held go together whatever moved them: the inventory squared is small, and a
      // badge goes into a pocket that no one-object command moves.
      const pairs = (a: number, b: number) =>
        (held.has(a) && held.has(b)) ||
        carried.has(a) ||
        carried.has(b) ||
        parentOf(a) === b ||
        parentOf(b) === a ||
        (held.has(a) && sought(b, find1)) ||
        (held.has(b) && sought(a, find0));
      for (const a of firsts) for (const b of seconds) if (a !== b && pairs(a, b)) this.add(out, t.words, a, b);
      if (t.allWords)
        for (const b of seconds) {
          for (const allWord of ['all', ...this.scope.countWords]) this.add(out, t.allWords, ALL, b, allWord);
          const all = this.scope.fill(t.allWords, [ALL, b]);
          this.allPairs.set(all, [...(this.allPairs.get(all) ?? []), { template: index, second: b }]);
        }
      if (t.allSecondWords) for (const a of firsts) this.add(out, t.allSecondWords, a, ALL);
      const screen = (object: number, slot: 0 | 1, others: number[]) => {
        const partner = others.find((o) => this.loose.includes(o) && this.apart(object, o));
        if (partner !== undefined) this.screen(out, index, object, slot, partner);
      };
      for (const a of firsts) screen(a, 0, seconds);
      for (const b of seconds) screen(b, 1, firsts);
      for (const slot of [0, 1] as const) {
        if (!t.held[slot]) continue;
        const [inPool, others] = slot === 0 ? [new Set(firsts), seconds] : [new Set(seconds), firsts];
        for (const object of this.scope.objects) if (!inPool.has(object)) this.screenFixed(out, index, object, slot, others);
      }
    });
    return out;
  }

  /** A thing that cannot be carried, in a held slot once, with a carried partner (else a loose one). */
  private screenFixed(out: string[], template: number, object: number, slot: 0 | 1, others: number[]): void {
    const partner =
      others.find((o) => this.carried.has(o) && this.apart(object, o)) ??
      others.find((o) => this.loose.includes(o) && this.apart(object, o));
    if (partner !== undefined) this.screen(out, template, object, slot, partner);
  }

  /** `object` in `slot` of the template with `partner` in the other: tried once, and remembered as a screen of the object. */
  private screen(out: string[], template: number, object: number, slot: 0 | 1, partner: number): void {
    const command = this.scope.fill(this.scope.templates[template].words, slot === 0 ? [object, partner] : [partner, object]);
    if (!this.tried.has(command)) {
      this.tried.add(command);
      out.push(command);
    }
    const screen = { template, object, slot, partner, partnerHeld: this.carried.has(partner) };
    this.screens.set(command, [...(this.screens.get(command) ?? []), screen]);
  }

  /** Not the object itself, nor its own container or content: the ball pushed back into the bucket it is in changes nothing, and says nothing of the ball. */
  private apart(object: number, other: number): boolean {
    const { parentOf } = this.scope;
    return other !== object && parentOf(other) !== object && parentOf(object) !== other;
  }

  /** Each screened object that did something of its own, with every object in the other slot. */
  second(outcomes: PairOutcome[]): string[] {
    const out: string[] = [];
    for (const hit of outcomes) {
      for (const { template, second } of this.allPairs.get(hit.command) ?? []) {
        for (const word of [...this.scope.heldCounts, ...this.scope.pluralWords])
          this.add(out, this.scope.templates[template].allWords!, ALL, second, word);
      }
      for (const s of this.screens.get(hit.command) ?? []) {
        const own = s.partnerHeld
          ? !hit.sharedEffect && operatedOn(hit, s.partner, s.object)
          : didMoreThanTake(hit, s.partner, s.object) || (!hit.sharedEffect && markedUntaken(hit, s.partner));
        if (!own) continue;
        const t = this.scope.templates[s.template];
        for (const other of this.pool(t, s.slot === 0 ? 1 : 0)) {
          if (other !== s.object) this.add(out, t.words, s.slot === 0 ? s.object : other, s.slot === 0 ? other : s.object);
        }
      }
    }
    return out;
  }
}

/**
 * Whether a screen changed or moved anything but its partner (which the parser may have taken
 * first), or put its partner in or on the screened object: a workbench that takes the magazine
 * takes the tool too, and each thing put there is another outcome (Seastalker's "put Universal Tool
 * on workbench", the tool in a companion's hands).
 */
function didMoreThanTake(hit: PairOutcome, partner: number, object: number): boolean {
  const { diff } = hit;
  if (hit.scoreDelta !== 0 || hit.endsGame) return true;
  return (
    diff.moved.some((m) => m.object === partner && m.to === object) ||
    diff.moved.some((m) => m.object !== partner) ||
    (hit.movedOnTheWay ?? []).some((object) => object !== partner) ||
    diff.attributesSet.some((a) => a.object !== partner) ||
    diff.attributesCleared.some((a) => a.object !== partner) ||
    (diff.watched?.length ?? 0) > 0
  );
}

/**
 * Whether a screen operated on its loose partner without taking it: Party Foul's "ask chuck for
 * door" marks the door (twice) and changes nothing in the end, and Jericho keys each thing asked
 * for apart, by the operations on it. Asked only of a screen whose effect no other candidate had.
 */
function markedUntaken(hit: PairOutcome, partner: number): boolean {
  return (hit.touched ?? []).includes(partner) && !(hit.movedOnTheWay ?? []).includes(partner);
}

/**
 * Whether a screen with a carried partner (nothing taken on the way) changed the world or
 * operated on either of its objects: Enchanter's pencil, opened with the dusty book, is marked
 * touched, and the map, marked already, is marked again (an operation Jericho's record counts).
 * Asked only of a screen whose effect no other candidate had: one that did what "examine X" does
 * says nothing of the thing in the held slot (Loose's screens widened to 11% more candidates, no
 * more groups, before this was asked).
 */
function operatedOn(hit: PairOutcome, partner: number, object: number): boolean {
  return hit.scoreDelta !== 0 || hit.endsGame || !isEmptyDiff(hit.diff) || (hit.touched ?? []).some((o) => o === partner || o === object);
}
