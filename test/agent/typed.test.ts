/**
 * The `none` explorer with the story's lexicon: commands from the grammar's shapes and the nouns
 * the replies name, tried in the order the prior learned, the parser's refusals struck out, and a
 * walk back to a room with promising moves once the room is spent.
 */
import { join } from 'node:path';
import { freshLearned } from '../../src/agent/learned';
import { createRng } from '../../src/agent/rng';
import { initialState } from '../../src/agent/state';
import { decide, deliberate, learn } from '../../src/agent/turn';
import {
  ambiguousWords,
  askedFirst,
  listedNouns,
  menuChoices,
  namedDirections,
  refusedWords,
  wholeExits,
} from '../../src/agent/replyReading';
import { typedCommands, typedContext } from '../../src/agent/typed';
import { learnTyping, startTyping } from '../../src/agent/typing';
import { inWorldCommands } from '../../src/engine/outOfWorld';
import { DEFAULT_VERB_PRIOR, FIRST_VERB_PRIOR, VerbPrior, worthOfShapes } from '../../src/agent/verbPrior';
import { replyNouns, storyLexicon } from '../../src/engine/lexicon';
import { GameSession } from '../../src/engine/session';
import { resolveEpisodeConfig } from '../../src/schemas/episode';
import type { GameState, Lexicon, StartGameResult } from '../../src/schemas/game';
import { GAME_FILES } from '../helpers';

const LEXICON: Lexicon = {
  directions: ['north', 'south'],
  templates: ['take $', 'eat $', 'open $', 'unlock $ with $', 'take all', 'jump'],
};
const PRIOR: VerbPrior = {
  about: 'test',
  learnedFrom: [],
  shapes: {
    'take $': { tries: 100, gains: 40, deaths: 0 },
    'eat $': { tries: 100, gains: 1, deaths: 0 },
    north: { tries: 100, gains: 30, deaths: 0 },
    south: { tries: 100, gains: 30, deaths: 0 },
    'take all': { tries: 100, gains: 20, deaths: 0 },
    'open $': { tries: 100, gains: 5, deaths: 0 },
    jump: { tries: 100, gains: 0, deaths: 10 },
    'unlock $ with $': { tries: 100, gains: 10, deaths: 0 },
  },
};
const config = resolveEpisodeConfig({ game: 'x', policy: 'oracle-free', assist: 'none' });

const truth = (room: number, name: string, inventory: Array<{ id: number; name: string }> = []) => ({
  score: 0,
  moves: 0,
  location: { id: room, name },
  inventory,
  done: false,
  victory: false,
  died: false,
});

function started(observation: string, nouns: string[]): StartGameResult {
  const at: GameState = { observation, truth: truth(1, 'Hall'), worldHash: 'w0', snapshot: 's', options: [], commands: [], nouns };
  return { ...at, storyMd5: '0'.repeat(32), storyName: 'test', maxScore: 10, lexicon: LEXICON, shapeWorth: worthOfShapes(PRIOR, LEXICON) };
}

/** The step a command made in the hall (room 1): its reply, the nouns the reply named, the world's hash. */
const stepIn = (command: string, observation: string, nouns: string[] = [], worldHash = 'w0') => ({
  command,
  observation,
  truth: truth(1, 'Hall'),
  worldHash,
  snapshot: 's',
  options: [],
  commands: [],
  nouns,
});

const turn = (state: ReturnType<typeof initialState>) => {
  const rng = createRng(state.rngState);
  const decision = decide(state, config, rng, deliberate(state, config, rng, []), null);
  return { decision, rng };
};

