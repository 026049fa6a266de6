import {
  type ErrorCode,
  type NewUserBody,
  NewUserBodySchema,
  OrganisationApplyQuerySchema,
  type OrganisationApplyResult,
  OrganisationDocumentBodySchema,
  OrganisationHistoryQuerySchema,
  OrganisationHistoryResponseSchema,
  type OrganisationPlanResponse,
  OrganisationPlanResponseSchema,
  type OrganisationServices,
  parseAdminBody,
  UserListResponseSchema,
  UserLoginPathSchema,
  UserPasswordBodySchema,
  UserStatusBodySchema,
  type UserSummaryResponse,
  UserSummarySchema,
} from '@mailroom/core'
import { administratorOf } from '@mailroom/core/internal'
import type { AppState } from '../app-state.js'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration, type RouteDependencies, type RouteHandler } from './route-declaration.js'

/** The plan as the wire shows it: what changes, not every definition it carries. */
function planBody(result: OrganisationApplyResult) {
  return { applied: result.applied, lines: result.lines, summary: result.summary }
}

const flagOf = (value: unknown) => value === 'true' || value === '1'

const admin = (ctx: { state: AppState }) => administratorOf(actorOf(ctx))

/** A handler of the organisation services; none (the route is not served) when the Mailroom has none. */
function withOrganisation(
  handler: (organisation: OrganisationServices) => RouteHandler,
): (dependencies: RouteDependencies) => RouteHandler | undefined {
  return ({ services }) => (services.organisation === undefined ? undefined : handler(services.organisation))
}

const EXAMPLE_PLAN = {
  applied: true,
  lines: ['users: +1 ~0 -0 (added: jdoe)'],
  summary: { users: { added: ['jdoe'], changed: [], removed: [] } },
} satisfies OrganisationPlanResponse
const EXAMPLE_USER = {
  id: 7,
  login: 'jdoe',
  firstname: 'Jane',
  lastname: 'DOE',
  mail: null,
  mode: 'standard',
  enabled: true,
  groups: ['AGENT'],
  primaryEntity: 'PJS',
} satisfies UserSummaryResponse
const EXAMPLE_DOCUMENT = {
  version: 1,
  entities: [
    { id: 'CITY', label: 'City of Springfield', shortLabel: 'City', type: 'Direction', businessId: '12345678900011' },
  ],
  groups: [
    {
      id: 'AGENT',
      label: 'Agents',
      perimeter: 'destination in (@my_entities)',
      canIndex: true,
      indexing: { keywords: ['MY_ENTITIES'] },
    },
  ],
  users: [{ login: 'jdoe', firstname: 'Jane', groups: ['AGENT'], entities: [{ id: 'CITY', primary: true }] }],
}
const APPLY_ERRORS: readonly ErrorCode[] = ['ADMIN_ROOT_ONLY', 'ORGANISATION_INVALID', 'ORGANISATION_REFUSED']

/**
 * Administration for frontends, outside the Maarch routes: `/admin/organisation` (export, plan, apply,
 * history) and `/admin/users` (list, add, password, status). Root users only; every change is recorded with
 * the user who made it. Served only when the Mailroom has organisation services.
 */
