import {
  type ActionRunAnswer,
  ActionRunAnswerSchema,
  type ActionRunBody,
  ActionRunBodySchema,
  BasketActionPathSchema,
  BasketListPathSchema,
  type CloseWithFieldsCheck,
  CloseWithFieldsCheckSchema,
  type ErrorCode,
  type LetterListBody,
  LetterListBodySchema,
  type LockedLetters,
  LockedLettersSchema,
  type OfferedActions,
  OfferedActionsQuerySchema,
  OfferedActionsSchema,
  type RedirectChoices,
  RedirectChoicesSchema,
} from '@mailroom/core'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration } from './route-declaration.js'

const LIST = '/rest/resourcesList/users/:userId/groups/:groupId/baskets/:basketId'

/** 20.10's `listControl` refusals, in its order, and a basket clause the clause language cannot take. */
const LIST_ERRORS: readonly ErrorCode[] = [
  'BASKET_OR_GROUP_NOT_FOUND',
  'BASKET_REDIRECTED',
  'BASKET_OUT_OF_PERIMETER',
  'BASKET_GROUP_NOT_LINKED_TO_USER',
  'BASKET_GROUP_NOT_LINKED_TO_BASKET',
]

const LETTERS_ERRORS: readonly ErrorCode[] = [
  'ACTION_RESOURCES_INVALID',
  'ACTION_TOO_MANY_RESOURCES',
  'ACTION_RESOURCE_INVALID',
  ...LIST_ERRORS,
  'BASKET_CLAUSE_REFUSED',
  'ACTION_RESOURCES_OUT_OF_BASKET',
]

const LETTERS_EXAMPLE = { resources: [24] } satisfies LetterListBody

/** The ids of a list route, as Koa parsed them. */
function listIds(params: Record<string, string | undefined>) {
  return { userId: params.userId, groupId: params.groupId, basketId: params.basketId }
}

/**
 * The actions of a basket's list and the letters' locks, as Maarch 20.10 serves them (`ResourceListController`:
 * getActions, setAction, areLocked, lock, unlock; `PreProcessActionController::checkCloseWithFieldsAction`).
 */
