import type Router from '@koa/router'
import type { MailroomServices } from '@mailroom/core'

/** GET /healthz (no authentication): 200 when the database and document storage answer, else 503. */
export function registerHealthRoutes(router: Router, services: MailroomServices): void {
  router.get('/healthz', async (ctx) => {
    const health = await services.health().catch(() => ({ database: false, storage: false }))
    const ok = health.database && health.storage
    ctx.status = ok ? 200 : 503
    ctx.body = { status: ok ? 'ok' : 'unavailable', ...health }
  })
}
