/**
 * A thoughtbox session as a person reads it (`grue transcript --thoughts`): one header line with
 * the turn, why it was offered, how it ended and what it cost, then the chain in the order it was
 * thought. Reading order is thought order so that a revision or a branch always points back to a
 * number already on screen, and a refused step sits between the thoughts it came between.
 *
 *   turn 12 · thoughtbox (blocker: the door is locked) · concluded → "unlock door with key" · 5 thoughts, 1 refused, 6 calls, 812 tokens
 *     1  Goal: get through the door
 *     2  The door is locked; I carry a brass key
 *     3  ↺ revises 1: the goal is the lighthouse top
 *     ├─ branch "b" from 2
 *     │  4  Try the window instead
 *     │  ✗ refused: thoughtNumber must be 5: thoughts are numbered 1, 2, 3, ... in order, ...
 *     5  Unlock the door
 *
 * A branch's thoughts are indented under its header, one level deeper than the thought it grew
 * from (a branch from a branch nests). When the chain comes back to a branch after other
 * thoughts, the header is repeated as "continued" so no thought is read as part of the wrong one.
 */
import type { Thought, ThoughtboxSession } from './schema';

const INDENT = '  ';
const BRANCH_RULE = '│  ';
/** A provider's parse error can quote the model's whole call; the gist is in its start. */
const MAX_REFUSAL_CHARS = 300;

export function renderSessions(sessions: readonly ThoughtboxSession[]): string {
  return sessions.map(renderSession).join('\n\n');
}

export function renderSession(session: ThoughtboxSession): string {
  return [sessionHeader(session), ...chainLines(session)].join('\n');
}

export function sessionHeader(session: ThoughtboxSession): string {
  return [`turn ${session.turn}`, `thoughtbox (${oneLine(session.trigger)})`, outcomeText(session), costText(session)].join(' · ');
}

function outcomeText(session: ThoughtboxSession): string {
  switch (session.outcome) {
    case 'open':
      return 'still thinking';
    case 'concluded':
      return session.action === null ? 'concluded' : `concluded → ${JSON.stringify(session.action)}`;
    case 'declined':
      return 'declined (the model chose not to think)';
    case 'abandoned':
      return 'abandoned (the model stopped calling the tool before concluding)';
    case 'limit':
      return `stopped at the iteration limit (maxThinkingIterations ${session.maxIterations}) without a conclusion`;
    case 'unreachable':
      return 'the LLM failed (after its retries; the turn names why)';
  }
}

const counted = (count: number, singular: string, plural = `${singular}s`) => `${count} ${count === 1 ? singular : plural}`;

function costText(session: ThoughtboxSession): string {
  const tokens = session.usage.promptTokens + session.usage.completionTokens;
  return [
    counted(session.thoughts.length, 'thought'),
    ...(session.invalidSteps > 0 ? [`${session.invalidSteps} refused`] : []),
    counted(session.iterations, 'call'),
    counted(tokens, 'token'),
  ].join(', ');
}

/** What happened, in order: accepted thoughts and refused steps, as the exchanges recorded them. */
type Event = { kind: 'thought'; thought: Thought } | { kind: 'refused'; error: string };

function events(session: ThoughtboxSession): Event[] {
  const pending = [...session.thoughts];
  const happened: Event[] = [];
  for (const exchange of session.exchanges) {
    if (exchange.result.error !== undefined) happened.push({ kind: 'refused', error: exchange.result.error });
    else if (pending.length > 0) happened.push({ kind: 'thought', thought: pending.shift()! });
  }
  // Every accepted thought has its exchange; should a record lack some, its thoughts still show.
  return [...happened, ...pending.map((thought) => ({ kind: 'thought' as const, thought }))];
}

/** Branch id -> the thought it grew from: the session's map, completed from the thoughts themselves. */
function branchOrigins(session: ThoughtboxSession): Map<string, number> {
  const origins = new Map<string, number>(Object.entries(session.branches));
  for (const thought of session.thoughts) {
    if (thought.branchId !== undefined && thought.branchFromThought !== undefined && !origins.has(thought.branchId))
      origins.set(thought.branchId, thought.branchFromThought);
  }
  return origins;
}

/** How deep each branch sits: one below the line its origin thought is on (the main line is 0). */
function branchDepths(session: ThoughtboxSession, origins: ReadonlyMap<string, number>): Map<string, number> {
  const lineOf = new Map(session.thoughts.map((thought) => [thought.number, thought.branchId]));
  const depths = new Map<string, number>();
  const depthOf = (branchId: string | undefined, seen: Set<string>): number => {
    if (branchId === undefined) return 0;
    const known = depths.get(branchId);
    if (known !== undefined) return known;
    // An origin always comes before its branch, so a cycle means a malformed record: stop there.
    if (seen.has(branchId)) return 1;
    const origin = origins.get(branchId);
    const depth = 1 + (origin === undefined ? 0 : depthOf(lineOf.get(origin), new Set([...seen, branchId])));
    depths.set(branchId, depth);
    return depth;
  };
  for (const branchId of origins.keys()) depthOf(branchId, new Set());
  return depths;
}

function chainLines(session: ThoughtboxSession): string[] {
  const origins = branchOrigins(session);
  const depths = branchDepths(session, origins);
  const numberWidth = String(Math.max(0, ...session.thoughts.map((thought) => thought.number))).length;
  const opened = new Set<string>();
  const lines: string[] = [];
  let currentBranch: string | undefined;
  let currentDepth = 0;
  const prefix = (depth: number) => INDENT + BRANCH_RULE.repeat(depth);

  for (const event of events(session)) {
    if (event.kind === 'refused') {
      lines.push(`${prefix(currentDepth)}✗ refused: ${clipped(oneLine(event.error), MAX_REFUSAL_CHARS)}`);
      continue;
    }
    const { thought } = event;
    const depth = thought.branchId === undefined ? 0 : (depths.get(thought.branchId) ?? 1);
    if (thought.branchId !== undefined && thought.branchId !== currentBranch) {
      const origin = origins.get(thought.branchId);
      const where = opened.has(thought.branchId) ? 'continued' : origin === undefined ? '' : `from ${origin}`;
      lines.push(`${prefix(depth - 1)}├─ branch ${JSON.stringify(thought.branchId)}${where ? ` ${where}` : ''}`);
      opened.add(thought.branchId);
    }
    currentBranch = thought.branchId;
    currentDepth = depth;
    const revision = thought.kind === 'revision' && thought.revises !== undefined ? `↺ revises ${thought.revises}: ` : '';
    lines.push(`${prefix(depth)}${String(thought.number).padStart(numberWidth)}  ${revision}${oneLine(thought.text)}`);
  }
  return lines;
}

/** Line breaks inside a thought would break the tree's columns. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

const clipped = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);
