/**
 * The thoughtbox session as a reducer: each answer the model gives moves the session on, or is
 * refused with a tool result that says what to correct (the model may fix it; it still counts as
 * an iteration). The rules the public thoughtbox servers leave out are kept here: thoughts are
 * numbered in order, a revision names an earlier thought, a branch starts from a thought that
 * exists and keeps its id, and the concluding thought names a valid action.
 */
import { addUsage, NO_USAGE, OracleUsage } from '../../schemas/oracle';
import { asCommand, matchAction } from '../selector';
import { Exchange, ThinkAnswer, ThinkingStep, Thought, ThoughtboxSession, ToolResult } from './schema';

export const DEFAULT_MAX_THINKING_ITERATIONS = 20;

export function openSession(turn: number, trigger: string, required: boolean, maxIterations: number): ThoughtboxSession {
  return {
    turn,
    trigger,
    required,
    maxIterations,
    thoughts: [],
    totalThoughts: 0,
    branches: {},
    exchanges: [],
    iterations: 0,
    invalidSteps: 0,
    outcome: 'open',
    action: null,
    usage: NO_USAGE,
  };
}

export const isOpen = (session: ThoughtboxSession) => session.outcome === 'open';

/** The session's state as the seed's tool result echoes it. */
function echo(session: ThoughtboxSession, nextThoughtNeeded: boolean): ToolResult {
  return {
    thoughtNumber: session.thoughts.length,
    totalThoughts: session.totalThoughts,
    nextThoughtNeeded,
    branches: Object.keys(session.branches),
    thoughtHistoryLength: session.thoughts.length,
  };
}

const given = <T>(value: T | null | undefined): value is T => value !== null && value !== undefined;
const branchName = (id: string | null | undefined) => (id ?? '').trim();

/** What is wrong with this step in this session, or null when it can be accepted. */
export function stepError(session: ThoughtboxSession, step: ThinkingStep, options: readonly { command: string }[]): string | null {
  const expected = session.thoughts.length + 1;
  if (step.thoughtNumber !== expected) {
    return `thoughtNumber must be ${expected}: thoughts are numbered 1, 2, 3, ... in order, and this session has ${expected - 1} so far`;
  }
  const existing = (n: number) => n >= 1 && n < expected;
  if (step.isRevision) {
    if (!given(step.revisesThought)) return 'a revision must say which thought it corrects: set revisesThought';
    if (!existing(step.revisesThought))
      return `thought ${step.revisesThought} cannot be revised: a revision corrects an earlier thought (1 to ${expected - 1})`;
  } else if (given(step.revisesThought)) {
    return 'revisesThought is only for revisions: set isRevision true, or revisesThought null';
  }
  const id = branchName(step.branchId);
  if (given(step.branchFromThought)) {
    if (!id) return 'a branch needs a name: set branchId';
    if (step.isRevision) return 'a thought starts a branch or revises a thought, not both';
    if (!existing(step.branchFromThought))
      return `thought ${step.branchFromThought} does not exist: a branch starts from an earlier thought (1 to ${expected - 1})`;
    const from = session.branches[id];
    if (from !== undefined && from !== step.branchFromThought)
      return `branch "${id}" started from thought ${from}: keep that, or name a new branch`;
  } else if (id && session.branches[id] === undefined) {
    return `branch "${id}" is new: say which thought it branches from (branchFromThought)`;
  }
  if (!step.nextThoughtNeeded && !conclusion(step, options)) {
    if (options.length === 0)
      return (
        'your last thought (nextThoughtNeeded false) must name the command to ' +
        'type now in action (a short command such as "open door" or "north")'
      );
    const some = options
      .slice(0, 8)
      .map((o) => JSON.stringify(o.command))
      .join(', ');
    return (
      `your last thought (nextThoughtNeeded false) must name the command ` +
      `to play now in action, one of the valid actions (e.g. ${some})`
    );
  }
  return null;
}

/** The concluded command: one of the listed actions, or (no list: the `none` assist) the command as typed. */
function conclusion(step: ThinkingStep, options: readonly { command: string }[]): string | null {
  if (!step.action) return null;
  return options.length ? (matchAction(step.action, options)?.command ?? null) : asCommand(step.action);
}

function thoughtOf(step: ThinkingStep, session: ThoughtboxSession): Thought {
  const id = branchName(step.branchId);
  const onBranch = id ? { branchId: id, branchFromThought: session.branches[id] ?? step.branchFromThought! } : {};
  if (step.isRevision)
    return { number: step.thoughtNumber, kind: 'revision', revises: step.revisesThought!, ...onBranch, text: step.thought };
  return { number: step.thoughtNumber, kind: id ? 'branch' : 'forward', ...onBranch, text: step.thought };
}

/** The cookbook goes with the session's first result (progressive disclosure), and whenever asked. */
const withCookbook = (result: ToolResult, first: boolean, asked: boolean): ToolResult =>
  first || asked ? { ...result, patternsCookbook: true } : result;

/**
 * The session after the model's answer to one `think` call. An answer with no call ends the
 * session: declined before any thought when the model was free to, abandoned otherwise.
 */
export function applyAnswer(
  session: ThoughtboxSession,
  answer: ThinkAnswer,
  usage: OracleUsage,
  options: readonly { command: string }[],
): ThoughtboxSession {
  if (!isOpen(session)) throw new Error(`the thoughtbox session of turn ${session.turn} is over (${session.outcome})`);
  const counted = { ...session, iterations: session.iterations + 1, usage: addUsage(session.usage, usage) };
  const first = session.exchanges.length === 0;
  let next: ThoughtboxSession;
  if (answer.kind === 'none') {
    next = { ...counted, outcome: first && !session.required ? 'declined' : 'abandoned' };
  } else if (answer.kind === 'invalid') {
    next = refuse(counted, answer.call, answer.error, first);
  } else {
    const error = stepError(counted, answer.step, options);
    next = error ? refuse(counted, answer.step, error, first) : accept(counted, answer.step, options, first);
  }
  return isOpen(next) && next.iterations >= next.maxIterations ? { ...next, outcome: 'limit' } : next;
}

function refuse(session: ThoughtboxSession, call: unknown, error: string, first: boolean): ThoughtboxSession {
  const exchange: Exchange = { call, result: withCookbook({ ...echo(session, true), error }, first, false) };
  return { ...session, exchanges: [...session.exchanges, exchange], invalidSteps: session.invalidSteps + 1 };
}

function accept(
  session: ThoughtboxSession,
  step: ThinkingStep,
  options: readonly { command: string }[],
  first: boolean,
): ThoughtboxSession {
  const thought = thoughtOf(step, session);
  const id = thought.branchId;
  const branches = id && session.branches[id] === undefined ? { ...session.branches, [id]: thought.branchFromThought! } : session.branches;
  const totalThoughts = Math.max(step.totalThoughts, step.thoughtNumber, step.needsMoreThoughts ? step.thoughtNumber + 1 : 0);
  const next: ThoughtboxSession = { ...session, thoughts: [...session.thoughts, thought], totalThoughts, branches };
  const result = withCookbook(echo(next, step.nextThoughtNeeded), first, step.includePatternsCookbook === true);
  const done = !step.nextThoughtNeeded;
  return {
    ...next,
    exchanges: [...next.exchanges, { call: step, result }],
    ...(done ? { outcome: 'concluded' as const, action: conclusion(step, options) } : {}),
  };
}

/** The LLM failed after its retries: the session ends where it was. */
export const unreachable = (session: ThoughtboxSession): ThoughtboxSession => ({ ...session, outcome: 'unreachable' });
