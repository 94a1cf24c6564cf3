/**
 * Advice under `none`: with no list to match against, what the oracle recommends or a thought
 * concludes is typed as a player would type it — but only when it is a command. A small model
 * fills its fields with placeholders ("unknown") and its conclusions with punctuation (","), and
 * typing those spends a turn on nothing.
 */
import { freshLearned } from '../../src/agent/learned';
import { createRng } from '../../src/agent/rng';
import { initialState } from '../../src/agent/state';
import { openSession, applyAnswer } from '../../src/agent/thoughtbox';
import { decide, deliberate } from '../../src/agent/turn';
import { namesCommand } from '../../src/agent/advice';
import { initialMemory } from '../../src/memory/runner';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import type { StartGameResult } from '../../src/schemas/game';
import { analysis } from './fixtures';

const NO_USAGE = { calls: 1, promptTokens: 10, completionTokens: 5 };
const config = resolveEpisodeConfig({ game: 't', policy: 'full', assist: 'none', thoughtbox: 'auto' });
const start: StartGameResult = {
  observation: 'You are in a dusty hall. A lamp lies on the floor.',
  truth: { score: 0, moves: 0, location: { id: 1, name: 'Hall' }, inventory: [], done: false, victory: false, died: false },
  worldHash: 'h-start',
  snapshot: 's',
  options: [],
  commands: [],
  nouns: ['lamp', 'hall'],
  storyMd5: '0'.repeat(32),
  storyName: 'test',
  maxScore: 10,
  lexicon: { directions: ['north', 'south'], templates: ['take $', 'open $', 'jump'] },
};
const sure = { tried: 50, helped: 50 };

/** A fresh agent that trusts its advice fully, with or without the patch. */
function agent(typesOnlyCommands: boolean) {
  const state = initialState(start, freshLearned(), 1, initialMemory(freshLearned(), config));
  const learned = { ...state.learned, reliability: { ...state.learned.reliability, recommendation: sure, thought: sure, other: sure } };
  return { ...state, learned, typesOnlyCommands };
}

const answers = (recommended: string) => ({
  turn: { answer: analysis({ recommended_action: recommended, alternative_actions: [] }), usage: NO_USAGE },
  failure: null,
});

function decideWith(typesOnlyCommands: boolean, recommended: string, conclusion: string | null = null) {
  const state = agent(typesOnlyCommands);
  const deliberation = deliberate(state, config, createRng(1));
  if (deliberation.kind !== 'ask') throw new Error(`expected the oracle to be asked, got ${deliberation.kind}`);
  const session = conclusion
    ? applyAnswer(
        openSession(0, 'always', true, 3),
        { kind: 'step', step: { thought: 't', thoughtNumber: 1, totalThoughts: 1, nextThoughtNeeded: false, action: conclusion } },
        NO_USAGE,
        [],
      )
    : null;
  return decide(state, config, createRng(1), deliberation, answers(recommended), session);
}

describe('advice under none', () => {
  it("tells a command (a menu's number too) from a placeholder, punctuation or a sentence about the game", () => {
    for (const command of ['take lamp', 'n', 'x lamp', 'go north', '2', 'i', 'no', 'open the door', 'attack troll with sword'])
      expect(namesCommand(command)).toBe(true);
    for (const text of [
      'unknown',
      'none',
      'nothing',
      'n a',
      'null',
      ',',
      '- -',
      "'",
      'the last action made progress',
      'you are in bed',
      'not yet',
      'tbox' + 'tox'.repeat(10),
    ])
      expect(namesCommand(text)).toBe(false);
  });

  it('types a recommendation that is a command', () => {
    expect(decideWith(true, 'take the lamp')).toMatchObject({ command: 'take the lamp', reason: 'recommended' });
  });

  it('does not type a placeholder recommendation ("unknown"): the explorer moves instead', () => {
    const decision = decideWith(true, 'unknown');
    expect(decision.command).not.toBe('unknown');
    expect(decision.reason).not.toBe('recommended');
    // Before the patch, a run replays as it was played: the placeholder was typed.
    expect(decideWith(false, 'unknown')).toMatchObject({ command: 'unknown', reason: 'recommended' });
  });

  it('does not type advice naming a word the parser did not know: the explorer strikes it too', () => {
    const struck = (typesOnlyCommands: boolean) => {
      const state = agent(typesOnlyCommands);
      return { ...state, typing: { ...state.typing!, refused: ['*|tboxto'] } };
    };
    const decideOn = (typesOnlyCommands: boolean) => {
      const state = struck(typesOnlyCommands);
      const deliberation = deliberate(state, config, createRng(1));
      if (deliberation.kind !== 'ask') throw new Error(`expected the oracle to be asked, got ${deliberation.kind}`);
      return decide(state, config, createRng(1), deliberation, answers('tboxto'), null);
    };
    expect(decideOn(true).command).not.toBe('tboxto');
    expect(decideOn(false)).toMatchObject({ command: 'tboxto', reason: 'recommended' });
  });

  it('does not type a conclusion that is punctuation (","), and takes the recommendation after it', () => {
    expect(decideWith(true, 'take the lamp', ',')).toMatchObject({ command: 'take the lamp', reason: 'recommended' });
    expect(decideWith(false, 'take the lamp', ',')).toMatchObject({ command: ',', reason: 'thought' });
  });
});
