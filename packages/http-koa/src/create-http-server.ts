import { createServer, type Server } from 'node:http'
import type { Socket } from 'node:net'
import { errorMessage } from '@mailroom/core'
import type Koa from 'koa'

/** Limits of the Node HTTP server in front of the app. */
export interface HttpServerLimits {
  /** Largest request header block in bytes (default 16 KiB). */
  readonly maxHeaderBytes?: number
  /** Time to receive the headers (default 30 s). */
  readonly headersTimeoutMs?: number
  /** Time to receive the whole request, body included (default 300 s: a maximum-size upload on a slow link). */
  readonly requestTimeoutMs?: number
}

/** Default time to receive the headers. */
export const DEFAULT_HEADERS_TIMEOUT_MS = 30_000
/** Default time to receive a whole request. */
export const DEFAULT_RECEIVE_TIMEOUT_MS = 300_000

function jsonResponse(status: number, reason: string, message: string): string {
  const body = JSON.stringify({ errors: message })
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
}

/**
 * The Node HTTP server for a Mailroom app, with bounded header size and timeouts. Requests Node rejects
 * before the app sees them (oversized or malformed headers) still get a JSON error body.
 */
export function createHttpServer(app: Koa<any>, limits: HttpServerLimits = {}): Server {
  const headersTimeout = limits.headersTimeoutMs ?? DEFAULT_HEADERS_TIMEOUT_MS
  const requestTimeout = limits.requestTimeoutMs ?? DEFAULT_RECEIVE_TIMEOUT_MS
  if (headersTimeout <= 0 || requestTimeout <= 0 || headersTimeout > requestTimeout)
    throw new RangeError(
      `the headers timeout (${headersTimeout} ms) must be positive and at most the request timeout (${requestTimeout} ms)`,
    )
  // Node looks for late requests on a timer (30 s by default): look often enough that a timeout is kept
  // to within a quarter of itself, and no more than every 50 ms.
  const connectionsCheckingInterval = Math.max(50, Math.min(30_000, Math.floor(headersTimeout / 4)))
  const server = createServer(
    { maxHeaderSize: limits.maxHeaderBytes ?? 16 * 1024, connectionsCheckingInterval },
    app.callback(),
  )
  server.headersTimeout = headersTimeout
  server.requestTimeout = requestTimeout
  server.keepAliveTimeout = 5_000
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    // A response already under way cannot be followed by another: such a connection is only cut.
    const answering =
      (socket as Socket & { _httpMessage?: { headersSent?: boolean } })._httpMessage?.headersSent === true
    if (!socket.writable || answering || (error as { code?: string }).code === 'ECONNRESET') {
      socket.destroy()
      return
    }
    const code = (error as { code?: string }).code
    const response =
      code === 'HPE_HEADER_OVERFLOW'
        ? jsonResponse(431, 'Request Header Fields Too Large', errorMessage('HEADERS_TOO_LARGE'))
        : code === 'ERR_HTTP_REQUEST_TIMEOUT'
          ? jsonResponse(408, 'Request Timeout', errorMessage('REQUEST_TIMEOUT'))
          : jsonResponse(400, 'Bad Request', errorMessage('MALFORMED_HTTP_REQUEST'))
    socket.end(response)
  })
  return server
}
