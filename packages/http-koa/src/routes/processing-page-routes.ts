import {
  type ContactsCustomFields,
  ContactsCustomFieldsSchema,
  type DestinationChanging,
  DestinationChangingPathSchema,
  DestinationChangingSchema,
  type ExternalSummary,
  ExternalSummaryPathSchema,
  ExternalSummarySchema,
  type HistoryPage,
  HistoryPageSchema,
  HistoryQuerySchema,
  type IndexingModelEntities,
  IndexingModelEntitiesSchema,
  type ProcessingData,
  ProcessingDataPathSchema,
  ProcessingDataSchema,
  ProcessingPageLimitQuerySchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration } from './route-declaration.js'

/** listControl's refusals, as the basket's list answers them (20.10's order and words). */
const LIST_CONTROL_ERRORS = [
  'BASKET_OR_GROUP_NOT_FOUND',
  'BASKET_REDIRECTED',
  'BASKET_OUT_OF_PERIMETER',
  'BASKET_GROUP_NOT_LINKED_TO_USER',
  'BASKET_GROUP_NOT_LINKED_TO_BASKET',
] as const

/**
 * What 20.10's processing page reads beside the letter itself: the basket's options for the page
 * (processingData), what was sent out (externalSummary), the history and its actions' lines, the entities of
 * the indexing form and the contacts' custom fields. `/rest/indexingModels/entities` is declared before
 * `/rest/indexingModels/:id` (routes/index.ts), which would take `entities` for an id.
 */
export const processingPageRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/resources/:resId/users/:userId/groups/:groupId/baskets/:basketId/processingData',
    operationId: 'getProcessingData',
    tag: 'baskets',
    summary: 'What the processing page of a letter opened from a basket shows first',
    description:
      "The group's `list_event_data` for the basket (which tab opens first, whether the form may be changed), with `canUpdate: false` when the letter's status may not be modified; `null` when the group stores none. " +
      "The ids, then the basket's listControl (as its list), then the letter: 20.10 does not check the letter's perimeter here, Mailroom does ('Document out of perimeter', whether the letter exists or not).",
    security: 'user',
    request: { path: ProcessingDataPathSchema },
    responses: {
      '200': {
        description: 'The options',
        content: json(ProcessingDataSchema, { listEventData: { defaultTab: 'dashboard' } } satisfies ProcessingData),
      },
    },
    errors: ['PROCESSING_PARAM_NOT_INTEGER', ...LIST_CONTROL_ERRORS, 'OUT_OF_PERIMETER', 'PROCESSING_STATUS_MISSING'],
    serve:
      ({ services }) =>
      async (ctx) => {
        const { resId, userId, groupId, basketId } = ctx.params
        ctx.body = await services.processingPage.processingData(actorOf(ctx), resId, { userId, groupId, basketId })
      },
  },
  {
    method: 'get',
    path: '/rest/resources/:resId/users/:userId/isDestinationChanging',
    operationId: 'getDestinationChanging',
    tag: 'web client',
    summary: "Whether redirecting a letter to a user changes the letter's department",
    description:
      "True unless the user belongs to the letter's department (or the letter has none): the redirect dialog warns that the department changes. " +
      'The letter first (its perimeter), then the user: any user, as the dialog proposes any assignee; an id that names none is 400.',
    security: 'user',
    request: { path: DestinationChangingPathSchema },
    responses: {
      '200': {
        description: 'Whether the department changes',
        content: json(DestinationChangingSchema, { isDestinationChanging: false } satisfies DestinationChanging),
      },
    },
    errors: ['OUT_OF_PERIMETER', 'DESTINATION_USER_NOT_FOUND'],
    serve:
      ({ services }) =>
      async (ctx) => {
        const { resId, userId } = ctx.params
        ctx.body = await services.processingPage.isDestinationChanging(actorOf(ctx), resId, userId)
      },
  },
  {
    method: 'get',
    path: '/rest/externalSummary/:resId',
    operationId: 'getExternalSummary',
    tag: 'web client',
    summary: 'What was sent out about a letter',
    description:
      'The e-mails, acknowledgement receipts and exchanges sent about the letter, newest first. Mailroom sends none: the list is always empty, after the checks 20.10 makes (the perimeter, then the limit).',
    security: 'user',
    request: { path: ExternalSummaryPathSchema, query: ProcessingPageLimitQuerySchema },
    responses: {
      '200': {
        description: 'What was sent',
        content: json(ExternalSummarySchema, { elementsSend: [] } satisfies ExternalSummary),
      },
    },
    errors: ['OUT_OF_PERIMETER', 'NOTES_LIMIT_INVALID'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.processingPage.externalSummary(actorOf(ctx), ctx.params.resId, ctx.query.limit)
      },
  },
  {
    method: 'get',
    path: '/rest/history',
    operationId: 'getHistoryPage',
    tag: 'status',
    summary: 'A page of history lines: of a letter, or of the whole application',
    description:
      "With `resId`: the letter's lines, for a letter in the caller's perimeter, to a holder of `view_full_history`, or of `view_doc_history` with `onlyActions` (the actions' lines only). Without: every line, to a holder of `view_history`. " +
      'Newest first unless `orderBy` names a column; 25 lines unless `limit` says otherwise (at most 500). A line naming the chrono of a letter outside the caller’s perimeter shows a neutral mention instead. ' +
      '`search` matches the words as written (20.10 also ignores accents).',
    security: 'user',
    request: { query: HistoryQuerySchema },
    responses: {
      '200': {
        description: 'The page',
        content: json(HistoryPageSchema, {
          history: [
            {
              record_id: '24',
              event_date: '2026-11-26 17:55:39.988838',
              user_id: 19,
              info: 'Courriers à traiter : Cloturer',
              remote_ip: '127.0.0.1',
              userLabel: 'Barbara BAIN',
            },
          ],
          count: 1,
        } satisfies HistoryPage),
      },
    },
    errors: ['OUT_OF_PERIMETER', 'SERVICE_FORBIDDEN', 'HISTORY_QUERY_INVALID'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.processingPage.history(actorOf(ctx), ctx.query)
      },
  },
  {
    method: 'get',
    path: '/rest/indexingModels/entities',
    operationId: 'getIndexingModelEntities',
    tag: 'reference data',
    summary: 'The entities of the indexing form, as a tree',
    description:
      'Every enabled entity reachable from a top-level one: the top-level ones by label, each followed by its descendants (siblings below the top in reverse label order, as 20.10 lists them), with their depth.',
    security: 'user',
    responses: {
      '200': {
        description: 'The entities',
        content: json(IndexingModelEntitiesSchema, {
          entities: [
            { id: 1, entity_label: 'Ville de Maarch-les-bains', entity_id: 'VILLE', level: 0 },
            { id: 2, entity_label: 'Cabinet du Maire', entity_id: 'CAB', parent_entity_id: 'VILLE', level: 1 },
          ],
        } satisfies IndexingModelEntities),
      },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.processingPage.indexingModelEntities(actorOf(ctx))
      },
  },
  {
    method: 'get',
    path: '/rest/contactsCustomFields',
    operationId: 'getContactsCustomFields',
    tag: 'contacts',
    summary: "The contacts' custom fields",
    description:
      'Always empty: Mailroom has no contact custom fields (20.10 answers so for an installation that defines none).',
    security: 'user',
    responses: {
      '200': {
        description: 'The custom fields',
        content: json(ContactsCustomFieldsSchema, { customFields: [] } satisfies ContactsCustomFields),
      },
    },
    errors: [],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.processingPage.contactsCustomFields(actorOf(ctx))
      },
  },
]
