/**
 * The workflow tells a story's own fault from other failures by the failure's type, which the
 * activity boundary takes from the engine error's code: the list names those codes, and only them.
 */
import {
  EngineError,
  GameOverError,
  InstructionBudgetError,
  InvalidCommandError,
  SnapshotError,
  VmFaultError,
} from '../../src/engine/errors';
import { STORY_FAULT_TYPES } from '../../src/schemas/storyFault';

describe('a story fault, by its failure type', () => {
  it('is the code of a VM fault and of a runaway, and of no other engine error', () => {
    const faults: EngineError[] = [new VmFaultError('Unknown opcode #0'), new InstructionBudgetError(5_000_000)];
    const others: EngineError[] = [new GameOverError(), new InvalidCommandError('too long'), new SnapshotError('foreign')];
    expect([...STORY_FAULT_TYPES].sort()).toEqual(faults.map((e) => e.code).sort());
    for (const other of others) expect(STORY_FAULT_TYPES).not.toContain(other.code);
  });
});
