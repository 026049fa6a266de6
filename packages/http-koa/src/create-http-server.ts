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
  /** Time to receive the whole request (default 300 s: a maximum-size upload on a slow link). */
  readonly requestTimeoutMs?: number
}

function jsonResponse(status: number, reason: string, message: string): string {
  const body = JSON.stringify({ errors: message })
  return `HTTP/1.1 ${status} ${reason}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`
}

/**
 * The Node HTTP server for a Mailroom app, with bounded header size and timeouts. Requests Node rejects
 * before the app sees them (oversized or malformed headers) still get a JSON error body.
 */
export function createHttpServer(app: Koa<any>, limits: HttpServerLimits = {}): Server {
  const server = createServer({ maxHeaderSize: limits.maxHeaderBytes ?? 16 * 1024 }, app.callback())
  server.headersTimeout = limits.headersTimeoutMs ?? 30_000
  server.requestTimeout = limits.requestTimeoutMs ?? 300_000
  server.keepAliveTimeout = 5_000
  server.on('clientError', (error: NodeJS.ErrnoException, socket: Socket) => {
    if (!socket.writable || (error as { code?: string }).code === 'ECONNRESET') {
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
