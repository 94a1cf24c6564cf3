/**
 * The scene tier of the valid-action search: where nothing changes the object tree (9:05's car,
 * where the player answers yes or no and only global variables move), the object-free commands
 * whose effect on the globals differs from a passing turn's and lasts past the next command.
 */
import { createHash } from 'node:crypto';
import { sceneCandidates } from './candidates';
import type { ValidAction } from './effectGroups';
import { worldDiff, type WorldState } from './objects';
import type { GameSession, VmState } from './session';
import { triedFrom } from './stepsRunner';

/** How a probed command left the game. */
export function outcomeOf(session: GameSession): ValidAction['outcome'] {
  return session.died ? 'died' : session.victory ? 'won' : session.isOver ? 'ended' : 'continue';
}

/** The 240 global variables (480 bytes), copied. */
const globalsOf = (session: GameSession) => Buffer.from(session.mem.subarray(session.story.globals, session.story.globals + 480));

/** The globals after a command, and after a look that follows it (null when the command ends the game). */
interface SceneTry {
  after: Buffer;
  endsGame: boolean;
  /** What the command left once the next command has run: the parser's own globals are overwritten by then. */
  lasting: Buffer | null;
}

/** Runs `command` from `start`, then `followUp` from there; leaves the session as `command` left it. */
function tryScene(session: GameSession, start: VmState, command: string, followUp: string): SceneTry | null {
  if (!triedFrom(session, start, command)) return null;
  const after = globalsOf(session);
  const endsGame = session.isDone && !start.flags.done;
  let lasting: Buffer | null = null;
  if (!session.isDone) {
    const world = session.captureState();
    try {
      session.tryCommand(followUp);
      lasting = globalsOf(session);
    } catch {
      lasting = null;
    }
    session.restoreState(world);
  }
  return { after, endsGame, lasting };
}

/**
 * Commands that answer nothing in any scene. What they leave behind differs only in the globals
 * the game's clock and parser move (Planetfall's clock runs on by a different amount per verb,
 * "wait" runs it for several turns, an unknown word not at all): those globals tell no scene move apart.
 */
const REFERENCE_COMMANDS = ['wait', 'look', 'inventory', 'score'];
/** A word no story knows, and a number no menu offers: the parser keeps the last number it read. */
const OUTSIDE_REFERENCES = ['qxzzyv', '97'];

/** The 16-bit globals on which the reference commands' lasting values disagree. */
function clockAndParserGlobals(references: Buffer[]): Set<number> {
  const varying = new Set<number>();
  for (const other of references.slice(1)) {
    for (let i = 0; i < other.length; i += 2) if (other.readUInt16BE(i) !== references[0].readUInt16BE(i)) varying.add(i);
  }
  return varying;
}

function differsOutside(a: Buffer, b: Buffer, ignored: Set<number>): boolean {
  for (let i = 0; i < a.length; i += 2) if (!ignored.has(i) && a.readUInt16BE(i) !== b.readUInt16BE(i)) return true;
  return false;
}

/**
 * The scene tier (see the header): object-free commands whose effect on the globals differs from a
 * passing turn's and lasts past the next command, outside the globals that commands which answer
 * nothing move. An Infocom parser keeps the last verb and objects in globals, so without the
 * second test every word it knows read as a scene move wherever the object tree cannot change.
 */
export function findSceneActions(session: GameSession, start: VmState, before: WorldState, groups: Map<string, ValidAction>): void {
  session.restoreState(start);
  const untouched = globalsOf(session);
  // Waiting for a key, "wait" is the key w: what it does ("Boo who?" answered, a page turned) is a move too.
  const keyWait = session.waitsForKey;
  // Read where the search starts: the tries below leave the session elsewhere (past the key, in a menu).
  const candidates = sceneCandidates(session);
  const dictionary = session.dictionary;
  const followUp = ['look', 'l', 'wait', 'z'].find((word) => dictionary.has(word)) ?? 'look';
  const waiting = tryScene(session, start, 'wait', followUp);
  const waited = waiting?.after ?? untouched;
  // A menu that reads single keys takes only a command's first letter: no command there answers nothing.
  const referenceCommands = keyWait ? [] : [...REFERENCE_COMMANDS.filter((word) => dictionary.has(word)), ...OUTSIDE_REFERENCES];
  const references = referenceCommands
    .map((command) => (command === 'wait' ? waiting : tryScene(session, start, command, followUp)))
    .filter((t): t is SceneTry => t !== null && !t.endsGame && t.lasting !== null);
  const ignored = clockAndParserGlobals(references.map((t) => t.lasting as Buffer));
  const lastingBase = references[0]?.lasting ?? untouched;
  for (const command of candidates) {
    const tried = tryScene(session, start, command, followUp);
    if (!tried) continue;
    const { after, endsGame, lasting } = tried;
    const key = `${after.toString('hex')}#${endsGame}`;
    if (!endsGame && (after.equals(untouched) || (!keyWait && after.equals(waited)))) continue;
    if (!endsGame && references.length && lasting && !differsOutside(lasting, lastingBase, ignored)) continue;
    const group = groups.get(key);
    if (group) {
      group.equivalents.push(command);
      continue;
    }
    // tryScene left the session where the command took it.
    const world = session.effectState();
    // Told apart from the unchanged world by the globals they set, so a scene's moves read as new states.
    const resultHash = createHash('md5').update(session.worldHashAfter(world)).update(after).digest('hex');
    const diff = worldDiff(before, world);
    const scoreDelta = world.score - before.score;
    const effect = `scene:${key}`;
    const outcome = outcomeOf(session);
    const resultCell = session.cell();
    groups.set(key, { command, equivalents: [], diff, scoreDelta, endsGame, resultHash, outcome, resultCell, scene: true, effect });
  }
}
