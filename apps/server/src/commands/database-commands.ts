import { randomBytes } from 'node:crypto'
import { createMailroom, migrateToLatest, openDatabase, withStartupLock } from '@mailroom/mailroom'
import type { Command } from 'commander'
import { documentStoreChoice, loadConfig } from '../config.js'
import type { CliContext } from './cli-context.js'

/** `mailroom migrate`, `mailroom demo` and `mailroom token <login>`. */
export function registerDatabaseCommands(program: Command, context: CliContext): void {
  program
    .command('migrate')
    .description('apply pending database migrations')
    .action(async () => {
      const config = loadConfig(context.env, { requireSecret: false })
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

  program
    .command('demo')
    .description('load the demo dataset (no-op when users exist)')
    .action(async () => {
      // Loading data signs nothing: the demo can be loaded before MAILROOM_SECRET is chosen.
      const config = loadConfig(context.env, { requireSecret: false })
      const secret = config.secret || randomBytes(32).toString('base64url')
      const mailroom = await createMailroom({ database: config.database, ...documentStoreChoice(config), secret })
      try {
        context.out(
          (await mailroom.loadDemo()) ? 'demo dataset loaded\n' : 'users already exist: demo dataset not loaded\n',
        )
      } finally {
        await mailroom.close()
      }
    })

  program
    .command('token')
    .description('issue a service token for /digitalSafe (revokes the previous one)')
    .argument('<login>', 'the user the token acts for')
    .action(async (login: string) => {
      const config = loadConfig(context.env)
      const mailroom = await createMailroom({
        database: config.database,
        ...documentStoreChoice(config),
        secret: config.secret,
      })
      try {
        context.out(`${await mailroom.auth.issueServiceToken(login)}\n`)
      } catch {
        context.err(`no such user: ${login}\n`)
        context.exitCode = 1
      } finally {
        await mailroom.close()
      }
    })
}
