import {
  type BasketFilters,
  BasketFiltersSchema,
  type BasketList,
  BasketListPathSchema,
  BasketListQuerySchema,
  BasketListSchema,
  type Home,
  HomeSchema,
  type IsAllowed,
  IsAllowedPathSchema,
  IsAllowedSchema,
  type LastResources,
  LastResourcesSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { INERT_HTML_FIELDS, RECORD_ROW_EXAMPLE } from './record-row-example.js'
import { json, type RouteDeclaration } from './route-declaration.js'

const LIST_PATH = '/rest/resourcesList/users/:userId/groups/:groupId/baskets/:basketId'

/** listControl's refusals (20.10's order and words), then a basket clause that cannot be used. */
const LIST_ERRORS = [
  'BASKET_OR_GROUP_NOT_FOUND',
  'BASKET_REDIRECTED',
  'BASKET_OUT_OF_PERIMETER',
  'BASKET_GROUP_NOT_LINKED_TO_USER',
  'BASKET_GROUP_NOT_LINKED_TO_BASKET',
  'BASKET_CLAUSE_REFUSED',
] as const

const listPath = (params: Record<string, string | undefined>) => ({
  userId: params.userId,
  groupId: params.groupId,
  basketId: params.basketId,
})

/** GET /rest/home, /rest/home/lastRessources, a basket's list and filters, and isAllowed, as Maarch 20.10 serves them. */
export const basketsRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/home',
    operationId: 'getHome',
    tag: 'baskets',
    summary: "The caller's baskets with their counts",
    description:
      "Each of the caller's groups with the visible baskets the caller has a preference for (the member's colour, else the basket's, else #666666) and how many records each holds: the basket's clause with its macros expanded for the caller, not ANDed with the group perimeter (as 20.10). " +
      'A basket the caller lent to a colleague says so (`redirected`, `redirectedUser`); baskets colleagues lent to the caller follow in `assignedBaskets`, counted with their owner’s clause. ' +
      'A basket whose clause cannot be used counts 0 (as 20.10), and the server logs why. ' +
      "`homeMessage` (the `homepage_message` parameter) comes allow-listed as the sign-in page's message does: the web client inserts it as HTML without a sanitiser.",
    security: 'user',
    responses: {
      '200': {
        description: 'The home page',
        content: json(HomeSchema, {
          regroupedBaskets: [
            {
              groupSerialId: 4,
              groupId: 'AGENT',
              groupDesc: 'Utilisateur',
              baskets: [
                {
                  id: 4,
                  basket_id: 'MyBasket',
                  basket_name: 'Courriers à traiter',
                  basket_desc: 'Bannette de traitement',
                  color: '#666666',
                  owner_user_id: 3,
                  redirected: false,
                  resourceNumber: 2,
                },
              ],
            },
          ],
          assignedBaskets: [],
          homeMessage: '<p>Bienvenue</p>',
          isLinkedToMaarchParapheur: false,
        } satisfies Home),
      },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.baskets.home(actorOf(ctx))
      },
  },
  {
    method: 'get',
    path: '/rest/home/lastRessources',
    operationId: 'getLastResources',
    tag: 'baskets',
    summary: 'The records the caller last acted on',
    description:
      "The 5 records whose history the caller last wrote (links and attachments aside), newest first, as 20.10's home page lists them; deleted records are left out.",
    security: 'user',
    responses: {
      '200': {
        description: 'The last records',
        content: json(LastResourcesSchema, {
          lastResources: [
            {
              alt_identifier: 'MAARCH/2026A/1',
              closing_date: null,
              creation_date: '2026-12-01 22:49:10.524287',
              priority: 'poiuytre1357nbvc',
              process_limit_date: null,
              res_id: 21,
              subject: 'Demande de subvention',
              confidentiality: 'N',
              status_icon: 'fm-letter-status-new',
              status_label: 'Nouveau courrier pour le service',
              status_id: 'NEW',
              hasDocument: true,
              priority_color: '#009dc5',
            },
          ],
        } satisfies LastResources),
      },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.baskets.lastResources(actorOf(ctx))
      },
  },
  {
    method: 'get',
    path: LIST_PATH,
    operationId: 'getBasketList',
    tag: 'baskets',
    summary: "A page of a basket's records",
    description:
      "The records the basket's clause selects for its owner (the caller, or the colleague who lent it to the caller), filtered and ordered as asked, a page of them with the items the group's `list_display` names, every id in `allResources`. " +
      "Ids are serial ids. The refusals are 20.10's listControl's, in its order. Where 20.10 writes `order` into its SQL, Mailroom takes one column (or expression) of the clause language and a direction; `limit` is at most 500. " +
      INERT_HTML_FIELDS,
    security: 'user',
    request: { path: BasketListPathSchema, query: BasketListQuerySchema },
    responses: {
      '200': {
        description: 'The page',
        content: json(BasketListSchema, {
          resources: [{ ...RECORD_ROW_EXAMPLE, isLocked: false }],
          count: 1,
          basketLabel: 'Courriers à traiter',
          basket_id: 'MyBasket',
          allResources: [21],
          defaultAction: { component: 'processDocument', data: { defaultTab: 'dashboard' } },
          displayFolderTags: false,
          templateColumns: 7,
        } satisfies BasketList),
      },
    },
    errors: [...LIST_ERRORS, 'SEARCH_ORDER_BY_SYNTAX', 'SEARCH_REQUEST_INVALID'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.baskets.list(actorOf(ctx), listPath(ctx.params), ctx.query)
      },
  },
  {
    method: 'get',
    path: `${LIST_PATH}/filters`,
    operationId: 'getBasketFilters',
    tag: 'baskets',
    summary: "The filter values of a basket's records",
    description:
      "The priorities, categories, statuses, destinations (and their sub-entities), document types and folders of the basket's records, each with its count over the records the other filters select; a list with fewer than 2 values is empty (as 20.10). Folders: those the caller owns or that are shared with one of the caller's entities.",
    security: 'user',
    request: { path: BasketListPathSchema, query: BasketListQuerySchema },
    responses: {
      '200': {
        description: 'The filter values',
        content: json(BasketFiltersSchema, {
          entities: [
            { entityId: 'PE', label: 'Petite enfance', count: 1 },
            { entityId: 'PJS', label: 'Pôle Jeunesse et Sport', count: 3 },
          ],
          priorities: [],
          categories: [],
          statuses: [],
          entitiesChildren: [
            { entityId: 'PE', label: 'Petite enfance', count: 1 },
            { entityId: 'PJS', label: 'Pôle Jeunesse et Sport', count: 4 },
          ],
          doctypes: [],
          folders: [],
        } satisfies BasketFilters),
      },
    },
    errors: [...LIST_ERRORS],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.baskets.filters(actorOf(ctx), listPath(ctx.params), ctx.query)
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/isAllowed',
    operationId: 'isResourceAllowed',
    tag: 'baskets',
    summary: "Whether a record is in the caller's perimeter",
    description: 'false for a record outside the perimeter, an unknown record and a malformed id alike (as 20.10).',
    security: 'user',
    request: { path: IsAllowedPathSchema },
    responses: {
      '200': { description: 'The answer', content: json(IsAllowedSchema, { isAllowed: true } satisfies IsAllowed) },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.baskets.isAllowed(actorOf(ctx), ctx.params.resId)
      },
  },
]
