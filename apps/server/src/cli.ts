import { randomBytes } from 'node:crypto'
import { createMailroom, DocserverRoot, migrateToLatest, openDatabase, verifyJournal } from '@mailroom/storage'
import { pino } from 'pino'
import { ConfigError, loadConfig } from './config.js'
import { startServer } from './serve.js'
import { runJournalVerify } from './journal-verify.js'
import { parseFsckArguments, runFsck } from './fsck.js'

const USAGE = `Usage: mailroom <command>

Commands:
  serve                 start the HTTP server (applies pending migrations first)
  migrate               apply pending database migrations
  demo                  load the demo dataset (no-op when users exist)
  token <login>         issue a service token for /digitalSafe (revokes the previous one)
  journal verify [safe] check the digital-safe journal chain and stored files
  fsck [--dry-run] [--grace-minutes N]
                        check stored files against the database; remove orphan files
  help                  show this help

Settings come from the environment: PORT, HOST, MAILROOM_DATA_DIR, DATABASE_URL,
MAILROOM_DOCSERVER_DIR, MAILROOM_SECRET, MAILROOM_DEMO, MAILROOM_BODY_LIMIT, LOG_LEVEL,
MAILROOM_PREPARED_STATEMENTS (0 behind a pooler that cannot keep prepared statements).`

/** Runs one CLI command; returns the process exit code. */
export async function runCli(argv: string[], env: NodeJS.ProcessEnv = process.env): Promise<number> {
  const [command, ...args] = argv
  const log = pino({
    level: env.LOG_LEVEL || 'info',
    base: { service: 'mailroom' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: ['req.headers.authorization', 'req.headers.cookie', '*.password'],
  })
  try {
    switch (command) {
      case 'serve': {
        const config = loadConfig(env)
        const running = await startServer(config, log)
        log.info({ url: running.url }, `Mailroom ready on ${running.url}`)
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
        return 0
      }
      case 'migrate': {
        const config = loadConfig(env, { requireSecret: false })
        const database = await openDatabase(config.database)
        try {
          const result = await migrateToLatest(database.db)
          const applied = result.results?.filter((r) => r.status === 'Success').map((r) => r.migrationName) ?? []
          process.stdout.write(applied.length ? `applied: ${applied.join(', ')}\n` : 'database is up to date\n')
        } finally {
          await database.close()
        }
        return 0
      }
      case 'demo': {
        // Loading data signs nothing: the demo can be loaded before MAILROOM_SECRET is chosen.
        const config = loadConfig(env, { requireSecret: false })
        const secret = config.secret || randomBytes(32).toString('base64url')
        const mailroom = await createMailroom({ database: config.database, docserverDir: config.docserverDir, secret })
        try {
          process.stdout.write((await mailroom.loadDemo()) ? 'demo dataset loaded\n' : 'users already exist: demo dataset not loaded\n')
        } finally {
          await mailroom.close()
        }
        return 0
      }
      case 'token': {
        const login = args[0]
        if (!login) {
          process.stderr.write('usage: mailroom token <login>\n')
          return 2
        }
        const config = loadConfig(env)
        const mailroom = await createMailroom({ database: config.database, docserverDir: config.docserverDir, secret: config.secret })
        try {
          process.stdout.write(`${await mailroom.auth.issueServiceToken(login)}\n`)
        } catch {
          process.stderr.write(`no such user: ${login}\n`)
          return 1
        } finally {
          await mailroom.close()
        }
        return 0
      }
      case 'fsck': {
        const fsckArgs = parseFsckArguments(args)
        if (!fsckArgs) {
          process.stderr.write('usage: mailroom fsck [--dry-run] [--grace-minutes N]\n')
          return 2
        }
        return await runFsck(loadConfig(env, { requireSecret: false }), fsckArgs, (text) => process.stdout.write(text))
      }
      case 'journal': {
        const [subcommand, safe, ...extra] = args
        if (subcommand !== 'verify' || extra.length > 0) {
          process.stderr.write('usage: mailroom journal verify [safe]\n')
          return 2
        }
        const config = loadConfig(env)
        const mailroom = await createMailroom({ database: config.database, docserverDir: config.docserverDir, secret: config.secret })
        try {
          const target = { db: mailroom.db, docservers: new DocserverRoot(config.docserverDir) }
          return await runJournalVerify((name) => verifyJournal(target, name), safe, process.stdout)
        } finally {
          await mailroom.close()
        }
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        process.stdout.write(`${USAGE}\n`)
        return command === undefined ? 2 : 0
      default:
        process.stderr.write(`unknown command: ${command}\n\n${USAGE}\n`)
        return 2
    }
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`configuration error: ${error.message}\n`)
      return 1
    }
    log.error({ err: error }, 'command failed')
    return 1
  }
}
