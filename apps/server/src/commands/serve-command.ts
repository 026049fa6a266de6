import type { Command } from 'commander'
import { loadConfig } from '../config.js'
import { startServer } from '../serve.js'
import type { CliContext } from './cli-context.js'

/** `mailroom serve`: runs until SIGTERM or SIGINT, then finishes the requests in flight. */
export function registerServeCommand(program: Command, context: CliContext): void {
  program
    .command('serve')
    .description('start the HTTP server (applies pending migrations first)')
    .action(async () => {
      const { log } = context
      const running = await startServer(loadConfig(context.env), log)
      const consoleNote = running.consoleUrl ? ` (web console: ${running.consoleUrl})` : ''
      log.info({ url: running.url }, `Mailroom ready on ${running.url}${consoleNote}`)
      await new Promise<void>((resolve) => {
        const stop = (signal: string) => {
          log.info({ signal }, 'stopping: finishing requests in flight')
          running.stop().then(resolve, (error) => {
            log.error({ err: error }, 'error while stopping')
            resolve()
          })
        }
        process.once('SIGTERM', () => stop('SIGTERM'))
        process.once('SIGINT', () => stop('SIGINT'))
      })
      log.info('stopped')
    })
}
