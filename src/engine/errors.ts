/**
 * Typed engine errors. Each carries a stable `code` so callers (the CLI, the activity boundary)
 * can decide what to tell a person and whether a retry could ever help.
 */
export type EngineErrorCode =
  | 'STORY_NOT_FOUND'
  | 'NOT_A_STORY'
  | 'TRUNCATED_STORY'
  | 'UNSUPPORTED_VERSION'
  | 'INVALID_COMMAND'
  | 'INSTRUCTION_BUDGET'
  | 'VM_FAULT'
  | 'GAME_OVER'
  | 'BAD_SNAPSHOT';

export class EngineError extends Error {
  constructor(
    readonly code: EngineErrorCode,
    message: string,
    /** True when the same call can never succeed (bad story file, bad command, bad snapshot). */
    readonly permanent: boolean,
  ) {
    super(message);
    this.name = 'EngineError';
  }
}

export class StoryFileError extends EngineError {
  constructor(code: 'STORY_NOT_FOUND' | 'NOT_A_STORY' | 'TRUNCATED_STORY' | 'UNSUPPORTED_VERSION', message: string) {
    super(code, message, true);
    this.name = 'StoryFileError';
  }
}

export class InvalidCommandError extends EngineError {
  constructor(message: string) {
    super('INVALID_COMMAND', message, true);
    this.name = 'InvalidCommandError';
  }
}

/** Where in a story the VM stopped: for a person to find the instruction in a disassembly. */
export interface VmLocation {
  /** The story's file name (or label) and release, e.g. `seastalker.z3 (r16-s850603)`. */
  story: string;
  /** Byte address of the instruction. */
  pc: number;
  /** The instruction at pc, e.g. `ret_popped (0OP:8, byte 0xb8)`. */
  instruction: string;
}

/** `sentence`, led by where it happened when that is known. */
function located(location: VmLocation | undefined, sentence: string): string {
  if (!location) return sentence.charAt(0).toUpperCase() + sentence.slice(1);
  return `${location.story} at pc ${location.pc}, ${location.instruction}: ${sentence}`;
}

export class InstructionBudgetError extends EngineError {
  constructor(
    readonly budget: number,
    readonly location?: VmLocation,
  ) {
    super(
      'INSTRUCTION_BUDGET',
      located(
        location,
        `the game ran ${budget.toLocaleString('en-US')} code blocks without asking for input; ` +
          'it is probably stuck in a loop. Restore an earlier snapshot, or raise the budget with the ' +
          '`blockBudget` option if this game legitimately computes that long.',
      ),
      true,
    );
    this.name = 'InstructionBudgetError';
  }
}

/** The VM hit an error it cannot continue from (an illegal instruction, a stack underflow, a bug in ZVM). */
export class VmFaultError extends EngineError {
  constructor(
    readonly detail: string,
    readonly location?: VmLocation,
  ) {
    super(
      'VM_FAULT',
      located(
        location,
        `the Z-machine stopped with an error: ${detail.replace(/\.$/, '')}. ` +
          'This session cannot go on from here; restore a snapshot taken before the command.',
      ),
      true,
    );
    this.name = 'VmFaultError';
  }
}

export class GameOverError extends EngineError {
  constructor() {
    super('GAME_OVER', 'The game has ended and accepts no more commands; restore a snapshot or start a new session.', true);
    this.name = 'GameOverError';
  }
}

export class SnapshotError extends EngineError {
  constructor(message: string) {
    super('BAD_SNAPSHOT', message, true);
    this.name = 'SnapshotError';
  }
}
