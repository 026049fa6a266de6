import { migrateToLatest, openDatabase, withStartupLock } from '@mailroom/mailroom'
import type { Command } from 'commander'
import { loadConfig } from '../config.js'
import { holdingDatabase, operate } from './admin-session.js'
import type { CliContext } from './cli-context.js'

/** `mailroom migrate`, `mailroom demo` and `mailroom token <login>`. */
export function registerDatabaseCommands(program: Command, context: CliContext): void {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const config = loadConfig(context.env, { requireSecret: false })
      // A server holding the embedded database migrated it when it started: this refuses beside it.
      await holdingDatabase(config, 'migrate', async () => {
        const database = await openDatabase(config.database)
        try {
          // Under the servers' start-up lock: a server starting meanwhile waits rather than migrating too.
          const result = await withStartupLock(database, (db) => migrateToLatest(db), {
            onWait: () => context.log.info('waiting for a server starting on this database'),
          })
          const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? []
          context.out(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n')
        } finally {
          await database.close()
        }
      })
    })

  program
    .command('demo')
    .description('load the demo dataset (no-op when users exist)')
    .action(async () => {
      const loaded = await operate(context, 'demo', 'loadDemo', {})
      if (loaded !== undefined)
        context.out(loaded ? 'demo dataset loaded\n' : 'users already exist: demo dataset not loaded\n')
    })

  program
    .command('token')
    .description('issue a service token for /digitalSafe (revokes the previous one)')
    .argument('<login>', 'the user the token acts for')
    .action(async (login: string) => {
      // Whatever the service refuses is told as it always was: no such user.
      const quiet = { ...context, err: () => {} }
      const token = await operate(quiet, 'token', 'issueServiceToken', { login }, { signs: true })
      context.exitCode = quiet.exitCode
      if (token === undefined) context.err(`no such user: ${login}\n`)
      else context.out(`${token}\n`)
    })
}
