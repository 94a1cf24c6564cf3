/**
 * The Z-machine random number generator exactly as frotz draws it (frotz 2.4x src/common/random.c,
 * as built into Jericho 3.3.1), so that a game seeded with N draws what `FrotzEnv(seed=N)` draws
 * and the suite's walkthroughs, recorded with Jericho's seeds, play the same fights and thieves.
 *
 * - A linear congruential generator on a C `long`: A = 0x015a4e35 * A + 1, the draw is bits
 *   16-30 of A. Only the low 32 bits of A reach those bits, so A is kept modulo 2^32.
 * - `@random -n` with n < 1000 switches to a counting mode (0, 1, ..., n-1, 0, ...) as the
 *   standard's predictable mode; n >= 1000 reseeds A with n; `@random 0` reseeds with the
 *   interpreter's seed (Jericho's user seed, which a restart also restores).
 * - A draw in range r is `draw % r + 1`.
 */

export interface RandomState {
  /** Low 32 bits of frotz's A, as an unsigned number. */
  a: number;
  /** Non-zero: counting mode with this period. */
  interval: number;
  counter: number;
}

export class FrotzRandom {
  private a: number;
  private interval = 0;
  private counter = 0;

  constructor(private readonly seed: number) {
    this.a = seed >>> 0;
  }

  /** What frotz's z_restart does: reseed from the interpreter's seed. */
  restart(): void {
    this.reseed(0);
  }

  /** The @random opcode: a signed range; returns the value the opcode stores. */
  random(range: number): number {
    if (range <= 0) {
      this.reseed(-range);
      return 0;
    }
    let result: number;
    if (this.interval !== 0) {
      result = this.counter++;
      if (this.counter === this.interval) this.counter = 0;
    } else {
      this.a = (Math.imul(0x015a4e35, this.a) + 1) >>> 0;
      result = (this.a >>> 16) & 0x7fff;
    }
    return (result % range) + 1;
  }

  get state(): RandomState {
    return { a: this.a, interval: this.interval, counter: this.counter };
  }

  set state(state: RandomState) {
    this.a = state.a >>> 0;
    this.interval = state.interval;
    this.counter = state.counter;
  }

  private reseed(value: number): void {
    if (value === 0) {
      this.a = this.seed >>> 0;
      this.interval = 0;
    } else if (value < 1000) {
      this.counter = 0;
      this.interval = value;
    } else {
      this.a = value >>> 0;
      this.interval = 0;
    }
  }
}
