/**
 * `grue game <story>`: play any Z-machine story in the terminal, or run a scripted command list
 * and print one JSON line per step (for tests, debugging and data collection).
 */
import { Command } from 'commander';
import { createInterface } from 'node:readline';
import { EngineError, InvalidCommandError } from '../engine/errors';
import { resolveStory } from '../engine/resolveStory';
import { GameSession, validateCommand } from '../engine/session';
import { findValidActions } from '../engine/validActions';
import { parseInteger } from './args';

interface GameOptions {
  seed: number;
  commands?: string;
  json?: boolean;
  valid?: boolean;
}

function splitCommands(list: string): string[] {
  return list.split('/').map((c) => c.trim());
}

export function registerGameCommand(program: Command): void {
  program
    .command('game')
    .description('Play a story yourself, or run scripted commands (--commands) and print the results.')
    .argument('<story>', 'path to a .z3/.z5/.z8 story file, or the name of a bundled game (lighthouse, ferry, advent)')
    .option('--seed <n>', "seed for the game's random number generator", parseInteger('--seed'), 0)
    .option('--commands <list>', 'commands separated by "/", e.g. "north/open window"; runs them and exits')
    .option('--json', 'with --commands: print one JSON object per step')
    .option('--valid', 'also list the valid actions after each step (Jericho-style)')
    .action(async (story: string, opts: GameOptions) => {
      const session = GameSession.fromFile(resolveStory(story), { seed: opts.seed });
      if (opts.commands !== undefined) runScript(session, splitCommands(opts.commands), opts);
      else await interactive(session, opts);
    });
}

function runScript(session: GameSession, commands: string[], opts: GameOptions): void {
  // Check every command before running any, so a typo fails fast instead of half-way through.
  commands.forEach((c, i) => {
    try {
      validateCommand(c);
    } catch (err) {
      throw new InvalidCommandError(`command ${i + 1} ("${c.slice(0, 40)}"): ${(err as Error).message}`);
    }
  });
  if (!opts.json) process.stdout.write(`${session.intro}\n`);
  for (const command of commands) {
    const result = session.step(command);
    const validActions = opts.valid ? findValidActions(session).map((a) => a.command) : undefined;
    if (opts.json) {
      process.stdout.write(`${JSON.stringify(validActions ? { ...result, validActions } : result)}\n`);
    } else {
      process.stdout.write(`\n> ${command}\n${result.observation}\n${statusText(session)}\n`);
      if (validActions) process.stdout.write(`[valid: ${validActions.join(', ')}]\n`);
    }
    if (session.isOver) break;
  }
}

function statusText(session: GameSession): string {
  const t = session.groundTruth();
  const max = session.maxScore !== undefined ? `/${session.maxScore}` : '';
  return `[${t.location.name || '?'} | score ${t.score}${max} | moves ${t.moves}${t.victory ? ' | WON' : ''}${t.died ? ' | DIED' : ''}]`;
}

async function interactive(session: GameSession, opts: GameOptions): Promise<void> {
  process.stdout.write(`${session.intro}\n${statusText(session)}\n`);
  const rl = createInterface({ input: process.stdin, output: process.stdout, prompt: '> ' });
  rl.prompt();
  for await (const line of rl) {
    try {
      const result = session.step(line);
      process.stdout.write(`${result.observation}\n${statusText(session)}\n`);
      if (opts.valid)
        process.stdout.write(
          `[valid: ${findValidActions(session)
            .map((a) => a.command)
            .join(', ')}]\n`,
        );
      if (session.isOver) break;
    } catch (err) {
      if (!(err instanceof EngineError)) throw err;
      process.stdout.write(`[${err.message}]\n`);
      if (err.code !== 'INVALID_COMMAND') break;
    }
    rl.prompt();
  }
  rl.close();
}
