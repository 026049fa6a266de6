import type { Actor, ErrorCode, MailroomServices } from '@mailroom/core'
import type { ZodOpenApiMediaTypeObject } from 'zod-openapi'
import { actorOf } from '../middleware/authenticate.js'
import { type DocumentedRoute, json, type RouteRequest } from './route-declaration.js'

/** What differs between the reference-data reads: each is a GET answering one JSON body for the caller. */
interface ReferenceReadRoute {
  readonly path: string
  readonly operationId: string
  readonly summary: string
  readonly description?: string
  readonly request?: RouteRequest
  readonly schema: ZodOpenApiMediaTypeObject['schema']
  readonly answer: string
  readonly example: unknown
  readonly errors?: readonly ErrorCode[]
  /** The use case, given the caller and the path's `id` (empty when the path has none). */
  readonly read: (reference: MailroomServices['reference'], actor: Actor, id: string) => Promise<unknown>
}

/** A GET of reference data (tag `reference data`, any authenticated user unless its use case checks a privilege). */
export function referenceReadRoute(route: ReferenceReadRoute): DocumentedRoute {
  return {
    method: 'get',
    path: route.path,
    operationId: route.operationId,
    tag: 'reference data',
    summary: route.summary,
    ...(route.description === undefined ? {} : { description: route.description }),
    security: 'user',
    ...(route.request === undefined ? {} : { request: route.request }),
    responses: { '200': { description: route.answer, content: json(route.schema, route.example) } },
    // No code of its own still documents the stages' errors (credentials, server).
    errors: route.errors ?? [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await route.read(services.reference, actorOf(ctx), ctx.params.id ?? '')
      },
  }
}
