import { randomUUID } from 'node:crypto'
import type { Context, Next } from 'koa'
import type { Logger } from 'pino'
import type { AppState } from '../app-state.js'

/**
 * The route template a request matched (`/rest/resources/:resId/content`), or null when none did. Logs
 * name templates, never raw paths: paths carry identifiers, and a template's count is bounded.
 */
export function routeTemplate(ctx: Context): string | null {
  return (ctx as Context & { _matchedRoute?: string | RegExp })._matchedRoute?.toString() ?? null
}

/**
 * Gives each request an id and a child logger, tolerates duplicate slashes in paths (some real clients
 * build `/rest//res/list`), and logs one line per request: id, method, route template, status, duration
 * the authenticated user's login and the client address (`ctx.ip`, set by `clientAddress`); never headers or
 * bodies, so no password, token or file.
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
      if (log.isLevelEnabled('info')) {
        const line = {
          method: ctx.method,
          route: routeTemplate(ctx),
          status: ctx.status,
          durationMs: Math.round(ms * 10) / 10,
          user: ctx.state.actor?.login ?? null,
          client: ctx.ip,
        }
        requestLog().info(line, 'request')
      }
    }
  }
}
