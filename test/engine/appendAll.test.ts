import { appendAll } from '../../src/engine/appendAll';

describe('appendAll: a search pass of any size is kept', () => {
  it('appends 200,000 candidates to what was tried before, in order', () => {
    const tried = ['look'];
    const pass = Array.from({ length: 200_000 }, (_, i) => `take thing ${i}`);
    appendAll(tried, pass);
    expect(tried).toHaveLength(200_001);
    expect(tried[0]).toBe('look');
    expect(tried[200_000]).toBe('take thing 199999');
  });
});
