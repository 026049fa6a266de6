import {
  type LinkedResources,
  LinkedResourcesSchema,
  type LinkResourcesBody,
  LinkResourcesBodySchema,
  ResIdPathSchema,
  UnlinkPathSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration } from './route-declaration.js'

/** GET, POST /rest/resources/{resId}/linkedResources and DELETE …/linkedResources/{id}, as Maarch 20.10 serves them. */
export const linksRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/resources/:resId/linkedResources',
    operationId: 'listLinkedResources',
    tag: 'links',
    summary: 'The records linked to a record',
    description:
      "Records linked to a record in the caller's perimeter; linked records outside the perimeter are left out. " +
      'A malformed or unknown resId answers 403, as in Maarch 20.10.',
    security: 'user',
    request: { path: ResIdPathSchema },
    responses: {
      '200': {
        description: 'The linked records the caller may see, by resId',
        content: json(LinkedResourcesSchema, {
          linkedResources: [
            {
              resId: 1,
              subject: 'Demande de dérogation carte scolaire',
              documentDate: '2026-11-20 00:00:00',
              status: 'COU',
              statusLabel: 'En cours',
              statusImage: null,
              destUser: 3,
              destUserLabel: 'Barbara BAIN',
              destination: 'PJS',
              destinationLabel: 'PJS',
              chrono: 'MAARCH/2026A/1',
              categoryId: 'incoming',
              filename: '0001_511388061.pdf',
              format: 'pdf',
              confidentiality: false,
              hasDocument: true,
              canConvert: true,
              senders: ['Jean Dupont'],
              recipients: [],
              visaCircuit: [],
            },
          ],
        } satisfies LinkedResources),
      },
    },
    errors: ['RESOURCE_OUT_OF_PERIMETER'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.links.list(actorOf(ctx), ctx.params.resId)
      },
  },
  {
    method: 'post',
    path: '/rest/resources/:resId/linkedResources',
    operationId: 'linkResources',
    tag: 'links',
    summary: 'Link records to a record',
    description:
      'Needs the add_links privilege. Links the record with each listed record, both ways (an existing link is left as ' +
      "it is) and writes a history entry on both records of each link. Every record must be in the caller's perimeter.",
    security: 'user',
    request: {
      path: ResIdPathSchema,
      body: { schema: LinkResourcesBodySchema, example: { linkedResources: [1, 3] } satisfies LinkResourcesBody },
    },
    responses: { '204': { description: 'The records are linked' } },
    errors: [
      'SERVICE_FORBIDDEN',
      'RESOURCE_OUT_OF_PERIMETER',
      'LINKED_RESOURCES_NOT_ARRAY',
      'LINKED_RESOURCES_TOO_MANY',
      'LINKED_RESOURCES_OUT_OF_PERIMETER',
      'LINKED_RESOURCES_CONTAIN_RESOURCE',
      'UNSUPPORTED_BODY',
    ],
    serve:
      ({ services }) =>
      async (ctx) => {
        await services.links.link(actorOf(ctx), ctx.params.resId, ctx.state.body, { remoteIp: ctx.ip })
        ctx.status = 204
      },
  },
  {
    method: 'delete',
    path: '/rest/resources/:resId/linkedResources/:id',
    operationId: 'unlinkResource',
    tag: 'links',
    summary: 'Remove a link between two records',
    description:
      'Needs the add_links privilege. Removes the link both ways and writes a history entry on both records; two records ' +
      "that are not linked answer 204 too. Both must be in the caller's perimeter.",
    security: 'user',
    request: { path: UnlinkPathSchema },
    responses: { '204': { description: 'The records are no longer linked' } },
    errors: ['SERVICE_FORBIDDEN', 'RESOURCE_OUT_OF_PERIMETER', 'UNLINKED_RESOURCE_OUT_OF_PERIMETER'],
    serve:
      ({ services }) =>
      async (ctx) => {
        await services.links.unlink(actorOf(ctx), ctx.params.resId, ctx.params.id, { remoteIp: ctx.ip })
        ctx.status = 204
      },
  },
]