export const adminRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/admin/organisation',
    operationId: 'exportOrganisation',
    tag: 'administration',
    summary: 'The organisation as a document',
    description: 'Every section and field, without password hashes. Root users only.',
    security: 'user',
    responses: {
      '200': {
        description: 'The organisation document',
        content: json(OrganisationDocumentBodySchema, EXAMPLE_DOCUMENT),
      },
    },
    errors: ['ADMIN_ROOT_ONLY'],
    serve: withOrganisation((organisation) => async (ctx) => {
      admin(ctx)
      ctx.body = await organisation.export()
    }),
  },
  {
    method: 'post',
    path: '/admin/organisation/plan',
    operationId: 'planOrganisation',
    tag: 'administration',
    summary: 'What applying a document would change',
    description: 'The same validation and plan as the apply, with nothing changed.',
    security: 'user',
    request: {
      query: OrganisationApplyQuerySchema,
      body: { schema: OrganisationDocumentBodySchema, example: EXAMPLE_DOCUMENT },
    },
    responses: {
      '200': {
        description: 'The plan',
        content: json(OrganisationPlanResponseSchema, { ...EXAMPLE_PLAN, applied: false }),
      },
    },
    errors: APPLY_ERRORS,
    serve: withOrganisation((organisation) => async (ctx) => {
      admin(ctx)
      ctx.body = planBody(await organisation.plan(ctx.state.body, { prune: flagOf(ctx.query.prune) }))
    }),
  },
  {
    method: 'put',
    path: '/admin/organisation',
    operationId: 'applyOrganisation',
    tag: 'administration',
    summary: 'Apply an organisation document',
    description:
      'Validates the whole document (every error with its path, nothing changed), then applies the plan in one transaction and records it ' +
      'in the history. Sections the document leaves out are untouched; with prune=true, what a present section does not list is removed, ' +
      'except what records use. Applying the same document twice changes nothing the second time.',
    security: 'user',
    request: {
      query: OrganisationApplyQuerySchema,
      body: { schema: OrganisationDocumentBodySchema, example: EXAMPLE_DOCUMENT },
    },
    responses: {
      '200': { description: 'What was changed', content: json(OrganisationPlanResponseSchema, EXAMPLE_PLAN) },
    },
    errors: APPLY_ERRORS,
    serve: withOrganisation((organisation) => async (ctx) => {
      const author = admin(ctx)
      ctx.body = planBody(await organisation.apply(ctx.state.body, { prune: flagOf(ctx.query.prune), author }))
    }),
  },
  {
    method: 'get',
    path: '/admin/organisation/history',
    operationId: 'organisationHistory',
    tag: 'administration',
    summary: 'Changes made to the organisation and its users, newest first',
    security: 'user',
    request: { query: OrganisationHistoryQuerySchema },
    responses: {
      '200': {
        description: 'The changes',
        content: { 'application/json': { schema: OrganisationHistoryResponseSchema } },
      },
    },
    errors: ['ADMIN_ROOT_ONLY'],
    serve: withOrganisation((organisation) => async (ctx) => {
      admin(ctx)
      const limit = Number(ctx.query.limit ?? 50)
      ctx.body = await organisation.history({ limit: Number.isInteger(limit) ? limit : 50 })
    }),
  },
  {
    method: 'get',
    path: '/admin/users',
    operationId: 'listUsers',
    tag: 'administration',
    summary: 'Every user',
    security: 'user',
    responses: {
      '200': { description: 'The users', content: json(UserListResponseSchema, [EXAMPLE_USER]) },
    },
    errors: ['ADMIN_ROOT_ONLY'],
    serve: withOrganisation((organisation) => async (ctx) => {
      admin(ctx)
      ctx.body = await organisation.listUsers()
    }),
  },
  {
    method: 'post',
    path: '/admin/users',
    operationId: 'addUser',
    tag: 'administration',
    summary: 'Add a user',
    description: 'Its groups and entities must exist; the password, when given, follows the password policy.',
    security: 'user',
    request: {
      body: {
        schema: NewUserBodySchema,
        example: {
          login: 'jdoe',
          firstname: 'Jane',
          groups: ['AGENT'],
          entities: [{ id: 'PJS', primary: true }],
          password: 'a long passphrase',
        } satisfies NewUserBody,
      },
    },
    responses: {
      '201': { description: 'The user added', content: json(UserSummarySchema, EXAMPLE_USER) },
    },
    errors: ['ADMIN_ROOT_ONLY', 'ORGANISATION_INVALID', 'USER_ALREADY_EXISTS', 'PASSWORD_POLICY', 'PASSWORD_MISSING'],
    serve: withOrganisation((organisation) => async (ctx) => {
      const author = admin(ctx)
      ctx.body = await organisation.addUser(parseAdminBody(NewUserBodySchema, ctx.state.body), author)
      ctx.status = 201
    }),
  },
  {
    method: 'put',
    path: '/admin/users/:login/password',
    operationId: 'setUserPassword',
    tag: 'administration',
    summary: "Set a user's password",
    description: 'Under the password policy; the sessions opened before (refresh tokens) end.',
    security: 'user',
    request: {
      path: UserLoginPathSchema,
      body: { schema: UserPasswordBodySchema, example: { password: 'a long passphrase' } },
    },
    responses: { '204': { description: 'The password was changed' } },
    errors: ['ADMIN_ROOT_ONLY', 'ORGANISATION_INVALID', 'USER_NOT_FOUND', 'PASSWORD_POLICY', 'PASSWORD_MISSING'],
    serve: withOrganisation((organisation) => async (ctx) => {
      const author = admin(ctx)
      const { password } = parseAdminBody(UserPasswordBodySchema, ctx.state.body)
      await organisation.setPassword(ctx.params.login ?? '', password, author)
      ctx.status = 204
    }),
  },
  {
    method: 'put',
    path: '/admin/users/:login/status',
    operationId: 'setUserStatus',
    tag: 'administration',
    summary: 'Enable or disable a user',
    description: 'A disabled user cannot authenticate by any means, and its tokens stop working at once.',
    security: 'user',
    request: { path: UserLoginPathSchema, body: { schema: UserStatusBodySchema, example: { enabled: false } } },
    responses: {
      '200': { description: 'The user', content: json(UserSummarySchema, { ...EXAMPLE_USER, enabled: false }) },
    },
    errors: ['ADMIN_ROOT_ONLY', 'ORGANISATION_INVALID', 'USER_NOT_FOUND'],
    serve: withOrganisation((organisation) => async (ctx) => {
      const author = admin(ctx)
      const { enabled } = parseAdminBody(UserStatusBodySchema, ctx.state.body)
      ctx.body = await organisation.setEnabled(ctx.params.login ?? '', enabled, author)
    }),
  },
]
