import { fail } from '@mailroom/core'
import type { RouteDeclaration } from './route-declaration.js'

/** What serving GET /metrics needs; the server builds it (Prometheus), the adapter only answers with it. */
export interface MetricsEndpoint {
  /** The metrics in the exposition format, with its content type. */
  render(): Promise<{ readonly contentType: string; readonly body: string }>
  /** Whether a connection from this address may read them (its socket address, never a forwarded header). */
  allows(address: string): boolean
}

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
