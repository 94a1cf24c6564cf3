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

export class InstructionBudgetError extends EngineError {
  constructor(budget: number) {
    super(
      'INSTRUCTION_BUDGET',
      `The game ran ${budget.toLocaleString('en-US')} code blocks without asking for input; ` +
        'it is probably stuck in a loop. Restore an earlier snapshot, or raise the budget with the ' +
        '`blockBudget` option if this game legitimately computes that long.',
      true,
    );
    this.name = 'InstructionBudgetError';
  }
}

export class VmFaultError extends EngineError {
  constructor(detail: string) {
    super('VM_FAULT', `The Z-machine stopped with an error: ${detail}`, true);
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
