import { fail } from '@mailroom/core'
import type { RouteDeclaration } from './route-declaration.js'

/**
 * GET /metrics, outside users' authentication (a scraper has no Mailroom account): restricted by the
 * connection's address instead. X-Forwarded-For is not consulted even behind a trusted proxy, since any
 * client can write it.
 */
export const metricsRoute: RouteDeclaration = {
  method: 'get',
  path: '/metrics',
  security: 'public',
  undocumented:
    "Prometheus's text format for scrapers, not part of the API; served only when the server is given a metrics endpoint (often on a port of its own)",
  serve: ({ metrics }) =>
    metrics &&
    (async (ctx) => {
      if (!metrics.allows(ctx.req.socket.remoteAddress ?? '')) fail('METRICS_FORBIDDEN')
      const { contentType, body } = await metrics.render()
      ctx.set('Cache-Control', 'no-store')
      ctx.type = contentType
      ctx.body = body
    }),
}
