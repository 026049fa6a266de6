import type { LivenessResponse, ReadinessResponse } from '@mailroom/core'
import { LivenessResponseSchema, ReadinessQuerySchema, ReadinessResponseSchema } from '@mailroom/core'
import { json, type RouteDeclaration } from './route-declaration.js'

/**
 * GET /healthz (liveness, no authentication): 200 whenever the process answers; it checks nothing else,
 * so a database outage never makes an orchestrator restart healthy processes.
 * GET /readyz (readiness, no authentication): 200 when this instance should receive traffic, else 503
 * naming the failing checks.
 */
export const healthRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/healthz',
    operationId: 'health',
    tag: 'service',
    summary: 'Liveness probe',
    description:
      'Answers 200 whenever the process answers; checks nothing else (no database query); no authentication.',
    security: 'public',
    responses: {
      '200': {
        description: 'The process is alive',
        content: json(LivenessResponseSchema, { status: 'ok' } satisfies LivenessResponse),
      },
    },
    serve: () => (ctx) => {
      ctx.body = { status: 'ok' } satisfies LivenessResponse
    },
  },
  {
    method: 'get',
    path: '/readyz',
    operationId: 'ready',
    tag: 'service',
    summary: 'Readiness probe',
    description:
      'Answers 200 when this instance should receive traffic: the database answers, every migration is applied, a file can be written in the document storage and the server is not stopping; else 503 naming the failing checks. No authentication.',
    security: 'public',
    request: { query: ReadinessQuerySchema },
    responses: {
      '200': {
        description: 'Ready for traffic',
        content: json(ReadinessResponseSchema, {
          status: 'ready',
          failing: [],
          checks: { database: true, migrations: true, storage: true, shuttingDown: false },
        } satisfies ReadinessResponse),
      },
      '503': {
        description: 'At least one check failed (listed in `failing`)',
        content: json(ReadinessResponseSchema, {
          status: 'unavailable',
          failing: ['migrations'],
          checks: { database: true, migrations: false, storage: true, shuttingDown: false },
        } satisfies ReadinessResponse),
      },
    },
    serve:
      ({ services, lifecycle }) =>
      async (ctx) => {
        const health = await services.health().catch(() => ({ database: false, migrations: false, storage: false }))
        // Read after the checks: a stop that began while they ran must still turn this answer away.
        const shuttingDown = lifecycle?.shuttingDown() ?? false
        const checks = {
          database: health.database,
          migrations: health.migrations,
          storage: health.storage,
          shuttingDown,
        }
        const failing = (['database', 'migrations', 'storage'] as const).filter((name) => !checks[name])
        const all: ReadinessResponse['failing'] = shuttingDown ? [...failing, 'shuttingDown'] : failing
        ctx.status = all.length === 0 ? 200 : 503
        ctx.set('Cache-Control', 'no-store')
        ctx.body = {
          status: all.length === 0 ? 'ready' : 'unavailable',
          failing: all,
          checks,
          ...(ctx.query.detail === 'true' && services.fullTextBacklog
            ? { detail: { fulltext: await services.fullTextBacklog().catch(() => null) } }
            : {}),
        } satisfies ReadinessResponse
      },
  },
]
