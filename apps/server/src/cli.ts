import { createRequire } from 'node:module'
import { Command, CommanderError } from 'commander'
import type { Logger } from 'pino'
import { type CliContext, USAGE_EXIT_CODE } from './commands/cli-context.js'
import { registerDatabaseCommands } from './commands/database-commands.js'
import { registerDocserverCommand } from './commands/docserver-copy.js'
import { registerFsckCommand } from './commands/fsck.js'
import { registerFullTextCommands } from './commands/fulltext-commands.js'
import { registerImportCommand } from './commands/import-maarch-command.js'
import { registerJournalCommand } from './commands/journal-verify.js'
import { registerOrganisationCommands } from './commands/organisation-commands.js'
import { registerServeCommand } from './commands/serve-command.js'
import { registerUserCommands } from './commands/user-commands.js'
import { ConfigError } from './config-error.js'
import { DatabaseHeldError } from './embedded/database-held-error.js'
import { createLogger } from './logging.js'
import { settingsHelp } from './settings/render-settings.js'

/** The version of this package (src/ and dist/ both sit beside its package.json). */
export const VERSION: string = (createRequire(import.meta.url)('../package.json') as { version: string }).version

/** Every command of the CLI: a new command is one register function here. */
const COMMANDS = [
  registerServeCommand,
  registerDatabaseCommands,
  registerJournalCommand,
  registerFsckCommand,
  registerFullTextCommands,
  registerDocserverCommand,
  registerOrganisationCommands,
  registerUserCommands,
  registerImportCommand,
]

function buildProgram(context: CliContext): Command {
  const program = new Command('mailroom')
    .usage('<command> [options]')
    .description('Mailroom: mail records behind the Maarch Courrier 20.10 REST interface')
    .version(VERSION, '-V, --version', 'print the version')
    .addHelpText('after', settingsHelp())
    .helpCommand('help [command]', 'show help for a command')
    .showHelpAfterError()
  // Commands inherit these: output goes to the context, and a usage error returns instead of exiting.
  program.exitOverride().configureOutput({ writeOut: context.out, writeErr: context.err })
  for (const register of COMMANDS) register(program, context)
  return program
}

// Help and version asked for end with 0; anything else commander stops on (help shown because a
// subcommand is missing included) is a usage error.
function exitCodeOf(error: CommanderError): number {
  return error.exitCode === 0 ? 0 : USAGE_EXIT_CODE
}

/** Runs one CLI command; returns the process exit code. */
export async function runCli(
  argv: string[],
  env: NodeJS.ProcessEnv = process.env,
  io: { stdin?: CliContext['stdin'] } = {},
): Promise<number> {
  let log: Logger
  try {
    log = createLogger(env)
  } catch (error) {
    if (!(error instanceof ConfigError)) throw error
    process.stderr.write(`configuration error: ${error.message}\n`)
    return 1
  }
  const context: CliContext = {
    env,
    log,
    out: (text) => process.stdout.write(text),
    err: (text) => process.stderr.write(text),
    stdin: io.stdin ?? process.stdin,
    exitCode: 0,
  }
  const program = buildProgram(context)
  if (argv.length === 0) {
    context.out(program.helpInformation())
    return USAGE_EXIT_CODE
  }
  try {
    await program.parseAsync(argv, { from: 'user' })
    return context.exitCode
  } catch (error) {
    if (error instanceof CommanderError) return exitCodeOf(error)
    if (error instanceof ConfigError) {
      context.err(`configuration error: ${error.message}\n`)
      return 1
    }
    if (error instanceof DatabaseHeldError) {
      context.err(`${error.message}\n`)
      return 1
    }
    log.error({ err: error }, 'command failed')
    return 1
  }
}