export const actionsRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: `${LIST}/actions`,
    operationId: 'listBasketActions',
    tag: 'baskets',
    summary: 'The actions offered in a basket',
    description:
      'The actions the group offers in this basket’s list or, with resId, on that letter’s page: only those whose extra ' +
      'condition the letter meets, each with the categories it applies to. The default action comes first, then by label.',
    security: 'user',
    request: { path: BasketListPathSchema, query: OfferedActionsQuerySchema },
    responses: {
      '200': {
        description: 'The actions offered',
        content: json(OfferedActionsSchema, {
          actions: [{ id: 20, component: 'closeMailAction', label: 'Clôturer' }],
        } satisfies OfferedActions),
      },
    },
    errors: [...LIST_ERRORS, 'ACTION_QUERY_RES_ID_INVALID'],
    serve:
      ({ services }) =>
      async (ctx) => {
        const resId = typeof ctx.query.resId === 'string' ? ctx.query.resId : undefined
        ctx.body = await services.actions.offered(actorOf(ctx), listIds(ctx.params), resId)
      },
  },
  {
    method: 'put',
    path: `${LIST}/actions/:actionId`,
    operationId: 'runBasketAction',
    tag: 'baskets',
    summary: 'Run an action on letters of a basket',
    description:
      'Every letter must be in the basket. Letters someone else holds locked are left out. Each other letter gets, in one ' +
      'transaction of its own, the component’s work, the action’s status (none for _NOSTATUS_), its lock cleared, the note ' +
      'when one is given and the history line `ACTION#<id>` "<basket> : <action>". 204 when every letter changed; else 200 ' +
      'with the reasons. Components Mailroom does not run (signatory books, registered mail, archiving…) are refused.',
    security: 'user',
    request: {
      path: BasketActionPathSchema,
      body: {
        schema: ActionRunBodySchema,
        examples: {
          close: {
            summary: 'Close a letter',
            value: { resources: [24], note: { content: '', entities: [] } } satisfies ActionRunBody,
          },
          redirect: {
            summary: 'Redirect a letter to another clerk',
            value: {
              resources: [24],
              data: {
                destination: 'DSI',
                listInstances: [{ item_id: 'ppetit', item_type: 'user_id', item_mode: 'dest' }],
                onlyRedirectDest: true,
              },
            } satisfies ActionRunBody,
          },
        },
      },
    },
    responses: {
      '204': { description: 'Every letter changed' },
      '200': {
        description: 'Some letters were left as they were (why), or every letter is locked by someone else',
        content: json(ActionRunAnswerSchema, { errors: ['No attachments or notes'] } satisfies ActionRunAnswer),
      },
    },
    errors: [
      ...LETTERS_ERRORS,
      'ACTION_NOTE_INVALID',
      'ACTION_DATA_INVALID',
      'ACTION_NOT_LINKED',
      'ACTION_COMPONENT_MISSING',
      'ACTION_METHOD_UNKNOWN',
      'ACTION_COMPONENT_NOT_SUPPORTED',
      'ACTION_REDIRECT_DATA_INVALID',
      'NOTE_ENTITIES_UNKNOWN',
      'UNSUPPORTED_BODY',
    ],
    serve:
      ({ services }) =>
      async (ctx) => {
        const answer = await services.actions.run(
          actorOf(ctx),
          { ...listIds(ctx.params), actionId: ctx.params.actionId },
          ctx.state.body,
          { remoteIp: ctx.ip },
        )
        if (answer === null) ctx.status = 204
        else ctx.body = answer
      },
  },
  {
    method: 'get',
    path: `${LIST}/actions/:actionId/getRedirect`,
    operationId: 'getRedirectChoices',
    tag: 'baskets',
    summary: 'Where a letter of the basket may be redirected',
    description:
      'The entities and people the group’s redirect choices allow for this action (entities named, or keywords such as ' +
      'MY_ENTITIES read for the basket’s owner), every enabled entity as a tree with the allowed ones marked, and whether ' +
      'the assignee stays by default.',
    security: 'user',
    request: { path: BasketActionPathSchema },
    responses: {
      '200': {
        description: 'The redirect choices',
        content: json(RedirectChoicesSchema, {
          entities: [
            {
              id: 'PJS',
              entity_id: 'PJS',
              entity_label: 'Pôle Jeunesse et Sport',
              parent_entity_id: 'VILLE',
              serialId: 6,
              parent: 'VILLE',
              icon: 'fa fa-sitemap',
              state: { opened: false },
              allowed: true,
              text: 'Pôle Jeunesse et Sport',
            },
          ],
          users: [
            {
              id: 3,
              user_id: 'bbain',
              firstname: 'Barbara',
              lastname: 'BAIN',
              labelToDisplay: 'Barbara BAIN',
              descriptionToDisplay: 'Pôle Jeunesse et Sport',
            },
          ],
          keepDestForRedirection: false,
        } satisfies RedirectChoices),
      },
    },
    errors: LIST_ERRORS,
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.actions.redirectChoices(actorOf(ctx), {
          ...listIds(ctx.params),
          actionId: ctx.params.actionId,
        })
      },
  },
  {
    method: 'post',
    path: `${LIST}/actions/:actionId/checkCloseWithFieldsAction`,
    operationId: 'checkCloseWithFields',
    tag: 'baskets',
    summary: 'Which letters may close: their required fields are filled',
    description:
      'For an action whose parameters name required custom fields: the letters whose indexing model shows one of them ' +
      'empty, with its label, and the others. Letters someone else holds locked are left out.',
    security: 'user',
    request: { path: BasketActionPathSchema, body: { schema: LetterListBodySchema, example: LETTERS_EXAMPLE } },
    responses: {
      '200': {
        description: 'The letters that may close, and those missing fields',
        content: json(CloseWithFieldsCheckSchema, { errors: [], success: [24] } satisfies CloseWithFieldsCheck),
      },
    },
    errors: [
      'ACTION_CHECK_RESOURCES_INVALID',
      'ACTION_TOO_MANY_RESOURCES',
      'ACTION_RESOURCE_INVALID',
      ...LIST_ERRORS,
      'OUT_OF_PERIMETER',
      'BASKET_CLAUSE_REFUSED',
      'ACTION_NOT_FOUND',
      'UNSUPPORTED_BODY',
    ],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.actions.checkCloseWithFields(
          actorOf(ctx),
          { ...listIds(ctx.params), actionId: ctx.params.actionId },
          ctx.state.body,
        )
      },
  },
  {
    method: 'put',
    path: `${LIST}/locked`,
    operationId: 'lockedLetters',
    tag: 'baskets',
    summary: 'Who holds which letters',
    description: 'How many of the letters someone else holds locked, who, and the letters the caller may act on.',
    security: 'user',
    request: { path: BasketListPathSchema, body: { schema: LetterListBodySchema, example: LETTERS_EXAMPLE } },
    responses: {
      '200': {
        description: 'The letters’ locks',
        content: json(LockedLettersSchema, {
          countLockedResources: 0,
          lockers: [],
          resourcesToProcess: [24],
        } satisfies LockedLetters),
      },
    },
    errors: [...LETTERS_ERRORS, 'UNSUPPORTED_BODY'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.body = await services.actions.locked(actorOf(ctx), listIds(ctx.params), ctx.state.body)
      },
  },
  {
    method: 'put',
    path: `${LIST}/lock`,
    operationId: 'lockLetters',
    tag: 'baskets',
    summary: 'Lock letters for a minute',
    description:
      'Locks for one minute the letters no one else holds (the client calls it again while the letter stays open); ' +
      'a colleague then sees who holds them and cannot act on them.',
    security: 'user',
    request: { path: BasketListPathSchema, body: { schema: LetterListBodySchema, example: LETTERS_EXAMPLE } },
    responses: { '204': { description: 'The letters no one else held are locked by the caller' } },
    errors: [...LETTERS_ERRORS, 'UNSUPPORTED_BODY'],
    serve:
      ({ services }) =>
      async (ctx) => {
        await services.actions.lock(actorOf(ctx), listIds(ctx.params), ctx.state.body)
        ctx.status = 204
      },
  },
  {
    method: 'put',
    path: `${LIST}/unlock`,
    operationId: 'unlockLetters',
    tag: 'baskets',
    summary: 'Unlock letters',
    description: 'Clears the caller’s locks (and expired ones) on the letters; a lock someone else holds stays.',
    security: 'user',
    request: { path: BasketListPathSchema, body: { schema: LetterListBodySchema, example: LETTERS_EXAMPLE } },
    responses: { '204': { description: 'The caller’s locks on the letters are cleared' } },
    errors: [...LETTERS_ERRORS, 'UNSUPPORTED_BODY'],
    serve:
      ({ services }) =>
      async (ctx) => {
        await services.actions.unlock(actorOf(ctx), listIds(ctx.params), ctx.state.body)
        ctx.status = 204
      },
  },
]
