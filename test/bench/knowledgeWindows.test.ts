/**
 * The deterministic parts of `npm run eval:knowledge` (no LLM): the recorded Zork I windows,
 * the snapshot an IMPL item is replayed from, the specificity test, and the three-stage
 * baseline's prompts (stage 3 must not see the turns).
 */
import {
  checksFor,
  isSpecific,
  KNOWLEDGE_ROUTE,
  namesIn,
  recordWindows,
  Recording,
  snapshotFor,
  specificity,
  StoryNames,
  storyNames,
  WINDOW_TURNS,
} from '../../eval/knowledgeWindows';
import { assessPrompt, createBasePrompt, insightsPrompt } from '../../eval/threeStage';
import { createKnowledgeActivities } from '../../src/activities/knowledge';
import { StorySessions } from '../../src/activities/stories';
import { GameSession } from '../../src/engine/session';
import type { KnowledgeItem, TurnWindow, UpdateRequest } from '../../src/memory/knowledge/schema';
import { describeWithGame } from '../helpers';

const impl = (id: string, room: string | null, commands: string[], expect: string): KnowledgeItem => ({
  id,
  layer: 'IMPL',
  text: `fact ${id}`,
  confidence: 0.8,
  source: 'observation',
  verification: { commands, expect },
  keywords: [],
  dependencies: [],
  room,
  lastSeenTrue: 10,
  lastVerifiedTurn: null,
});

describeWithGame('zork1.z3', 'eval:knowledge recorded windows', (story) => {
  let recording: Recording;
  let names: StoryNames;
  beforeAll(() => {
    recording = recordWindows(story);
    names = storyNames(GameSession.fromFile(story));
  });

  it('cuts the route into full windows of 10 turns, played in the engine', () => {
    expect(KNOWLEDGE_ROUTE.length).toBeGreaterThanOrEqual(40);
    expect(recording.windows.length).toBe(Math.ceil(KNOWLEDGE_ROUTE.length / WINDOW_TURNS));
    expect(recording.windows.length).toBeGreaterThanOrEqual(4);
    recording.windows.forEach((w, i) => {
      expect({ start: w.window.startTurn, end: w.window.endTurn, actions: w.window.actions.length }).toEqual({
        start: i * WINDOW_TURNS + 1,
        end: (i + 1) * WINDOW_TURNS,
        actions: WINDOW_TURNS,
      });
      expect(w.states.map((s) => s.turn)).toEqual(Array.from({ length: WINDOW_TURNS + 1 }, (_, k) => i * WINDOW_TURNS + k));
    });
    expect(recording.windows.map((w) => w.final)).toEqual(recording.windows.map((_, i) => i === recording.windows.length - 1));
    expect(recording.windows[0].window.actions[6]).toMatchObject({ action: 'take lamp', location: 'Living Room' });
  });

  it('is the same every run', () => {
    const again = recordWindows(story);
    expect(again.windows.map((w) => w.window)).toEqual(recording.windows.map((w) => w.window));
  });

  it('contains a death: the grue in the dark Round Room, which the seed-000 gate always processes', () => {
    const deaths = recording.windows.flatMap((w) => w.window.deaths.map((d) => ({ window: w.index, ...d })));
    expect(deaths.length).toBeGreaterThanOrEqual(1);
    expect(deaths[0]).toMatchObject({ action: 'north', location: 'Round Room' });
    expect(deaths[0].reason).toMatch(/grue/);
    expect(recording.windows[deaths[0].window].gate).toEqual({ update: true, reason: 'Contains 1 death event(s)' });
  });

  it('replays an item from the first snapshot of the window in its room, else the window start', () => {
    const first = recording.windows[0];
    const living = snapshotFor(first, 'living room');
    expect(living).toMatchObject({ turn: 6, location: 'Living Room' });
    expect(snapshotFor(first, null)).toBe(first.states[0]);
    expect(snapshotFor(first, 'Troll Room')).toBe(first.states[0]);
    const session = GameSession.fromFile(story);
    session.restore(Buffer.from(living.snapshot, 'base64'));
    expect(session.groundTruth().location.name).toBe('Living Room');
  });

  it('verifies IMPL items through the real verifyKnowledge activity', async () => {
    const activities = createKnowledgeActivities(() => {
      throw new Error('no LLM in this test');
    }, new StorySessions());
    const items = [
      impl('k1', 'Living Room', ['move rug'], 'trap door'),
      impl('k2', 'Living Room', ['move rug'], 'a sleeping unicorn'),
      { ...impl('k3', null, ['look'], 'x'), verification: null },
    ];
    const checks = checksFor(items, recording.windows[0]);
    expect(checks.map((c) => c.id)).toEqual(['k1', 'k2']);
    const { results } = await activities.verifyKnowledge({ game: story, storyMd5: recording.storyMd5, checks });
    expect(results.map((r) => [r.id, r.passed])).toEqual([
      ['k1', true],
      ['k2', false],
    ]);
  });

  it('specificity counts a real object or room of the story, not a made-up or generic one', () => {
    const item = (text: string, keywords: string[] = []) => ({ text, keywords });
    expect(isSpecific(item('The brass lantern lights the Cellar'), names)).toBe(true);
    expect(isSpecific(item('Move the rug to find the trap door'), names)).toBe(true);
    expect(isSpecific(item('Always carry a light', ['mailbox']), names)).toBe(true);
    expect(isSpecific(item('The quantum frobnicator hums softly'), names)).toBe(false);
    expect(isSpecific(item('Explore every room and examine objects before moving on'), names)).toBe(false);
    // "contai" (the bottle's truncated noun) is not the word "contains".
    expect(namesIn('it contains nothing useful', names)).toEqual([]);
    expect(namesIn('Troll Room', names)).toEqual(expect.arrayContaining(['troll room', 'troll']));
    expect(specificity([item('A grue lurks in the dark'), item('The quantum frobnicator hums softly')], names)).toBe(0.5);
    expect(specificity([], names)).toBe(0);
  });
});

describe('eval/threeStage prompts', () => {
  const window: TurnWindow = {
    startTurn: 1,
    endTurn: 3,
    actions: [
      { turn: 1, action: 'open mailbox', response: 'Opening the small mailbox reveals a leaflet.', location: 'West of House' },
      { turn: 2, action: 'take leaflet', response: 'Taken.', location: 'West of House' },
      { turn: 3, action: 'north', response: 'North of House', location: 'North of House' },
    ],
    deaths: [],
    scoreChanges: [],
    locationChanges: [{ turn: 3, from: 'West of House', to: 'North of House' }],
  };
  const request: UpdateRequest = { game: 'zork1', episode: 0, window, existing: [], wisdom: [], final: false, seed: 3 };
  const text = (messages: { content: string }[]) => messages.map((m) => m.content).join('\n');

  it('stages 1 and 2 see the formatted window', () => {
    expect(text(assessPrompt(request, 1250))).toContain('Turn 1: open mailbox');
    expect(text(insightsPrompt(request, 1250, 6))).toContain('Opening the small mailbox reveals a leaflet.');
  });

  it('stage 3 sees only the insights and the existing base, never the turns', () => {
    const prompt = text(
      createBasePrompt('zork1', ['Reading things gives information'], [impl('k1', 'Living Room', ['move rug'], 'trap door')], 1250),
    );
    expect(prompt).toContain('- Reading things gives information');
    expect(prompt).toContain('k1 [IMPL 0.8] fact k1 (Living Room)');
    expect(prompt).not.toContain('GAMEPLAY LOG');
    expect(prompt).not.toContain('mailbox');
  });
});