describe('typed commands under none', () => {
  it('fills the grammar shapes with the nouns named and the things carried, the best shape first', () => {
    const typed = typedCommands({
      lexicon: LEXICON,
      replyNouns: ['chest', 'door'],
      roomNouns: [],
      carried: ['small brass key'],
      refused: new Set(['door']),
      worth: { 'take $': 0.4, 'eat $': 0.01, 'unlock $ with $': 0.1, north: 0.3 },
      unknownWorth: 0.05,
    }).map((c) => c.command);
    expect(typed[0]).toBe('take chest');
    expect(typed).toContain('unlock key with chest');
    expect(typed).toContain('take key');
    expect(typed.some((c) => c.includes('door'))).toBe(false);
    expect(typed.indexOf('eat chest')).toBeGreaterThan(typed.indexOf('north'));
  });

  it('the explorer takes the most promising untried command, not a compass guess (as it did from the reply alone)', () => {
    const state = initialState(started('A wooden chest sits here.', ['chest']), freshLearned(), 7, {});
    expect(turn(state).decision.command).toBe('take chest');
  });

  it('a noun the parser says is not here is not tried again in that room', () => {
    const state = initialState(started('You see a lamp and a chest.', ['lamp', 'chest']), freshLearned(), 7, {});
    const { decision, rng } = turn(state);
    const refusedNoun = decision.command.split(' ')[1];
    const step = stepIn(decision.command, "You can't see any such thing.");
    const after = learn(state, config, decision, step, rng, []);
    const next = turn(after).decision.command;
    expect(next.split(' ')).not.toContain(refusedNoun);
  });

  it('goes through an exit the room names before typing commands there, and still knows it after other replies', () => {
    const state = initialState(
      started('The hall is bare but for a wooden chest. A passage leads south.', ['chest']),
      freshLearned(),
      7,
      {},
    );
    const { decision, rng } = turn(state);
    expect(decision.command).toBe('south');
    // Back in the hall after a reply that names no exit, the exit named on arrival is still the hall's.
    const stay = { ...decision, command: 'take chest' };
    const step = stepIn('take chest', 'Taken.', [], 'w1');
    expect(turn(learn(state, config, stay, step, rng, [])).decision.command).toBe('south');
    // A state carried from before the explorer read exits keeps the order it was played with.
    expect(turn({ ...state, readsExits: false }).decision.command).toBe('take chest');
  });

  it('takes what the room lists apart from its description before walking its exits', () => {
    const observation = 'A hall. A passage leads south.\nThere is a brass lamp here.';
    const state = initialState(started(observation, ['hall', 'lamp']), freshLearned(), 7, {});
    const { decision } = turn(state);
    expect(decision.command).toBe('take lamp');
    expect(decision.why).toMatch(/lists it apart/);
    // A state carried from before the explorer took what is listed keeps the order it was played with.
    expect(turn({ ...state, takesListed: false }).decision.command).toBe('south');
    // Once carried, it is not taken again.
    const carrying = { ...state, truth: truth(1, 'Hall', [{ id: 5, name: 'brass lamp' }]) };
    expect(turn(carrying).decision.command).toBe('south');
  });

  it('opens a listed thing that would not be taken, before walking on', () => {
    const state = initialState(
      started('A hall. A passage leads south.\nThere is a small mailbox here.', ['hall', 'mailbox']),
      freshLearned(),
      7,
      {},
    );
    const { decision, rng } = turn(state);
    expect(decision.command).toBe('take mailbox');
    const step = stepIn('take mailbox', 'It is securely anchored.');
    expect(turn(learn(state, config, decision, step, rng, [])).decision.command).toBe('open mailbox');
  });

  it('strikes a verb the parser refused alike on two things, not one that refused the thing', () => {
    const nouns = ['apple', 'stone', 'chair', 'lamp', 'bell'];
    let state = initialState(started('A hall.', nouns), freshLearned(), 7, {});
    const play = (command: string, observation: string) => {
      const { decision, rng } = turn(state);
      const step = stepIn(command, observation, nouns);
      state = learn(state, config, { ...decision, command }, step, rng, []);
    };
    const typedHere = (strikesShapes: boolean) =>
      typedCommands(typedContext(state.typing!, nouns, 1, [], { madeHere: 0, strikesShapes })).map((c) => c.command);
    // Refused for the thing twice ("You can't see any such thing."): the verb is still tried on others.
    play('eat apple', "You can't see any such thing.");
    play('eat stone', "You can't see any such thing.");
    expect(state.typing?.struckShapes ?? []).toEqual([]);
    expect(typedHere(true)).toContain('eat chair');
    // Refused alike on two things, the things aside: the verb is struck.
    play('take chair', "You can't take the chair.");
    play('take lamp', "You can't take the lamp.");
    expect(state.typing?.struckShapes).toEqual(['take $']);
    expect(typedHere(true)).not.toContain('take bell');
    expect(typedHere(true)).toContain('eat bell');
    // A state carried from before the explorer struck verbs keeps trying the shape.
    expect(typedHere(false)).toContain('take bell');
  });

  it('keeps what it remembers of replies and listings small however long the episode', () => {
    let typing = startTyping(LEXICON, worthOfShapes(PRIOR, LEXICON), 1, 'A hall.', []);
    for (let i = 0; i < 300; i++) {
      const step = {
        from: 1,
        to: 1,
        command: `verb${i} thing`,
        reply: `There is a thing${i} here. No verb${i}.`,
        nouns: [`thing${i}`],
        known: [],
      };
      typing = learnTyping(typing, step, { shape: `verb${i} $`, gained: false });
    }
    expect(Object.keys(typing.shapeReplies ?? {}).length).toBeLessThanOrEqual(64);
    expect(typing.shapeReplies?.['verb299 $']).toBeDefined();
    expect(typing.roomListed?.['1']?.length).toBeLessThanOrEqual(24);
  });

  it('answers a numbered menu with its numbers, then leaves it with 0, and reads no menu in prose', () => {
    const menu =
      'What would you like to say?\n\n[1] Ask Mr. Alltext about the job for today.\n[2] "How much money will we make?"\n' +
      '[3] "What do you think about the Enterprise Program?"\n\nSelect an option or 0 to say nothing';
    expect(menuChoices(menu)).toEqual(['1', '2', '3', '0']);
    expect(menuChoices('Which do you mean?\n1) the red door\n2) the blue door')).toEqual(['1', '2']);
    expect(menuChoices('Room 101. A plaque reads:\n1. Keep out.')).toEqual([]);
    const nouns = ['alltext'];
    let state = initialState(started('A hall. A passage leads south.', nouns), freshLearned(), 7, {});
    const { decision, rng } = turn(state);
    const step = stepIn('talk to alltext', menu, nouns, 'w1');
    state = learn(state, config, { ...decision, command: 'talk to alltext' }, step, rng, []);
    expect(turn(state).decision.command).toBe('1');
    // A state carried from before the explorer answered menus types on as before.
    expect(turn({ ...state, answersMenus: false }).decision.command).toBe('south');
  });

  it('does next what a reply says to do first', () => {
    expect(askedFirst('You should get out of bed first.')).toBe('get out of bed');
    expect(askedFirst("You'll have to get out of the bed first.")).toBe('get out of bed');
    expect(askedFirst("You'll have to stand up first.")).toBe('stand up');
    expect(askedFirst('You first see a lamp.')).toBeNull();
    let state = initialState(started('A bedroom. A door leads south.', []), freshLearned(), 7, {});
    const { decision, rng } = turn(state);
    expect(decision.command).toBe('south');
    const step = stepIn('south', "You'll have to get out of bed first.");
    state = learn(state, config, decision, step, rng, []);
    expect(turn(state).decision.command).toBe('get out of bed');
    // A state carried from before the explorer did what it was asked types on as before.
    expect(turn({ ...state, doesAsked: false }).decision.command).not.toBe('get out of bed');
  });

  it('makes again the command that was refused until something was done first, once it is done', () => {
    let state = initialState(started('A bedroom. A door leads south.', []), freshLearned(), 7, {});
    let next = turn(state);
    state = learn(state, config, next.decision, stepIn('south', "You'll have to get out of bed first."), next.rng, []);
    next = turn(state);
    expect(next.decision.command).toBe('get out of bed');
    state = learn(state, config, next.decision, stepIn('get out of bed', 'You get out of bed.', [], 'w1'), next.rng, []);
    expect(turn(state).decision.command).toBe('south');
    // A state carried from before the explorer went back to what it was refused types on as before.
    expect(turn({ ...state, retriesAsked: false }).decision.command).not.toBe('south');
    // Done once more, the command is not pinned again.
    next = turn(state);
    state = learn(state, config, next.decision, stepIn('south', 'You are still in the bedroom.', [], 'w2'), next.rng, []);
    expect(state.typing?.deferred ?? null).toBeNull();
  });

  it('makes a move that went nowhere again, once, when a later reply names its direction', () => {
    let state = initialState(started('A clearing.', ['torch']), freshLearned(), 7, {});
    /** `command` made from the explorer's next turn, answered `reply` in a world of hash `hash`. */
    const make = (command: string, reply: string, hash = 'w0') => {
      const next = turn(state);
      state = learn(state, config, { ...next.decision, command }, stepIn(command, reply, [], hash), next.rng, []);
    };
    make('north', 'The forest looks dark.');
    expect(turn(state).decision.command).not.toBe('north');
    make('eat torch', 'Ow! You hear a noise to the north.', 'w1');
    expect(turn(state).decision.command).toBe('north');
    // A state carried from before the explorer made such moves again types on as before.
    expect(turn({ ...state, retriesNamed: false }).decision.command).not.toBe('north');
    // Made again and still going nowhere, it is not made again when a reply names it once more.
    make('north', 'The forest looks dark.', 'w2');
    make('take torch', 'A noise comes from the north.', 'w3');
    expect(state.typing?.renamed).toEqual([]);
    // The move's own reply, or a room's description on entering it, names no move to make again.
    expect(
      learnTyping(state.typing!, { from: 1, to: 1, command: 'north', reply: 'You cannot go north.', nouns: [], known: [] }).renamed,
    ).toEqual([]);
    expect(
      learnTyping(state.typing!, { from: 2, to: 1, command: 'south', reply: 'A clearing. The forest is north.', nouns: [], known: [] })
        .renamed,
    ).toEqual([]);
  });

  it('types nowhere again a word the parser said is not a verb, as a move or as a shape', () => {
    let typing = startTyping(LEXICON, worthOfShapes(PRIOR, LEXICON), 1, 'A hall.', []);
    const refuse = (command: string) =>
      (typing = learnTyping(typing, {
        from: 1,
        to: 1,
        command,
        reply: "That's not a verb I recognise.",
        nouns: [],
        known: [],
      }));
    refuse('north');
    refuse('jump');
    const elsewhere = (reading: Parameters<typeof typedContext>[4]) =>
      typedCommands(typedContext(typing, [], 2, [], reading)).map((c) => c.command);
    expect(elsewhere({ madeHere: 0, strikesUnknownVerbs: true })).not.toEqual(expect.arrayContaining(['north']));
    expect(elsewhere({ madeHere: 0, strikesUnknownVerbs: true })).not.toContain('jump');
    expect(elsewhere({ madeHere: 0, strikesUnknownVerbs: true })).toContain('south');
    // A state carried from before the explorer struck them types them as before.
    expect(elsewhere({ madeHere: 0 })).toEqual(expect.arrayContaining(['north', 'jump']));
  });

  it('types no more a command naming nothing that was answered alike twice, but one whose answer changed', () => {
    let typing = startTyping(LEXICON, worthOfShapes(PRIOR, LEXICON), 1, 'A hall.', []);
    const make = (command: string, room: number, reply: string) =>
      (typing = learnTyping(typing, { from: room, to: room, command, reply, nouns: [], known: [] }, { shape: command, gained: false }));
    const typedIn = (room: number, reading: Parameters<typeof typedContext>[4]) =>
      typedCommands(typedContext(typing, [], room, [], reading)).map((c) => c.command);
    make('jump', 1, 'You jump on the spot, fruitlessly.');
    make('take all', 1, 'There is nothing to take.');
    make('jump', 2, 'You jump on the spot,  fruitlessly.');
    make('take all', 2, 'You take the lamp.');
    expect(typedIn(3, { madeHere: 0, strikesIdle: true })).not.toContain('jump');
    expect(typedIn(3, { madeHere: 0, strikesIdle: true })).toContain('take all');
    // A state carried from before the explorer struck them types them as before.
    expect(typedIn(3, { madeHere: 0 })).toContain('jump');
  });

  it('types no more alone, in that room, a word the parser asked which of several things it meant', () => {
    const question = 'Which do you mean, the front door or the bedroom door?';
    expect(ambiguousWords('open door', question.toLowerCase(), ['door', 'front', 'bedroom'])).toEqual(['door']);
    expect(ambiguousWords('open door', 'you open the door. the door creaks.', ['door'])).toEqual([]);
    const nouns = ['door', 'front', 'bedroom'];
    let typing = startTyping(LEXICON, worthOfShapes(PRIOR, LEXICON), 1, 'A hall with two doors.', nouns);
    typing = learnTyping(typing, { from: 1, to: 1, command: 'open door', reply: question, nouns, known: nouns });
    const typedIn = (room: number, reading: Parameters<typeof typedContext>[4]) =>
      typedCommands(typedContext(typing, nouns, room, [], reading)).map((c) => c.command);
    expect(typedIn(1, { madeHere: 1, strikesAmbiguous: true })).not.toContain('take door');
    expect(typedIn(1, { madeHere: 1, strikesAmbiguous: true })).toContain('take front');
    // Elsewhere the word may name one thing; a state carried from before types it as before.
    expect(typedIn(2, { madeHere: 0, strikesAmbiguous: true })).toContain('take door');
    expect(typedIn(1, { madeHere: 1 })).toContain('take door');
  });

  it('tries last, in a room a reply said has only some ways out, the directions it left out', () => {
    const directions = ['north', 'south', 'east', 'west', 'up', 'down', 'in', 'out'];
    expect(wholeExits('From here, you can only go east to the sitting room.', directions)).toEqual(['east']);
    expect(wholeExits('Obvious exits: North, South, Up.', directions)).toEqual(['north', 'south', 'up']);
    expect(wholeExits('The only way out of here is to the south.', directions)).toEqual(['south']);
    expect(wholeExits('Finish your inspection so you can go home.', directions)).toEqual([]);
    expect(wholeExits('A path leads north.', directions)).toEqual([]);
    let typing = startTyping(LEXICON, worthOfShapes(PRIOR, LEXICON), 1, 'A hall.', ['chest']);
    typing = learnTyping(typing, {
      from: 1,
      to: 1,
      command: 'south',
      reply: 'From here, you can only go north to the yard.',
      nouns: [],
      known: [],
    });
    const typedIn = (reading: Parameters<typeof typedContext>[4]) =>
      typedCommands(typedContext(typing, ['chest'], 1, [], reading)).map((c) => c.command);
    // "open chest" (the prior's 0.05) now comes before "south" (0.3), which the reply left out.
    const order = typedIn({ madeHere: 1, readsWholeExits: true });
    expect(order[0]).toBe('north');
    expect(order.indexOf('open chest')).toBeLessThan(order.indexOf('south'));
    // A state carried from before the explorer read them keeps the prior's order.
    const before = typedIn({ madeHere: 1 });
    expect(before.indexOf('south')).toBeLessThan(before.indexOf('open chest'));
  });

  it('never types the verbs that read a walkthrough or its clues', () => {
    const inWorld = inWorldCommands(9);
    expect(['walkthru', 'walkthrough', 'solution', 'clues', 'hint'].filter(inWorld)).toEqual([]);
    expect(inWorld('take lamp')).toBe(true);
  });

  it("reads the things a game lists, each by its phrase's last noun, not the scenery of the description", () => {
    const zork =
      'Up a Tree\nYou are about 10 feet above the ground nestled among some large branches.\n' +
      "Beside you on the branch is a small bird's nest.\n" +
      "In the bird's nest is a large egg encrusted with precious jewels, apparently scavenged by a songbird.";
    expect(listedNouns(zork, ['tree', 'ground', 'branches', 'branch', 'bird', 'nest', 'egg', 'jewels', 'songbird'])).toEqual([
      'nest',
      'egg',
    ]);
    expect(listedNouns('West of House\nThere is a small mailbox here.', ['house', 'mailbox'])).toEqual(['mailbox']);
    expect(listedNouns('Clearing\nOn the ground is a pile of leaves.', ['clearing', 'ground', 'pile', 'leaves'])).toEqual(['leaves']);
    expect(listedNouns('Study\nYou can see a brass lamp, a note and an old sword here.', ['study', 'lamp', 'note', 'sword'])).toEqual([
      'lamp',
      'note',
      'sword',
    ]);
    expect(listedNouns('Forest\nThis is a forest, with trees in all directions.', ['forest', 'trees'])).toEqual([]);
  });

  it('opens what stood in the way of a move, then makes the move again', () => {
    let state = initialState(started('A hall. An oak door leads north.', ['door']), freshLearned(), 7, {});
    const play = (command: string, observation: string, nouns: string[], worldHash: string) => {
      const { decision, rng } = turn(state);
      expect(decision.command).toBe(command);
      const step = { command, observation, truth: truth(1, 'Hall'), worldHash, snapshot: 's', options: [], commands: [], nouns };
      state = learn(state, config, decision, step, rng, []);
    };
    play('north', "You can't, since the oak door is in the way.", ['door'], 'w0');
    play('open door', 'You open the oak door.', ['door'], 'w1');
    expect(turn(state).decision.command).toBe('north');
  });

  it('walks back out of the dark the way it came, and does not come back for what is left there', () => {
    let state = initialState(started('A hall. A passage leads north.', []), freshLearned(), 7, {});
    const play = (command: string, room: number, name: string, observation: string, worldHash: string) => {
      const { decision, rng } = turn(state);
      expect(decision.command).toBe(command);
      const step = { command, observation, truth: truth(room, name), worldHash, snapshot: 's', options: [], commands: [], nouns: [] };
      state = learn(state, config, decision, step, rng, []);
    };
    play('north', 2, 'Cellar', 'It is pitch black. You are likely to be eaten by a grue.', 'w-dark');
    play('south', 1, 'Hall', 'A hall. A passage leads north.', 'w0');
    expect(state.open).not.toContain(2);
  });

  it('opens nothing after a move the reply says has no way, whatever it names', () => {
    const state = initialState(started('A hall. An oak door leads north.', ['door']), freshLearned(), 7, {});
    const { decision, rng } = turn(state);
    const step = {
      command: decision.command,
      observation: 'There is no door here you could go through.',
      truth: truth(1, 'Hall'),
      worldHash: 'w0',
      snapshot: 's',
      options: [],
      commands: [],
      nouns: ['door'],
    };
    expect(turn(learn(state, config, decision, step, rng, [])).decision.command).not.toBe('open door');
  });

  it('finds the exits a reply names: compass words, "north-east", up or down after a word of going', () => {
    const all = ['north', 'south', 'east', 'west', 'northeast', 'southwest', 'up', 'down', 'in'];
    expect(namedDirections('The path heads north-south here.', all)).toEqual(['north', 'south']);
    expect(namedDirections('A narrow path continues to the south-west.', all)).toEqual(['southwest']);
    expect(namedDirections('A staircase leads down. You pick up the lamp and look in the box.', all)).toEqual(['down']);
    expect(namedDirections('Stairs go upwards into darkness.', all)).toEqual(['up']);
    // Only the story's own words: a story without "east" gets no "east".
    expect(namedDirections('To the east, sunlight.', ['north'])).toEqual([]);
  });

  it('each command made in a room makes what is left there less promising, exits the room named aside', () => {
    const ctx = (madeHere: number) => ({
      lexicon: LEXICON,
      replyNouns: ['chest'],
      roomNouns: [],
      carried: [],
      refused: new Set<string>(),
      worth: { 'take $': 0.4, north: 0.3, south: 0.3 },
      unknownWorth: 0.05,
      exits: { named: ['south'], madeHere },
    });
    const worth = (madeHere: number, command: string) => typedCommands(ctx(madeHere)).find((c) => c.command === command)!.worth;
    expect(worth(10, 'take chest')).toBeLessThan(worth(0, 'take chest') / 4);
    expect(worth(10, 'north')).toBeLessThan(worth(0, 'north') / 4);
    expect(worth(10, 'south')).toBe(worth(0, 'south'));
    expect(typedCommands(ctx(0))[0].command).toBe('south');
  });

  it('reads the parser refusing a word or a thing out of reach', () => {
    expect(refusedWords('take xyzzy', 'I don\'t know the word "xyzzy".', ['xyzzy'])).toEqual(['xyzzy']);
    expect(refusedWords('take lamp', "You can't see any such thing.", ['lamp', 'chest'])).toEqual(['lamp']);
    expect(refusedWords('take lamp', 'Taken.', ['lamp'])).toEqual([]);
  });

  it('walks back to a room with promising moves once this one is spent', () => {
    // Hall (1) has a chest untried; the player went north to an empty corridor (2) and tried everything there.
    let state = initialState(started('A chest.', ['chest']), freshLearned(), 7, {});
    const walk = (command: string, room: number, name: string, observation: string, nouns: string[]) => {
      const rng = createRng(state.rngState);
      const decision = { ...decide(state, config, rng, { kind: 'decided', choice: { command, reason: 'untried', why: '' } }, null) };
      const step = {
        command,
        observation,
        truth: truth(room, name),
        worldHash: `w${room}`,
        snapshot: 's',
        options: [],
        commands: [],
        nouns,
      };
      state = learn(state, config, decision, step, rng, []);
    };
    walk('north', 2, 'Corridor', 'A bare corridor.', []);
    walk('south', 1, 'Hall', 'A chest.', ['chest']);
    walk('north', 2, 'Corridor', 'A bare corridor.', []);
    for (const command of ['take all', 'jump', 'north']) walk(command, 2, 'Corridor', 'Nothing happens.', []);
    expect(state.open).toContain(1);
    const { decision } = turn(state);
    expect({ command: decision.command, reason: decision.reason }).toEqual({ command: 'south', reason: 'return' });
  });
});

