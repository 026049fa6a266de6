import type Router from '@koa/router'
import type { LivenessResponse, MailroomServices, ReadinessResponse } from '@mailroom/core'

/** Whether the server is stopping: a stopping instance is alive but must not be sent new traffic. */
export interface ServerLifecycle {
  shuttingDown(): boolean
}

/**
 * GET /healthz (liveness, no authentication): 200 whenever the process answers; it checks nothing else,
 * so a database outage never makes an orchestrator restart healthy processes.
 * GET /readyz (readiness, no authentication): 200 when this instance should receive traffic, else 503
 * naming the failing checks.
 */
export function registerHealthRoutes(router: Router, services: MailroomServices, lifecycle?: ServerLifecycle): void {
  router.get('/healthz', (ctx) => {
    ctx.body = { status: 'ok' } satisfies LivenessResponse
  })
  router.get('/readyz', async (ctx) => {
    const health = await services.health().catch(() => ({ database: false, migrations: false, storage: false }))
    // Read after the checks: a stop that began while they ran must still turn this answer away.
    const shuttingDown = lifecycle?.shuttingDown() ?? false
    const checks = { database: health.database, migrations: health.migrations, storage: health.storage, shuttingDown }
    const failing = (['database', 'migrations', 'storage'] as const).filter((name) => !checks[name])
    const all: ReadinessResponse['failing'] = shuttingDown ? [...failing, 'shuttingDown'] : failing
    ctx.status = all.length === 0 ? 200 : 503
    ctx.set('Cache-Control', 'no-store')
    ctx.body = { status: all.length === 0 ? 'ready' : 'unavailable', failing: all, checks } satisfies ReadinessResponse
  })
}
