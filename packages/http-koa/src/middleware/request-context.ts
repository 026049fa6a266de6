import { randomUUID } from 'node:crypto'
import type { Context, Next } from 'koa'
import type { Logger } from 'pino'
import type { AppState } from '../app-state.js'

/**
 * Gives each request an id and a child logger, tolerates duplicate slashes in paths (some real clients
 * build `/rest//res/list`), and logs one line per request.
 */
export function requestContext(log: Logger) {
  return async (ctx: Context & { state: AppState }, next: Next) => {
    const started = process.hrtime.bigint()
    const incoming = ctx.get('x-request-id')
    const requestId = /^[A-Za-z0-9._-]{1,64}$/.test(incoming) ? incoming : randomUUID()
    ctx.state.requestId = requestId
    // The child logger is made on first use: with the request line off, most requests never log.
    let child: Logger | undefined
    const requestLog = () => (child ??= log.child({ requestId }))
    Object.defineProperty(ctx.state, 'log', { get: requestLog, configurable: true, enumerable: true })
    ctx.set('X-Request-Id', requestId)
    const normalised = ctx.path.replace(/\/{2,}/g, '/')
    ctx.path = normalised.length > 1 && normalised.endsWith('/') ? normalised.slice(0, -1) : normalised
    try {
      await next()
    } finally {
      const ms = Number(process.hrtime.bigint() - started) / 1e6
      if (log.isLevelEnabled('info')) requestLog().info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(ms * 10) / 10 }, 'request')
    }
  }
}