describe("the shapes' worth a run plays with", () => {
  const lighthouse = storyLexicon(GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5')));

  it('is the one startGame returned (recorded in the history), not the prior the code holds now', () => {
    const state = initialState(started('A chest.', ['chest']), freshLearned(), 7, {});
    expect(state.typing?.worth).toEqual(worthOfShapes(PRIOR, LEXICON).worth);
  });

  it('is the first prior for a start recorded before startGame returned it, so its replay decides as it did', () => {
    const { shapeWorth: _recordedLater, ...recordedBefore } = { ...started('A chest.', ['chest']), lexicon: lighthouse };
    const state = initialState(recordedBefore, freshLearned(), 7, {});
    expect(state.typing?.worth).toEqual(worthOfShapes(FIRST_VERB_PRIOR, lighthouse).worth);
    expect(state.typing?.worth).not.toEqual(worthOfShapes(DEFAULT_VERB_PRIOR, lighthouse).worth);
  });
});

describe('the story lexicon', () => {
  const session = GameSession.fromFile(join(GAME_FILES, 'lighthouse.z5'));

  it('has the compass and the grammar shapes, without the interpreter verbs', () => {
    const lexicon = storyLexicon(session);
    expect(lexicon.directions).toEqual(expect.arrayContaining(['north', 'up', 'in']));
    expect(lexicon.templates).toEqual(expect.arrayContaining(['take $', 'open $', 'put $ in $', 'take all']));
    expect(lexicon.templates.some((t) => /^(quit|save|restore|restart)\b/.test(t))).toBe(false);
  });

  it("names the reply's things (and exits), not its articles", () => {
    expect(replyNouns(session, session.intro)).toEqual(expect.arrayContaining(['door', 'chest', 'north']));
    expect(replyNouns(session, session.intro)).not.toContain('the');
  });
});
