import { type ListInstance, ListInstanceSchema, ResIdPathSchema } from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration } from './route-declaration.js'

/** GET /rest/resources/{resId}/listInstance, as Maarch 20.10 serves it. */
export const diffusionListRoute: RouteDeclaration = {
  method: 'get',
  path: '/rest/resources/:resId/listInstance',
  operationId: 'getListInstance',
  tag: 'diffusion',
  summary: 'The diffusion list of a record',
  description:
    'The users and entities a record is sent to (dest, cc, …), not its visa or opinion circuits. A malformed, unknown ' +
    'or out-of-perimeter resId answers 403, as in Maarch 20.10. A record created with emptyDiffusionList has none.',
  security: 'user',
  request: { path: ResIdPathSchema },
  responses: {
    '200': {
      description: 'The diffusion list, in the order it was written',
      content: json(ListInstanceSchema, {
        listInstance: [
          {
            listinstance_id: 1,
            res_id: 100,
            sequence: 0,
            item_id: 'bbain',
            item_type: 'user_id',
            item_mode: 'dest',
            added_by_user: 2,
            viewed: 0,
            difflist_type: 'entity_id',
            process_date: null,
            process_comment: null,
            signatory: false,
            requested_signature: false,
            delegate: null,
            itemSerialId: 3,
            labelToDisplay: 'Barbara BAIN',
            descriptionToDisplay: 'Pôle Jeunesse et Sport',
          },
        ],
        hasHistory: false,
      } satisfies ListInstance),
    },
  },
  errors: ['OUT_OF_PERIMETER'],
  serve:
    ({ services }) =>
    async (ctx) => {
      ctx.body = await services.diffusionList.read(actorOf(ctx), ctx.params.resId)
    },
}
