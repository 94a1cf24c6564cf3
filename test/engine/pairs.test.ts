import { PairPlan } from '../../src/engine/pairs';
import { ALL, type CandidateScope, type Template } from '../../src/engine/templates';

const OBJECT = { kind: 'object', held: false, creature: false, multi: false, inside: false, search: 0 } as const;

/** A room with a woman (1) holding a hologram (2), a table (3) and, on it, a cup (4); the player holds a coin (5). */
function scopeWith(
  templates: Template[],
  counts: Pick<CandidateScope, 'countWords' | 'heldCounts' | 'pluralWords'> = { countWords: [], heldCounts: [], pluralWords: [] },
): CandidateScope {
  const phrase = new Map([
    [1, 'cheryl'],
    [2, 'hologram'],
    [3, 'table'],
    [4, 'cup'],
    [5, 'coin'],
  ]);
  const parents = new Map([
    [2, 1],
    [4, 3],
  ]);
  return {
    templates,
    objects: [1, 2, 3, 4, 5],
    phrase,
    held: new Set([5]),
    parentOf: (id) => parents.get(id) ?? 0,
    hasAttribute: () => false,
    guessedNames: new Map(),
    examine: null,
    ...counts,
    fill: (words, chosen, allWord = 'all') => {
      let slot = 0;
      const object = (id: number) => (id === ALL ? allWord : phrase.get(id)!);
      return words.map((w) => (typeof w === 'string' ? w : w.kind === 'word' ? w.text : object(chosen[slot++]))).join(' ');
    },
  };
}

describe('PairPlan: the two-object candidates tried before any screen', () => {
  const ask: Template = { words: ['ask', OBJECT, 'for', OBJECT], held: [false, false] };
  const take: Template = { words: ['take', OBJECT, 'from', OBJECT], held: [false, false] };

  it('pairs what someone or something holds with its holder, in either slot', () => {
    const commands = new PairPlan(scopeWith([ask, take]), new Set(), []).first();
    expect(commands).toEqual(expect.arrayContaining(['ask cheryl for hologram', 'take hologram from cheryl', 'take cup from table']));
  });

  it('pairs everything with what the player holds, and no two loose things otherwise', () => {
    const commands = new PairPlan(scopeWith([ask]), new Set(), []).first();
    expect(commands).toEqual(expect.arrayContaining(['ask cheryl for coin', 'ask coin for table']));
    expect(commands).not.toContain('ask table for hologram');
    expect(commands).not.toContain('ask cheryl for cup');
  });
});

describe('PairPlan: screens of loose things', () => {
  const put: Template = { words: ['put', OBJECT, 'in', OBJECT], held: [false, false] };
  // The hologram and the cup can be carried and are not.
  const plan = () => {
    const p = new PairPlan(scopeWith([put]), new Set([2, 4]), []);
    return { plan: p, first: p.first() };
  };

  it('tries every loose thing in a container that took the one it was screened with', () => {
    const { plan: p, first } = plan();
    expect(first).toContain('put hologram in table');
    const second = p.second([
      {
        command: 'put hologram in table',
        diff: { moved: [{ object: 2, from: 1, to: 3 }], attributesSet: [], attributesCleared: [] },
        scoreDelta: 0,
        endsGame: false,
      },
    ]);
    expect(second).toEqual(expect.arrayContaining(['put cheryl in table']));
    expect(second).not.toContain('put hologram in table');
  });

  it('does not widen a screen that only took its partner', () => {
    const { plan: p } = plan();
    const second = p.second([
      {
        command: 'put hologram in table',
        diff: { moved: [{ object: 2, from: 1, to: 9 }], attributesSet: [], attributesCleared: [] },
        scoreDelta: 0,
        endsGame: false,
      },
    ]);
    expect(second).toEqual([]);
  });
});

