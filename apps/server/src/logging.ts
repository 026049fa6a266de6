import { type DestinationStream, type Logger, pino } from 'pino'
import pinoPretty from 'pino-pretty'
import { type Env, setting } from './settings/read-setting.js'

/** How log lines are written: JSON lines for collectors, or pretty lines for a person at a terminal. */
export type LogFormat = 'json' | 'pretty'

/** Where the logs go, and whether a person reads it there. */
export interface LogOutput {
  readonly stream: DestinationStream & { isTTY?: boolean }
}

/**
 * The format MAILROOM_LOG_FORMAT asks for; unset, pretty on a terminal and JSON lines anywhere else
 * (a container, a file, a pipe into a collector).
 */
export function logFormat(env: Env, output: LogOutput): LogFormat {
  return setting(env, 'MAILROOM_LOG_FORMAT') ?? (output.stream.isTTY ? 'pretty' : 'json')
}

const REQUEST_FIELDS = ['method', 'route', 'status', 'durationMs', 'user', 'client'] as const

/** `[request id] GET /rest/resources/:resId 200 12.5ms bbain from 10.0.0.7` for a request line; `[request id] message` otherwise. */
export function prettyMessage(line: Record<string, unknown>, messageKey: string): string {
  const prefix = typeof line.requestId === 'string' ? `[${line.requestId}] ` : ''
  if (line[messageKey] === 'request' && typeof line.method === 'string') {
    const user = typeof line.user === 'string' ? ` ${line.user}` : ''
    const client = typeof line.client === 'string' ? ` from ${line.client}` : ''
    return `${prefix}${line.method} ${line.route ?? '(no route)'} ${line.status} ${line.durationMs}ms${user}${client}`
  }
  return `${prefix}${String(line[messageKey] ?? '')}`
}

/**
 * The server's logger. Credentials are redacted wherever a caller might log them; the request lines
 * themselves carry no header or body (http-koa's requestContext).
 */
export function createLogger(env: Env, output: LogOutput = { stream: process.stdout }): Logger {
  const options = {
    level: setting(env, 'LOG_LEVEL'),
    base: { service: 'mailroom' },
    timestamp: pino.stdTimeFunctions.isoTime,
    redact: [
      'req.headers.authorization',
      'req.headers.cookie',
      '*.password',
      '*.token',
      '*.refreshToken',
      '*.encodedFile',
    ],
  }
  if (logFormat(env, output) === 'json') return pino(options, output.stream)
  // In-process and synchronous (no worker thread): lines keep their order with the process's other output.
  const pretty = pinoPretty({
    destination: output.stream as NodeJS.WritableStream,
    colorize: output.stream.isTTY === true,
    sync: true,
    translateTime: 'SYS:HH:MM:ss.l',
    // The request line's fields read as one sentence; any other field is shown below its line.
    ignore: `pid,hostname,service,requestId,${REQUEST_FIELDS.join(',')}`,
    messageFormat: prettyMessage,
  })
  return pino(options, pretty)
}
