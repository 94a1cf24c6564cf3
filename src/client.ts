/**
 * The `grue` command line. Commander parses arguments (declarative subcommands, typed option
 * parsers, generated --help); each subcommand lives in src/cli/.
 */
import { Command, CommanderError } from 'commander';
import { EngineError } from './engine/errors';
import { registerGameCommand } from './cli/game';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('grue')
    .description('LLM agents that play interactive fiction (Z-machine games) as durable Temporal workflows.')
    .showHelpAfterError()
    .exitOverride();
  registerGameCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) return err.exitCode;
    if (err instanceof EngineError) {
      process.stderr.write(`grue: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`grue: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  }
}

/** Entry point for bin/grue.js. */
export function run(): void {
  main(process.argv).then((code) => {
    process.exitCode = code;
  });
}

if (require.main === module) run();
