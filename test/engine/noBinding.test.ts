import { findValidActions, GameSession, isEmptyDiff, worldDiff } from '../../src/engine';
import type { VmState } from '../../src/engine';
import { describeWithGame } from '../helpers';

/**
 * Zork I with its binding switched off stands in for a story grue has never seen: the player,
 * the thief's wandering and the adventurer's scratch flag must be found by experiment. The bound
 * session is the referee — the binding is Jericho's, written by hand from the game's source.
 */
describeWithGame('zork1.z3', 'Zork I with its binding disabled: ground truth found by probing', (ZORK) => {
  // West of House → Living Room, then the trap door and the dark cellar with the lamp lit.
  const WALK = [
    'north',
    'east',
    'open window',
    'enter house',
    'west',
    'take sword',
    'take lantern',
    'move rug',
    'open trap door',
    'turn on lantern',
    'down',
  ];

  it('finds the player, the wandering thief and the scratch flag the binding names', () => {
    const bound = GameSession.fromFile(ZORK);
    const unbound = GameSession.fromFile(ZORK, { binding: null });
    expect(unbound.binding).toBeUndefined();
    expect(unbound.groundTruthProbe).toMatchObject({ playerObject: bound.binding!.playerObject, playerFoundBy: 'movement' });
    expect(unbound.player).toBe(bound.player);
    expect(unbound.groundTruthProbe!.ignoreObjects).toEqual(bound.binding!.ignoreObjects);
    expect(unbound.groundTruthProbe!.ignoreObjectAttributes).toEqual(bound.binding!.ignoreObjectAttributes);
    // The probe leaves the opening as it found it: same text, same world, same next response.
    expect(unbound.intro).toBe(bound.intro);
    expect(unbound.worldHash()).toBe(GameSession.fromFile(ZORK, { binding: null }).worldHash());
    expect(unbound.step('open mailbox').observation).toBe(bound.step('open mailbox').observation);
  });

  it('lists both objects in the inventory after taking two', () => {
    const unbound = GameSession.fromFile(ZORK, { binding: null });
    let last;
    for (const command of WALK.slice(0, WALK.indexOf('take lantern') + 1)) last = unbound.step(command);
    expect(last!.inventory.map((item) => item.name).sort()).toEqual(['brass lantern', 'sword']);
    expect(last!.location.name).toBe('Living Room');
    // Actions on what is carried come back with the inventory: putting each down, however the
    // group is phrased ("drop sword" or "put down sword": Zork's two lines look in different places).
    const offered = findValidActions(unbound);
    const putsDown = (name: string) =>
      offered.some((action) => {
        const item = last!.inventory.find((i) => i.name === name)!;
        return action.diff.moved.length === 1 && action.diff.moved[0].object === item.id && action.diff.moved[0].to === last!.location.id;
      });
    expect(putsDown('sword')).toBe(true);
    expect(putsDown('brass lantern')).toBe(true);
  });

  it('offers no action the game rejects, and nearly every effect the bound session finds', () => {
    const unbound = GameSession.fromFile(ZORK, { binding: null });
    const referee = GameSession.fromFile(ZORK);
    /** What the command does by the binding's measure, from the given state. */
    const changes = (state: VmState, command: string): boolean => {
      referee.restoreState(state);
      const before = referee.worldState();
      const score = referee.score;
      referee.tryCommand(command);
      return !isEmptyDiff(worldDiff(before, referee.worldState())) || referee.score !== score || referee.isDone;
    };
    const rejected: string[] = [];
    let boundEffects = 0;
    let covered = 0;
    for (const [index, command] of ['', ...WALK].entries()) {
      if (command) unbound.step(command);
      const state = unbound.captureState();
      const offered = findValidActions(unbound);
      unbound.restoreState(state);
      referee.restoreState(state);
      const expected = findValidActions(referee);
      // The bound search's own commands are accepted as it judges them: by the binding's measure or,
      // like Jericho's, by the operations a command runs (the cellar's "close": the parser supplies
      // the trap door, and the game closes it, attributes set and cleared, nothing left changed).
      const boundCommands = new Set(expected.flatMap((action) => [action.command, ...action.equivalents]));
      // "wait" where a clock runs changes nothing but the time (Jericho counts it): the one exception.
      for (const action of offered)
        if (!action.passesTime && !boundCommands.has(action.command) && !changes(state, action.command))
          rejected.push(`${WALK[index - 1] ?? 'start'} → ${action.command}`);
      // Recall against the bound search: each of its actions has an unbound one with the same outcome text.
      boundEffects += expected.length;
      const unboundCommands = new Set(offered.flatMap((action) => [action.command, ...action.equivalents]));
      covered += expected.filter((action) => [action.command, ...action.equivalents].some((c) => unboundCommands.has(c))).length;
    }
    expect(rejected).toEqual([]);
    expect(boundEffects).toBeGreaterThan(30);
    expect(covered / boundEffects).toBeGreaterThanOrEqual(0.95);
  });
});