describe('PairPlan: screens of things that cannot be carried, in a slot the grammar wants held', () => {
  // "open X with Y" wants Y held; only the coin (5) is carried, and nothing else can be.
  const open: Template = { words: ['open', OBJECT, 'with', OBJECT], held: [false, true] };
  const plan = () => {
    const p = new PairPlan(scopeWith([open]), new Set([5]), [], new Set([5]));
    return { plan: p, first: p.first() };
  };
  const hit = (command: string, touched: number[]) => ({
    command,
    diff: { moved: [], attributesSet: [], attributesCleared: [] },
    scoreDelta: 0,
    endsGame: false,
    touched,
  });

  it('tries each of them once in the held slot, with the thing carried', () => {
    const { first } = plan();
    expect(first).toEqual(expect.arrayContaining(['open coin with table', 'open coin with cheryl', 'open coin with cup']));
    expect(first).not.toContain('open cup with table');
  });

  it('tries one with every object where its screen operated on either of them, though nothing changed in the end', () => {
    // Enchanter: "open the map with the dusty book" marks the map touched, which it already was.
    const { plan: p } = plan();
    const second = p.second([hit('open coin with table', [5])]);
    expect(second).toEqual(expect.arrayContaining(['open cheryl with table', 'open hologram with table', 'open cup with table']));
    expect(second).not.toContain('open cheryl with cup');
  });

  it('does not widen a screen whose effect another candidate had: it did what a one-object command does', () => {
    const { plan: p } = plan();
    expect(p.second([{ ...hit('open coin with table', [5]), sharedEffect: true }])).toEqual([]);
  });

  it('does not widen a screen that operated only on something else (the parser on the player)', () => {
    const { plan: p } = plan();
    expect(p.second([hit('open coin with cup', [6, 6])])).toEqual([]);
  });
});

describe('PairPlan: the player is no screen partner', () => {
  it('screens with a loose thing, not with the one who holds what is held', () => {
    const put: Template = { words: ['put', OBJECT, 'in', OBJECT], held: [false, false] };
    const base = scopeWith([put]);
    // The player (6) holds the coin and, moved by every step, counts as portable.
    const parents = new Map([
      [2, 1],
      [4, 3],
      [5, 6],
    ]);
    const phrase = new Map([...base.phrase, [6, 'me']]);
    const scope: CandidateScope = {
      ...base,
      objects: [6, 1, 2, 3, 4, 5],
      phrase,
      parentOf: (id) => parents.get(id) ?? 0,
      fill: (words, chosen) => {
        let slot = 0;
        return words.map((w) => (typeof w === 'string' ? w : w.kind === 'word' ? w.text : phrase.get(chosen[slot++])!)).join(' ');
      },
    };
    const first = new PairPlan(scope, new Set([2, 4, 6]), []).first();
    expect(first).toContain('put hologram in table');
    expect(first).not.toContain('put me in table');
  });
});

describe('PairPlan: held things that nothing moves', () => {
  // The player holds a coin (5, dropped by "drop coin") and an arm (6, which nothing moves); "give X
  // to Y" looks for actors (attribute 9), and Cheryl (1) is one.
  const give: Template = {
    words: ['give', OBJECT, 'to', { ...OBJECT, find: 9 }],
    find: [undefined, 9],
    held: [false, false],
  };
  const base = scopeWith([give]);
  const phrase = new Map([...base.phrase, [6, 'arm']]);
  const scope: CandidateScope = {
    ...base,
    objects: [...base.objects, 6],
    phrase,
    held: new Set([5, 6]),
    hasAttribute: (id, attribute) => id === 1 && attribute === 9,
    fill: (words, chosen) => {
      let slot = 0;
      return words.map((w) => (typeof w === 'string' ? w : w.kind === 'word' ? w.text : phrase.get(chosen[slot++])!)).join(' ');
    },
  };

  it('pairs them only with what the slot looks for, and what is moved with everything', () => {
    const first = new PairPlan(scope, new Set([5]), [], new Set([5])).first();
    expect(first).toEqual(expect.arrayContaining(['give arm to cheryl', 'give coin to cheryl', 'give coin to table']));
    expect(first).not.toContain('give arm to table');
  });
});

describe('PairPlan: counts where "all" goes', () => {
  const put: Template = { words: ['put', OBJECT, 'in', OBJECT], allWords: ['put', OBJECT, 'in', OBJECT], held: [false, false] };
  const counts = { countWords: ['two'], heldCounts: ['three', 'four'], pluralWords: [] };

  it('tries the counts of things held in a second object only where its "all" did something', () => {
    const plan = new PairPlan(scopeWith([put], counts), new Set(), []);
    const first = plan.first();
    expect(first).toEqual(expect.arrayContaining(['put all in table', 'put two in table', 'put all in cup']));
    expect(first).not.toContain('put three in table');
    const second = plan.second([
      {
        command: 'put all in table',
        diff: { moved: [{ object: 5, from: 0, to: 3 }], attributesSet: [], attributesCleared: [] },
        scoreDelta: 0,
        endsGame: false,
      },
    ]);
    expect(second).toEqual(expect.arrayContaining(['put three in table', 'put four in table']));
    expect(second).not.toContain('put three in cup');
  });
});
