import {
  type RecordHistoryResponse,
  RecordHistoryResponseSchema,
  ResIdPathSchema,
  type StatusUpdateBody,
  StatusUpdateBodySchema,
  type StatusUpdateResponse,
  StatusUpdateResponseSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration } from './route-declaration.js'

/** PUT /rest/res/resource/status (both variants) and GET /rest/resources/{resId}/history. */
export const statusRoutes: readonly RouteDeclaration[] = [
  {
    method: 'put',
    path: '/rest/res/resource/status',
    operationId: 'updateStatus',
    tag: 'status',
    summary: 'Change the status of records',
    description:
      'Sets the status on every record listed by resId (current and earlier form) or by chrono (current form; a non-empty chrono ' +
      'wins over resId) and writes one history entry each, all in one transaction: either every record changes or none.',
    security: 'user',
    request: {
      body: {
        schema: StatusUpdateBodySchema,
        examples: {
          byResId: {
            summary: 'By record identifier',
            value: {
              status: 'COU',
              resId: [100],
              historyMessage: 'Pris en charge par le service',
            } satisfies StatusUpdateBody,
          },
          byChrono: {
            summary: 'By chrono number',
            value: { status: 'END', chrono: ['MAARCH/2024A/1'] } satisfies StatusUpdateBody,
          },
        },
      },
    },
    responses: {
      '200': {
        description: 'Every listed record has the new status',
        content: json(StatusUpdateResponseSchema, { success: 'success' } satisfies StatusUpdateResponse),
      },
    },
    errors: [
      'STATUS_NOT_FOUND',
      'STATUS_DOCUMENT_NOT_FOUND',
      'STATUS_TARGETS_MISSING',
      'STATUS_TARGETS_NOT_ARRAY',
      'STATUS_RES_ID_INVALID',
      'STATUS_CHRONO_INVALID',
      'STATUS_HISTORY_MESSAGE_INVALID',
      'STATUS_TOO_MANY_TARGETS',
      'UNSUPPORTED_BODY',
      'OUT_OF_PERIMETER',
    ],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.status.update(actorOf(ctx), ctx.state.body, { remoteIp: ctx.ip })
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/history',
    operationId: 'getHistory',
    tag: 'status',
    summary: 'The history of a record',
    description: 'Every event of the record (creation, views, status changes, versions), newest first.',
    security: 'user',
    request: { path: ResIdPathSchema },
    responses: {
      '200': {
        description: 'The events of the record',
        content: json(RecordHistoryResponseSchema, {
          history: [
            {
              id: 12,
              eventDate: '2024-03-04T10:02:00.000Z',
              eventType: 'UP',
              eventId: 'resup',
              userId: 3,
              login: 'bbain',
              info: 'Pris en charge par le service',
              module: 'resource',
            },
          ],
        } satisfies RecordHistoryResponse),
      },
    },
    errors: ['RES_ID_NOT_POSITIVE', 'DOCUMENT_NOT_FOUND', 'OUT_OF_PERIMETER'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.status.history(actorOf(ctx), ctx.params.resId ?? '')
      },
  },
]
