/**
 * How the `none` prior's learning credits the shapes it tried: progress, new things named, and a
 * share of the progress the next tries make (the eligibility trace), at most 1 a try.
 */
import { NEW_NOUNS_GAIN, ShapeCredit, TRACE_DECAY } from '../../src/agent/shapeCredit';
import type { ShapeCounts } from '../../src/agent/verbPrior';

const quiet = { progress: false, newNouns: false, died: false };

describe('shape credit', () => {
  it('credits the try that prepared a move into a new room ("open window" before "west")', () => {
    const shapes: Record<string, ShapeCounts> = {};
    const credit = new ShapeCredit(shapes);
    credit.step({ ...quiet, shape: 'open $' });
    credit.step({ ...quiet, shape: 'west', progress: true });
    expect(shapes['open $']).toEqual({ tries: 1, gains: TRACE_DECAY, deaths: 0 });
    expect(shapes.west).toEqual({ tries: 1, gains: 1, deaths: 0 });
  });

  it('credits a reply that names new things, and two tries back at most', () => {
    const shapes: Record<string, ShapeCounts> = {};
    const credit = new ShapeCredit(shapes);
    for (const shape of ['jump', 'sing', 'examine $']) credit.step({ ...quiet, shape, newNouns: shape === 'examine $' });
    credit.step({ ...quiet, shape: 'take $', progress: true });
    expect(shapes['examine $'].gains).toBe(Math.min(1, NEW_NOUNS_GAIN + TRACE_DECAY));
    expect(shapes.sing.gains).toBe(TRACE_DECAY ** 2);
    expect(shapes.jump.gains).toBe(0);
  });

  it('never credits a try more than once over, and counts deaths', () => {
    const shapes: Record<string, ShapeCounts> = {};
    const credit = new ShapeCredit(shapes);
    credit.step({ ...quiet, shape: 'north', progress: true });
    credit.step({ ...quiet, shape: 'north', progress: true });
    credit.step({ ...quiet, shape: 'jump', died: true });
    expect(shapes.north).toEqual({ tries: 2, gains: 2, deaths: 0 });
    expect(shapes.jump).toEqual({ tries: 1, gains: 0, deaths: 1 });
  });

  it('credits progress made by a command the explorer did not build from a shape to the tries before it', () => {
    const shapes: Record<string, ShapeCounts> = {};
    const credit = new ShapeCredit(shapes);
    credit.step({ ...quiet, shape: 'open $' });
    credit.step({ ...quiet, shape: null, progress: true });
    expect(shapes['open $'].gains).toBe(TRACE_DECAY);
    expect(Object.keys(shapes)).toEqual(['open $']);
  });
});
