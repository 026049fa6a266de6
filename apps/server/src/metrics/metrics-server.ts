import { createServer, type Server } from 'node:http'
import { errorMessage } from '@mailroom/core'
import type { MetricsEndpoint } from '@mailroom/http-koa'

/**
 * GET /metrics on a port of its own (MAILROOM_METRICS_PORT), so it can be bound to an internal address
 * or firewalled apart from the API. The same address rule as on the API's port applies; anything else is 404.
 */
export function createMetricsServer(endpoint: MetricsEndpoint): Server {
  return createServer((request, response) => {
    const answer = (status: number, body: string, type = 'application/json') => {
      response.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' })
      response.end(body)
    }
    const path = (request.url ?? '/').split('?')[0]
    if (path !== '/metrics' || (request.method !== 'GET' && request.method !== 'HEAD'))
      return answer(404, JSON.stringify({ errors: errorMessage('ROUTE_NOT_FOUND') }))
    if (!endpoint.allows(request.socket.remoteAddress ?? ''))
      return answer(403, JSON.stringify({ errors: errorMessage('METRICS_FORBIDDEN') }))
    endpoint.render().then(
      ({ contentType, body }) => answer(200, body, contentType),
      () => answer(500, JSON.stringify({ errors: errorMessage('INTERNAL') })),
    )
  })
}
