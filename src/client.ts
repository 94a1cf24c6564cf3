/**
 * The `grue` command line. Commander parses arguments (declarative subcommands, typed option
 * parsers, generated --help); each subcommand lives in src/cli/.
 */
import { ServiceError } from '@temporalio/client';
import { Command, CommanderError } from 'commander';
import { ConfigError } from './config';
import { EngineError } from './engine/errors';
import { UsageError } from './cli/args';
import { registerExperimentCommands } from './cli/experiment';
import { registerGameCommand } from './cli/game';
import { registerInspectCommands } from './cli/inspect';
import { registerPlayCommands } from './cli/play';
import { registerSuiteCommand } from './cli/suite';
import { InterruptedError } from './cli/temporal';
import { refusedByServer, TemporalProfileError } from './temporal/profile';
import { TemporalSetupError } from './temporal/server';
import { stopTracing } from './temporal/tracing';

export function buildProgram(): Command {
  const program = new Command();
  program
    .name('grue')
    .description('LLM agents that play interactive fiction (Z-machine games) as durable Temporal workflows.')
    // Argument errors read like every other grue error: one `grue: …` line, then where the usage is.
    .configureOutput({ outputError: (message, write) => write(`grue: ${message.replace(/^error: /, '')}`) })
    .showHelpAfterError('(see --help for the usage)')
    .option(
      '--profile <name>',
      'the Temporal connection profile in temporal.toml, as the temporal CLI reads it (default: $TEMPORAL_PROFILE, else "default")',
    )
    // --profile is the program's, given before or after the subcommand: each command's help shows it too.
    .configureHelp({ showGlobalOptions: true })
    .exitOverride();
  // Set before any command reads its configuration, so every connection (client, in-process worker) uses the profile.
  program.hook('preAction', (command) => {
    const profile = command.optsWithGlobals<{ profile?: string }>().profile;
    if (profile === undefined) return;
    if (!profile.trim()) throw new UsageError('--profile must name a profile of temporal.toml.');
    process.env.TEMPORAL_PROFILE = profile;
  });
  registerPlayCommands(program);
  registerExperimentCommands(program);
  registerSuiteCommand(program);
  registerInspectCommands(program);
  registerGameCommand(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  try {
    await buildProgram().parseAsync(argv);
    return 0;
  } catch (err) {
    // Help and version exit 0; any argument error is a usage error (2), like our own.
    if (err instanceof CommanderError) return err.exitCode === 0 ? 0 : 2;
    if (
      err instanceof EngineError ||
      err instanceof UsageError ||
      err instanceof TemporalSetupError ||
      err instanceof ConfigError ||
      err instanceof TemporalProfileError
    ) {
      process.stderr.write(`grue: ${err.message}\n`);
      return 2;
    }
    // A call the profile's credentials may not make (the connection itself is checked in src/temporal/connect.ts).
    const refused = refusedByServer(err);
    if (refused) {
      process.stderr.write(`grue: ${refused.message}\n`);
      return 2;
    }
    if (err instanceof InterruptedError) {
      process.stderr.write(`grue: ${err.message}\n`);
      return err.exitCode;
    }
    if (err instanceof ServiceError) {
      const cause = err.cause instanceof Error ? `: ${err.cause.message}` : '';
      process.stderr.write(
        `grue: the Temporal server refused: ${err.message}${cause}. Is TEMPORAL_ADDRESS right, and is its data folder intact?\n`,
      );
      return 1;
    }
    process.stderr.write(`grue: unexpected error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}\n`);
    return 1;
  }
}

/**
 * Entry point for bin/grue.js. A finished command ends the process: nothing it started (the
 * embedded model's host process, the Temporal runtime's threads) may keep it alive after the
 * result is printed. Every command's action awaits its own work, including the `grue game` REPL.
 */
export function run(): void {
  // main never rejects: it turns every error into a message and an exit code.
  void main(process.argv).then(async (code) => {
    await stopTracing(); // the spans still batched leave before the process does
    process.exit(code);
  });
}

if (require.main === module) run();
