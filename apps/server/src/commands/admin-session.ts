import { randomBytes } from 'node:crypto'
import { isDomainError } from '@mailroom/core'
import { createMailroom, type Mailroom } from '@mailroom/mailroom'
import { documentStoreChoice, loadConfig } from '../config.js'
import type { CliContext } from './cli-context.js'

/** Who history records for changes made from the command line: the operator's system account. */
export function operatorAuthor(env: NodeJS.ProcessEnv): { userId: null; name: string } {
  return { userId: null, name: `cli:${env.USER || env.LOGNAME || 'operator'}` }
}

/**
 * Runs an administration command on the configured database: a refusal Mailroom describes (invalid document,
 * unknown user, password rules) is printed on standard error with exit code 1, never as a stack trace.
 */
export async function withMailroom(context: CliContext, work: (mailroom: Mailroom) => Promise<void>): Promise<void> {
  // Administration signs nothing: it works before MAILROOM_SECRET is chosen.
  const config = loadConfig(context.env, { requireSecret: false })
  const mailroom = await createMailroom({
    database: config.database,
    ...documentStoreChoice(config),
    secret: config.secret || randomBytes(32).toString('base64url'),
    passwordPolicy: config.passwordPolicy,
    converter: null,
    journal: { sweepIntervalMs: 0 },
  })
  try {
    await work(mailroom)
  } catch (error) {
    if (!isDomainError(error)) throw error
    context.err(`${error.message}\n`)
    context.exitCode = 1
  } finally {
    await mailroom.close()
  }
}

/** Reads a whole stream as UTF-8 text. */
export async function readAll(stream: NodeJS.ReadableStream): Promise<string> {
  const chunks: Buffer[] = []
  for await (const chunk of stream) chunks.push(typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer))
  return Buffer.concat(chunks).toString('utf8')
}
