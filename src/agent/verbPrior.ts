/**
 * The order the `none` explorer tries command shapes in, learned by playing the suite's games
 * (scripts/none-prior.ts writes data/none-verb-prior.json; its `about` says how, and on which
 * games). Per shape ("open $", "put $ in $", "north") it holds how often a command of that shape
 * was tried, made progress (see shapeCredit.ts) or killed the player. The startGame activity reads
 * it and returns the worth of the story's shapes, so the recorded history holds what a run plays
 * with and a later prior never changes a recorded run; runs recorded before the activity returned
 * it played the first prior (none-verb-prior-first.json).
 * A shape's worth is its progress rate, shrunk toward the mean rate when it was seldom tried and
 * lowered by its deaths. No game is named here: a game the prior never saw is played the same way.
 */
import { z } from 'zod';
import type { Lexicon, ShapeWorth } from '../schemas/game';
import first from './data/none-verb-prior-first.json';
import data from './data/none-verb-prior.json';

export const ShapeCountsSchema = z.object({ tries: z.number().int().nonnegative(), gains: z.number().nonnegative(), deaths: z.number() });
export type ShapeCounts = z.infer<typeof ShapeCountsSchema>;

export const VerbPriorSchema = z.object({
  about: z.string(),
  learnedFrom: z.array(z.string()),
  shapes: z.record(z.string(), ShapeCountsSchema),
});
export type VerbPrior = z.infer<typeof VerbPriorSchema>;

export const DEFAULT_VERB_PRIOR: VerbPrior = VerbPriorSchema.parse(data);
/** The prior of runs recorded before startGame returned the shapes' worth (see initialState). */
export const FIRST_VERB_PRIOR: VerbPrior = VerbPriorSchema.parse(first);

/** Tries a shape's own rate counts as much as the mean rate (the shrinkage). */
const SHRINK_TRIES = 4;
/** A death costs as much as this many progress moves gain. */
const DEATH_COST = 3;
/** The mean rate of a prior with no counts: every shape alike. */
const NO_DATA_RATE = 0.05;

/** The mean progress rate over every shape's tries. */
export function meanRate(prior: VerbPrior): number {
  let tries = 0;
  let gains = 0;
  for (const counts of Object.values(prior.shapes)) {
    tries += counts.tries;
    gains += counts.gains;
  }
  return tries > 0 ? gains / tries : NO_DATA_RATE;
}

export function shapeWorth(counts: ShapeCounts | undefined, mean: number): number {
  if (!counts) return mean;
  return Math.max(0, (counts.gains + SHRINK_TRIES * mean - DEATH_COST * counts.deaths) / (counts.tries + SHRINK_TRIES));
}

const rounded = (value: number) => Math.round(value * 1e5) / 1e5;

/** The worth of each of this story's shapes, and of a shape the prior never saw. */
export function worthOfShapes(prior: VerbPrior, lexicon: Lexicon): ShapeWorth {
  const mean = meanRate(prior);
  const worth: Record<string, number> = {};
  for (const shape of [...lexicon.directions, ...lexicon.templates]) worth[shape] = rounded(shapeWorth(prior.shapes[shape], mean));
  return { worth, unknownWorth: rounded(mean) };
}
