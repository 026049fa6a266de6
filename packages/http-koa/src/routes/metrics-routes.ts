import type Router from '@koa/router'
import { fail } from '@mailroom/core'

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
export function registerMetricsRoutes(router: Router, endpoint: MetricsEndpoint): void {
  router.get('/metrics', async (ctx) => {
    if (!endpoint.allows(ctx.req.socket.remoteAddress ?? '')) fail('METRICS_FORBIDDEN')
    const { contentType, body } = await endpoint.render()
    ctx.set('Cache-Control', 'no-store')
    ctx.type = contentType
    ctx.body = body
  })
}
