import { randomBytes, timingSafeEqual } from 'node:crypto'
import { chmodSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs'
import { createServer, type IncomingMessage, request, type ServerResponse } from 'node:http'
import { join } from 'node:path'
import { isDomainError } from '@mailroom/core'
import type { Mailroom } from '@mailroom/mailroom'
import type { Logger } from 'pino'
import {
  isOperationName,
  type OperationArguments,
  type OperationName,
  type OperationResult,
  runOperation,
} from './operator-operations.js'

/** The longest socket path every Unix accepts (sun_path is 104 bytes on macOS, 108 on Linux, with its NUL). */
const MAX_SOCKET_PATH_BYTES = 103
/** An organisation document is the largest thing sent. */
const MAX_REQUEST_BYTES = 64 * 1024 * 1024

/** The operator socket of a data directory and the file holding the token that opens it. */
export function operatorChannelFiles(dataDir: string): { readonly socket: string; readonly token: string } {
  return { socket: join(dataDir, 'operator.sock'), token: join(dataDir, 'operator-token') }
}

/** The server's end of the operator socket. */
export interface OperatorChannel {
  readonly socket: string
  /** Stops taking operations, waits for those in flight, removes the socket and the token. */
  close(): Promise<void>
}

function removeQuietly(file: string): void {
  try {
    unlinkSync(file)
  } catch {
    // Already gone.
  }
}

function answer(response: ServerResponse, status: number, body: unknown): void {
  response.writeHead(status, { 'content-type': 'application/json' })
  response.end(JSON.stringify(body))
}

async function readBody(incoming: IncomingMessage): Promise<string | null> {
  const chunks: Buffer[] = []
  let size = 0
  for await (const chunk of incoming) {
    size += (chunk as Buffer).length
    if (size > MAX_REQUEST_BYTES) return null
    chunks.push(chunk as Buffer)
  }
  return Buffer.concat(chunks).toString('utf8')
}

function tokenMatches(header: string | undefined, token: string): boolean {
  const given = Buffer.from(/^Bearer (\S+)$/.exec(header ?? '')?.[1] ?? '')
  const expected = Buffer.from(token)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * Serves the command line's operations to the process holding the embedded database: an HTTP server on a
 * Unix socket in the data directory, owner-only, that also asks for a token made at each start and written
 * owner-only beside it (file modes are not checked on every system's sockets). Returns null, with a
 * warning, when the data directory's path is too long for a socket: commands then refuse while it runs.
 */
export async function openOperatorChannel(
  dataDir: string,
  mailroom: Mailroom,
  log: Logger,
): Promise<OperatorChannel | null> {
  const files = operatorChannelFiles(dataDir)
  if (Buffer.byteLength(files.socket) > MAX_SOCKET_PATH_BYTES) {
    log.warn(
      `no operator socket: ${files.socket} is too long for a Unix socket, so commands that change the database refuse while this server runs (choose a shorter MAILROOM_DATA_DIR)`,
    )
    return null
  }
  const token = randomBytes(32).toString('base64url')
  const temporary = `${files.token}.${process.pid}`
  writeFileSync(temporary, `${token}\n`, { mode: 0o600 })
  renameSync(temporary, files.token)
  const server = createServer(async (incoming, response) => {
    const name = /^\/operations\/(\w+)$/.exec(incoming.url ?? '')?.[1] ?? ''
    if (incoming.method !== 'POST' || !isOperationName(name))
      return answer(response, 404, { error: 'no such operation' })
    if (!tokenMatches(incoming.headers.authorization, token))
      return answer(response, 401, { error: 'wrong operator token' })
    const body = await readBody(incoming)
    if (body === null) return answer(response, 413, { error: 'request too large' })
    try {
      const args = JSON.parse(body) as OperationArguments<typeof name>
      const author = (args as { author?: { name?: string } }).author?.name
      log.info({ operation: name, ...(author ? { author } : {}) }, 'operator command')
      answer(response, 200, { result: await runOperation(mailroom, name, args) })
    } catch (error) {
      if (isDomainError(error)) return answer(response, 422, { error: error.message })
      log.error({ err: error, operation: name }, 'operator command failed')
      answer(response, 500, { error: 'the server could not do it: see its log' })
    }
  })
  // The lock is ours: a socket left there is a dead holder's.
  removeQuietly(files.socket)
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject)
    server.listen(files.socket, () => resolve())
  })
  chmodSync(files.socket, 0o600)
  return {
    socket: files.socket,
    async close() {
      await new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
      })
      removeQuietly(files.socket)
      removeQuietly(files.token)
    },
  }
}

/** The server's answer to an operation: its result, or the message of its refusal. */
export type OperatorAnswer<K extends OperationName> =
  | { readonly done: true; readonly result: OperationResult<K> }
  | { readonly done: false; readonly message: string }

/** The socket could not be reached: the server stopped meanwhile (the caller looks at the lock again). */
export class OperatorChannelGone extends Error {
  override readonly name = 'OperatorChannelGone'
}

/** Sends one operation to the server holding the embedded database. */
export async function callOperatorChannel<K extends OperationName>(
  dataDir: string,
  socket: string,
  name: K,
  args: OperationArguments<K>,
): Promise<OperatorAnswer<K>> {
  const tokenFile = operatorChannelFiles(dataDir).token
  let token: string
  try {
    token = readFileSync(tokenFile, 'utf8').trim()
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    if (code === 'ENOENT') throw new OperatorChannelGone(`${tokenFile} is gone`)
    return {
      done: false,
      message: `cannot read the operator token ${tokenFile} (${code}): run the command as the user the server runs as`,
    }
  }
  const body = JSON.stringify(args)
  return new Promise((resolve, reject) => {
    const outgoing = request(
      {
        socketPath: socket,
        method: 'POST',
        path: `/operations/${name}`,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(body),
        },
      },
      (incoming) => {
        readBody(incoming).then((text) => {
          const parsed = JSON.parse(text ?? '{}') as { result?: OperationResult<K>; error?: string }
          resolve(
            incoming.statusCode === 200
              ? { done: true, result: parsed.result as OperationResult<K> }
              : { done: false, message: parsed.error ?? `the server answered ${incoming.statusCode}` },
          )
        }, reject)
      },
    )
    outgoing.on('error', (error: NodeJS.ErrnoException) =>
      reject(error.code === 'ECONNREFUSED' || error.code === 'ENOENT' ? new OperatorChannelGone(error.message) : error),
    )
    outgoing.end(body)
  })
}
