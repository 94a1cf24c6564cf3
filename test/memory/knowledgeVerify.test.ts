/** Verification by the engine: facts replayed in Zork I from a snapshot of their room, judged by `effectHolds`, and the verdicts applied. No LLM is called. */
import { ApplicationFailure } from '@temporalio/common';
import { createKnowledgeActivities } from '../../src/activities/knowledge';
import { StorySessions } from '../../src/activities/stories';
import { GameSession } from '../../src/engine/session';
import type { LlmProvider } from '../../src/llm';
import type { KnowledgeItem, VerifyRequest } from '../../src/memory/knowledge';
import { applyVerdicts, effectHolds } from '../../src/memory/knowledge/verify';
import { describeWithGame } from '../helpers';

/** West of House to the Living Room (the start of bench/routes.ts ZORK_ROUTE, without opening the sack). */
const TO_LIVING_ROOM = ['north', 'east', 'open window', 'enter house', 'west'];

const noLlm = (): LlmProvider => {
  throw new Error('verification must not ask an LLM');
};

const fact = (id: string, verification: KnowledgeItem['verification'], confidence = 0.6): KnowledgeItem => ({
  id,
  layer: 'IMPL',
  text: `fact ${id}`,
  confidence,
  source: 'observation',
  verification,
  keywords: [],
  dependencies: [],
  room: 'Living Room',
  lastSeenTrue: 5,
  lastVerifiedTurn: null,
});

describe('effectHolds', () => {
  it('holds when most of the expected words are in the response, in any case', () => {
    expect(
      effectHolds(
        'trap door',
        'With a great effort, the rug is moved to one side of the room, revealing the dusty cover of a closed trap door.',
      ),
    ).toBe(true);
    expect(effectHolds('Trap Door', 'THE TRAP DOOR IS CLOSED.')).toBe(true);
    expect(effectHolds('Taken', 'Taken.')).toBe(true);
    // 3 of 4 content words (75%) is enough; 2 of 4 (50%) is not.
    expect(effectHolds('brass lantern trophy case', 'A brass lantern is on the trophy table.')).toBe(true);
    expect(effectHolds('brass lantern trophy case', 'A brass lantern is on the table.')).toBe(false);
  });

  it('does not hold when the words are missing', () => {
    expect(effectHolds('gold coins', 'I don\'t know the word "sofa".')).toBe(false);
    expect(effectHolds('staircase', 'The door is nailed shut.')).toBe(false);
    expect(effectHolds('trap door', '')).toBe(false);
  });

  it('needs a phrase without content words as written', () => {
    expect(effectHolds('Ok.', 'Ok.')).toBe(true);
    expect(effectHolds('Ok.', 'Okay then')).toBe(false);
  });

  it('does not take a refusal that only echoes the command for the effect', () => {
    expect(effectHolds('gold coins', "You can't see any gold coins here!")).toBe(false);
    expect(effectHolds('trap door', "You can't see any trap door here!")).toBe(false);
    expect(effectHolds('sofa', 'I don\'t know the word "sofa".')).toBe(false);
    // Unless the refusal is the fact: there is no such thing here.
    expect(effectHolds("you can't see any gold coins", "You can't see any gold coins here!")).toBe(true);
  });
});

describeWithGame('zork1.z3', 'verifyKnowledge on Zork I', (zork) => {
  let md5: string;
  let livingRoom: string;
  const activities = createKnowledgeActivities(noLlm, new StorySessions());
  const verify = (checks: VerifyRequest['checks'], storyMd5 = md5) => activities.verifyKnowledge({ game: zork, storyMd5, checks });

  beforeAll(() => {
    const session = GameSession.fromFile(zork);
    for (const command of TO_LIVING_ROOM) session.step(command);
    expect(session.location.name).toBe('Living Room');
    md5 = session.story.md5;
    livingRoom = Buffer.from(session.snapshot()).toString('base64');
  });

  it('passes a true fact and fails a false one, each replayed from the snapshot of its room', async () => {
    const { results } = await verify([
      { id: 'k1', snapshot: livingRoom, verification: { commands: ['move rug'], expect: 'trap door' } },
      { id: 'k2', snapshot: livingRoom, verification: { commands: ['look under sofa'], expect: 'gold coins' } },
      // The echo of the noun is no evidence: there are no gold coins here.
      { id: 'k3', snapshot: livingRoom, verification: { commands: ['take gold coins'], expect: 'gold coins' } },
      // Each check starts from the snapshot: the rug moved by k1 is unmoved again for k4.
      { id: 'k4', snapshot: livingRoom, verification: { commands: ['move rug', 'open trap door'], expect: 'rickety staircase' } },
    ]);
    expect(results.map((r) => [r.id, r.passed])).toEqual([
      ['k1', true],
      ['k2', false],
      ['k3', false],
      ['k4', true],
    ]);
    expect(results[0].response).toMatch(/closed trap door/);
    expect(results[2].response).toBe("You can't see any gold coins here!");

    const items = [
      fact('k1', { commands: ['move rug'], expect: 'trap door' }),
      fact('k2', { commands: ['look under sofa'], expect: 'gold coins' }, 0.7),
    ];
    const applied = applyVerdicts(items, { results }, 12);
    expect(applied).toMatchObject({ verified: 1, refuted: 1 });
    expect(applied.items[0]).toMatchObject({ source: 'engine-verified', confidence: 0.8, lastSeenTrue: 12, lastVerifiedTurn: 12 });
    expect(applied.items[1]).toMatchObject({ source: 'observation', confidence: 0.35, lastSeenTrue: 5, lastVerifiedTurn: 12 });
  });

  it('fails a check whose command the engine refuses, without failing the activity', async () => {
    const { results } = await verify([
      { id: 'k1', snapshot: livingRoom, verification: { commands: ['move\u0007rug'], expect: 'trap door' } },
      { id: 'k2', snapshot: livingRoom, verification: { commands: ['move rug'], expect: 'trap door' } },
    ]);
    expect(results[0].passed).toBe(false);
    expect(results[0].response).toMatch(/^refused: Command contains a non-printable/);
    expect(results[1].passed).toBe(true);
  });

  it('refuses a story file that is not the one the episode started with, and an invalid request, for good', async () => {
    const mismatch = await verify(
      [{ id: 'k1', snapshot: livingRoom, verification: { commands: ['move rug'], expect: 'trap door' } }],
      '0'.repeat(32),
    ).catch((e: unknown) => e);
    expect(mismatch).toBeInstanceOf(ApplicationFailure);
    expect(mismatch).toMatchObject({ type: 'StoryMismatch', nonRetryable: true });
    const tooLong = await verify([
      { id: 'k1', snapshot: livingRoom, verification: { commands: ['x'.repeat(300)], expect: 'trap door' } },
    ]).catch((e: unknown) => e);
    expect(tooLong).toMatchObject({ type: 'InvalidInput', nonRetryable: true });
  });
});
