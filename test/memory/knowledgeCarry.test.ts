/**
 * The knowledge state travels in every continue-as-new and into the next episode's input, so its
 * worst case is bounded: a base compressed to the largest `--knowledge-kb`, the largest window
 * of long responses, every room snapshot and the wisdom stay within 30 KB of the 64 KB carry (measured: about 29 KB).
 */
import { GameSession } from '../../src/engine/session';
import { jsonBytes } from '../../src/agent/state';
import { knowledgeModule, KnowledgeState, LIMITS, UpdateResult } from '../../src/memory/knowledge';
import type { TurnView } from '../../src/memory';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { describeWithGame } from '../helpers';

/** Letters for a number: distinct content words that share nothing with the prompt's guide. */
const letters = (n: number) =>
  n
    .toString(26)
    .split('')
    .map((d) => String.fromCharCode(97 + parseInt(d, 26)))
    .join('');
const words = (n: number, seed: number) => Array.from({ length: n }, (_, j) => `zq${letters(seed)}v${letters(j)}`).join(' ');

describeWithGame('zork1.z3', 'the knowledge state at its limits', (zork) => {
  it('stays within 12 KB of JSON per part and 30 KB in all at --knowledge-kb 8 with every limit full', () => {
    const config = resolveEpisodeConfig({ game: zork, policy: 'full', knowledgeEvery: 20, knowledgeKb: 8 });
    const session = GameSession.fromFile(zork, { seed: 1 });
    const snapshot = Buffer.from(session.snapshot()).toString('base64');
    const m = knowledgeModule;
    let state: KnowledgeState = m.initial(undefined, config);
    let before = session.groundTruth();
    // Many rooms, long responses: every bound is reached.
    for (let turn = 1; turn <= 60; turn++) {
      const truth = { ...before, location: { id: turn, name: `Room ${turn}` }, score: turn };
      const view: TurnView = {
        turn,
        command: `go ${turn}`,
        before,
        truth,
        observation: `Room ${turn}. ${words(80, turn)}`,
        worldHash: `h${turn}`,
        snapshot,
        storyMd5: session.story.md5,
        goal: 'win',
        ending: false,
      };
      state = m.observe(state, view);
      before = truth;
    }
    expect(state.window.actions).toHaveLength(LIMITS.windowActions);
    expect(Object.keys(state.anchors)).toHaveLength(LIMITS.anchors);
    // An update of many long, distinct, grounded items: compression holds the base to 12 KB.
    const view = {
      turn: 60,
      command: 'go 60',
      before,
      truth: before,
      observation: '',
      worldHash: 'h',
      snapshot,
      storyMd5: session.story.md5,
      goal: '',
      ending: false,
    };
    for (let round = 0; round < 15; round++) {
      const items = Array.from({ length: 8 }, (_, i) => ({
        layer: 'IMPL' as const,
        text: `Room ${60 - i} ${words(30, round * 8 + i)}`.slice(0, LIMITS.text),
        confidence: 0.9,
        keywords: Array.from({ length: LIMITS.keywords }, (_, k) => `keyword${letters(k)}v${letters(round)}v${letters(i)}`),
        room: `Room ${60 - i}`,
        verify_commands: ['look', 'examine thing', 'go north'],
        verify_expect: words(10, i).slice(0, LIMITS.expect),
        replaces: '',
      }));
      // The turns showed what the items say (the screen keeps only such items).
      state = m.observe(state, { ...view, turn: 60 + round, command: 'look', observation: items.map((item) => item.text).join(' ') });
      const result: UpdateResult = { answer: { items }, usage: { calls: 1, promptTokens: 1, completionTokens: 1 }, seconds: 1 };
      state = m.apply({ ...state, pending: { reason: 'test', final: false } }, result, view, {
        activity: 'updateKnowledge',
        request: null,
      });
    }
    const wisdom = {
      answer: {
        insights: Array.from({ length: LIMITS.wisdom }, (_, i) => ({
          layer: 'META' as const,
          text: `Room ${i} ${words(30, 900 + i)}`.slice(0, LIMITS.text),
          keywords: [],
        })),
      },
      usage: { calls: 1, promptTokens: 1, completionTokens: 1 },
      seconds: 1,
    };
    state = m.apply(state, wisdom, { ...view, ending: true }, { activity: 'synthesizeWisdom', request: null });
    // The window is refilled after the update cleared it.
    for (let turn = 61; turn <= 90; turn++)
      state = m.observe(state, { ...view, turn, command: `go ${turn}`, observation: words(80, turn) });

    const parts = {
      items: jsonBytes(state.items),
      window: jsonBytes(state.window),
      anchors: jsonBytes(state.anchors),
      wisdom: jsonBytes(state.wisdom),
      updates: jsonBytes(state.updates),
    };

    console.log(`knowledge state at its limits (bytes): ${JSON.stringify({ ...parts, total: jsonBytes(state) })}`);
    expect(state.items.length).toBeGreaterThan(10);
    for (const bytes of Object.values(parts)) expect(bytes).toBeLessThanOrEqual(12 * 1024);
    expect(jsonBytes(state)).toBeLessThanOrEqual(30 * 1024);
  });
});
