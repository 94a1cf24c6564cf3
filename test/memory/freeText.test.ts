/**
 * The models' free text is screened before it becomes memory: digits, JSON fragments and echoes of
 * the prompt (what gemma3-270m wrote into `grue memory` on a first run) are rejected, counted in
 * the module's stats, and never shown.
 */
import { compactionModule } from '../../src/memory/compaction';
import { COMPACTION_SYSTEM_PROMPT } from '../../src/memory/compaction/prompt';
import type { TurnView } from '../../src/memory';
import { knowledgeModule } from '../../src/memory/knowledge';
import { mergeItems } from '../../src/memory/knowledge/layers';
import { KNOWLEDGE_INSTRUCTIONS } from '../../src/memory/knowledge/prompt';
import type { ItemAnswer } from '../../src/memory/knowledge/schema';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import { notWords } from '../../src/text';

const JUNK_STORY = '>1000000000000000000000000000000000';
const JUNK_SCENE = '}, { 1000000000000000';

describe('notWords', () => {
  it.each([
    [JUNK_STORY, 'a run of one character'],
    [JUNK_SCENE, 'a run of one character'],
    ['}, { "name": "lamp"', 'a JSON fragment'],
    ['"summary": "went north"', 'a JSON fragment'],
    ['12 34 56 78 x', 'mostly not letters'],
    ['>>> 42', 'mostly not letters'],
  ])('rejects %j (%s)', (text, reason) => {
    expect(notWords(text)).toBe(reason);
  });

  it('accepts what reads as words, and empty text (nothing to say)', () => {
    for (const text of ['', 'You climbed the lighthouse stairs and lit the lamp.', 'asleep', 'Score 10 after opening the door (2 moves).'])
      expect(notWords(text)).toBeNull();
  });

  it('rejects an echo of the instructions, not text that merely shares a few words with them', () => {
    expect(notWords('Read the NEW TURNS and call the tools to record what they show', [COMPACTION_SYSTEM_PROMPT])).toBe(
      'an echo of the prompt',
    );
    expect(notWords('what happened in these turns', ['what happened in these turns'])).toBe('an echo of the prompt');
    expect(notWords('You record the rooms of the lighthouse as you climb', [COMPACTION_SYSTEM_PROMPT])).toBeNull();
  });
});

const config = resolveEpisodeConfig({ game: 'test', policy: 'full', compactEvery: 1 });
const view = (turn: number): TurnView => ({
  turn,
  command: turn ? 'north' : null,
  before: null,
  truth: { score: 0, moves: turn, location: { id: 1, name: 'Beach' }, inventory: [], done: false, victory: false, died: false },
  observation: 'Beach. Waves roll in.',
  worldHash: `h${turn}`,
  snapshot: 's',
  storyMd5: '0'.repeat(32),
  goal: 'unknown',
  ending: false,
});

describe('the compaction module screens free text', () => {
  it('rejects a story and a scene that are not words, counts them, and never shows them', () => {
    const state = compactionModule.observe(compactionModule.initial(undefined, config), view(1));
    const work = compactionModule.due(state, view(1))!;
    const scene = (summary: string, narrative: string) => ({
      tool: 'record_scene',
      arguments: { from_turn: 1, to_turn: 1, summary, outcome: '', narrative },
    });
    const result = {
      calls: [
        scene('walked north to the beach', JUNK_STORY),
        scene(JUNK_SCENE, ''),
        { tool: 'update_location', arguments: { name: 'Beach', description: 'waves roll in on the sand', exits: [], features: [] } },
      ],
      invalid: [],
      usage: { calls: 1, promptTokens: 10, completionTokens: 10 },
    };
    const applied = compactionModule.apply(state, result, view(1), work);
    expect(applied.stats).toMatchObject({ rejectedText: 2, rejectedUpdates: 2, appliedUpdates: 1 });
    const shown = compactionModule.describe(applied);
    expect(shown).toContain('waves roll in on the sand');
    expect(shown).not.toMatch(/10000|\}, \{/);
    expect(shown).toMatch(/2 rejected as not words/);
  });
});

describe('the knowledge module screens free text', () => {
  const answer = (text: string): ItemAnswer => ({
    layer: 'PRINCIPLE',
    text,
    confidence: 0.8,
    keywords: [],
    room: '',
    verify_commands: [],
    verify_expect: '',
    replaces: '',
  });
  const window = { startTurn: 1, endTurn: 1, actions: [], deaths: [], scoreChanges: [], locationChanges: [] };

  it('drops facts and insights that are not words, and counts them apart from the ones it ignores', () => {
    const merged = mergeItems(
      [],
      [
        answer(JUNK_STORY),
        answer(JUNK_SCENE),
        answer('Focus on preserving specific, actionable facts from the gameplay'),
        answer('Light the lamp before the stairs'),
      ],
      1,
      { turn: 1, rooms: [], window, source: 'wisdom', instructions: KNOWLEDGE_INSTRUCTIONS },
    );
    expect(merged.items.map((i) => i.text)).toEqual(['Light the lamp before the stairs']);
    expect(merged).toMatchObject({ added: 1, ignored: 0, rejectedText: 3 });
  });

  it('reports the count in its description', () => {
    const state = knowledgeModule.initial(undefined, config);
    expect(knowledgeModule.describe(state)).toMatch(/0 answers rejected as not words/);
  });
});
