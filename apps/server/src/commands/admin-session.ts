import { randomBytes } from 'node:crypto'
import { isDomainError } from '@mailroom/core'
import { createMailroom, type Mailroom } from '@mailroom/mailroom'
import { documentStoreChoice, loadConfig, type ServerConfig } from '../config.js'
import { databaseHeldError } from '../embedded/database-held-error.js'
import { claimDatabaseLock } from '../embedded/database-lock.js'
import { callOperatorChannel, OperatorChannelGone } from '../embedded/operator-channel.js'
import {
  type OperationArguments,
  type OperationName,
  type OperationResult,
  runOperation,
} from '../embedded/operator-operations.js'
import type { CliContext } from './cli-context.js'

/** Who history records for changes made from the command line: the operator's system account. */
export function operatorAuthor(env: NodeJS.ProcessEnv): { userId: null; name: string } {
  return { userId: null, name: `cli:${env.USER || env.LOGNAME || 'operator'}` }
}

/** Runs `work` on a Mailroom this command opens (no background sweep, no conversion), then closes it. */
async function onOwnMailroom<T>(config: ServerConfig, work: (mailroom: Mailroom) => Promise<T>): Promise<T> {
  const mailroom = await createMailroom({
    database: config.database,
    ...documentStoreChoice(config),
    // Administration signs nothing: it works before MAILROOM_SECRET is chosen.
    secret: config.secret || randomBytes(32).toString('base64url'),
    passwordPolicy: config.passwordPolicy,
    converter: null,
    journal: { sweepIntervalMs: 0 },
    // A command extracts no text: the servers' workers do (reindex only queues).
    fulltext: { language: config.fulltext.language, workers: 0 },
  })
  try {
    return await work(mailroom)
  } finally {
    await mailroom.close()
  }
}

/**
 * Runs `work` while this process holds the embedded database (on PostgreSQL, which processes share, at
 * once). While another process holds it, refuses with a DatabaseHeldError naming it and what to do.
 */
export async function holdingDatabase<T>(config: ServerConfig, command: string, work: () => Promise<T>): Promise<T> {
  if (config.database.kind !== 'pglite') return work()
  const claim = await claimDatabaseLock(config.dataDir, command)
  if (!claim.taken) throw databaseHeldError(command, claim.holder, config.dataDir)
  try {
    return await work()
  } finally {
    claim.lock.release()
  }
}

/**
 * Runs a command's `work` on its own Mailroom, while it holds the database as holdingDatabase says. A refusal
 * Mailroom describes is printed on standard error with exit code 1, never as a stack trace.
 */
export async function withMailroom(
  context: CliContext,
  command: string,
  work: (mailroom: Mailroom) => Promise<void>,
): Promise<void> {
  const config = loadConfig(context.env, { requireSecret: false })
  try {
    await holdingDatabase(config, command, () => onOwnMailroom(config, work))
  } catch (error) {
    if (!isDomainError(error)) throw error
    context.err(`${error.message}\n`)
    context.exitCode = 1
  }
}

// A server that stops between our look at the lock and our call frees it: look again, a few times.
const ATTEMPTS = 3

/**
 * Runs one operation of the command line where it is durable and seen by the server: in this process when it
 * may open the database, else by the server holding the embedded database (over its operator socket). A
 * refusal Mailroom describes (invalid document, unknown user, password rules) is printed on standard error
 * with exit code 1 and gives undefined, never a stack trace; a database held by a process that takes no
 * operations throws a DatabaseHeldError.
 */
export async function operate<K extends OperationName>(
  context: CliContext,
  command: string,
  name: K,
  args: OperationArguments<K>,
  options: { readonly signs?: boolean } = {},
): Promise<OperationResult<K> | undefined> {
  const refuse = (message: string) => {
    context.err(`${message}\n`)
    context.exitCode = 1
    return undefined
  }
  const config = loadConfig(context.env, { requireSecret: options.signs === true })
  const work = (mailroom: Mailroom) => runOperation(mailroom, name, args)
  try {
    for (let attempt = 1; ; attempt++) {
      if (config.database.kind !== 'pglite') return await onOwnMailroom(config, work)
      const claim = await claimDatabaseLock(config.dataDir, command)
      if (claim.taken) {
        try {
          return await onOwnMailroom(config, work)
        } finally {
          claim.lock.release()
        }
      }
      const socket = claim.holder.operatorSocket
      if (socket === null) throw databaseHeldError(command, claim.holder, config.dataDir)
      try {
        const answer = await callOperatorChannel(config.dataDir, socket, name, args)
        return answer.done ? answer.result : refuse(answer.message)
      } catch (error) {
        if (!(error instanceof OperatorChannelGone) || attempt === ATTEMPTS) throw error
      }
    }
  } catch (error) {
    if (!isDomainError(error)) throw error
    return refuse(error.message)
  }
}

/** Reads a whole stream as UTF-8 text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}
