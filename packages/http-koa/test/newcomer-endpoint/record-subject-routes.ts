/*
 * What would go in `packages/http-koa/src/routes/records-routes.ts` (or a routes module of its own listed in
 * `routes/index.ts`): one declaration with a thin handler. In the house the handler calls
 * `services.records.subject(…)`; here the use case is handed in, since MailroomServices does not know it.
 */
import { type Actor, LinkedResourcesSchema, ResIdPathSchema } from '@mailroom/core'
import { actorOf } from '../../src/middleware/authenticate.js'
import { json, type RouteDeclaration } from '../../src/routes/route-declaration.js'

export function recordSubjectRoute(
  readSubject: (actor: Actor, resId: string | undefined) => Promise<{ subject: string | null }>,
): RouteDeclaration {
  return {
    method: 'get',
    path: '/rest/resources/:resId/subject',
    operationId: 'getRecordSubject',
    tag: 'records',
    summary: 'The subject of a record',
    description: 'The subject of a record in the caller’s perimeter.',
    security: 'user',
    request: { path: ResIdPathSchema },
    responses: {
      '200': {
        description: 'The record’s subject',
        // In the house this schema is written in core/src/api; zod is core's dependency alone, so the test borrows one.
        content: json(LinkedResourcesSchema.shape.linkedResources.element.pick({ subject: true }), {
          subject: 'Demande de subvention',
        }),
      },
    },
    errors: ['RES_ID_NOT_POSITIVE', 'OUT_OF_PERIMETER'],
    serve: () => async (ctx) => {
      ctx.body = await readSubject(actorOf(ctx), ctx.params.resId)
    },
  }
}
