/**
 * How scripts/none-prior.ts credits the command shapes the `none` explorer tried while it learns
 * the prior (verbPrior.ts). A try gains 1 when its step made progress (a score, a room or an item
 * new to the episode) and NEW_NOUNS_GAIN when its reply named things no reply had named before
 * (looking closer finds what to use). It also earns a decaying share of the progress the next
 * TRACE_STEPS tries make — an eligibility trace: "open window" is what lets "west" reach the
 * kitchen, and without the trace a shape that only prepares progress is never credited. A try's
 * credit is at most 1, so a shape's gains never exceed its tries.
 */
import type { ShapeCounts } from './verbPrior';

/** Credit for a reply that names nouns the episode had not met. */
export const NEW_NOUNS_GAIN = 0.5;
/** How many earlier tries share a step's progress, and the share each step back keeps. */
export const TRACE_STEPS = 2;
export const TRACE_DECAY = 0.5;

/** What one step showed. */
export interface CreditedStep {
  /** The shape the command was built from; null when the explorer did not build it from a shape. */
  shape: string | null;
  progress: boolean;
  newNouns: boolean;
  died: boolean;
}

interface OpenTry {
  counts: ShapeCounts;
  credit: number;
}

/** One episode's credit: counts into `shapes` as the steps come. */
export class ShapeCredit {
  private recent: OpenTry[] = [];

  constructor(private readonly shapes: Record<string, ShapeCounts>) {}

  step(step: CreditedStep): void {
    const gain = step.progress ? 1 : step.newNouns ? NEW_NOUNS_GAIN : 0;
    if (step.progress) this.recent.forEach((previous, index) => award(previous, gain * TRACE_DECAY ** (this.recent.length - index)));
    if (!step.shape) return;
    const counts = (this.shapes[step.shape] ??= { tries: 0, gains: 0, deaths: 0 });
    counts.tries++;
    if (step.died) counts.deaths++;
    const made: OpenTry = { counts, credit: 0 };
    award(made, gain);
    this.recent = [...this.recent, made].slice(-TRACE_STEPS);
  }
}

function award(open: OpenTry, gain: number): void {
  const credit = Math.min(1, open.credit + gain);
  open.counts.gains += credit - open.credit;
  open.credit = credit;
}

/** The credit rule in words, for the prior's `about`. */
export const CREDIT_RULE =
  `a try counts as a gain when it scored or reached a room or item new to the episode (1) or its reply named things not named before (${NEW_NOUNS_GAIN}), ` +
  `and earns ${TRACE_DECAY}^k of the progress the try k steps later makes (k ≤ ${TRACE_STEPS}), at most 1 a try`;
