import {
  type ErrorCode,
  NewUserBodySchema,
  OrganisationApplyQuerySchema,
  OrganisationDocumentBodySchema,
  OrganisationHistoryQuerySchema,
  OrganisationHistoryResponseSchema,
  OrganisationPlanResponseSchema,
  UserListResponseSchema,
  UserLoginPathSchema,
  UserPasswordBodySchema,
  UserStatusBodySchema,
  UserSummarySchema,
} from '@mailroom/core'
import type { ZodOpenApiPathsObject, ZodOpenApiResponsesObject } from 'zod-openapi'
import { BODY_ERRORS, REST_AUTH_ERRORS, restErrorResponses, SERVER_ERRORS } from './error-examples.js'

const TAG = 'administration'

function adminErrors(codes: readonly ErrorCode[], body = false): ZodOpenApiResponsesObject {
  return restErrorResponses([
    'ADMIN_ROOT_ONLY',
    ...codes,
    ...(body ? BODY_ERRORS : []),
    ...REST_AUTH_ERRORS,
    ...SERVER_ERRORS,
  ])
}

const EXAMPLE_PLAN = {
  applied: true,
  lines: ['users: +1 ~0 -0 (added: jdoe)'],
  summary: { users: { added: ['jdoe'], changed: [], removed: [] } },
}
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
}
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
const APPLY_ERRORS: readonly ErrorCode[] = ['ORGANISATION_INVALID', 'ORGANISATION_REFUSED']

/** The /admin operations (organisation documents and users), for root users. */
export function adminPaths(): ZodOpenApiPathsObject {
  return {
    '/admin/organisation': {
      get: {
        operationId: 'exportOrganisation',
        tags: [TAG],
        summary: 'The organisation as a document',
        description: 'Every section and field, without password hashes. Root users only.',
        responses: {
          '200': {
            description: 'The organisation document',
            content: { 'application/json': { schema: OrganisationDocumentBodySchema, example: EXAMPLE_DOCUMENT } },
          },
          ...adminErrors([]),
        },
      },
      put: {
        operationId: 'applyOrganisation',
        tags: [TAG],
        summary: 'Apply an organisation document',
        description:
          'Validates the whole document (every error with its path, nothing changed), then applies the plan in one transaction and records it ' +
          'in the history. Sections the document leaves out are untouched; with prune=true, what a present section does not list is removed, ' +
          'except what records use. Applying the same document twice changes nothing the second time.',
        requestParams: { query: OrganisationApplyQuerySchema },
        requestBody: {
          required: true,
          content: { 'application/json': { schema: OrganisationDocumentBodySchema, example: EXAMPLE_DOCUMENT } },
        },
        responses: {
          '200': {
            description: 'What was changed',
            content: { 'application/json': { schema: OrganisationPlanResponseSchema, example: EXAMPLE_PLAN } },
          },
          ...adminErrors(APPLY_ERRORS, true),
        },
      },
    },
    '/admin/organisation/plan': {
      post: {
        operationId: 'planOrganisation',
        tags: [TAG],
        summary: 'What applying a document would change',
        description: 'The same validation and plan as the apply, with nothing changed.',
        requestParams: { query: OrganisationApplyQuerySchema },
        requestBody: {
          required: true,
          content: { 'application/json': { schema: OrganisationDocumentBodySchema, example: EXAMPLE_DOCUMENT } },
        },
        responses: {
          '200': {
            description: 'The plan',
            content: {
              'application/json': {
                schema: OrganisationPlanResponseSchema,
                example: { ...EXAMPLE_PLAN, applied: false },
              },
            },
          },
          ...adminErrors(APPLY_ERRORS, true),
        },
      },
    },
    '/admin/organisation/history': {
      get: {
        operationId: 'organisationHistory',
        tags: [TAG],
        summary: 'Changes made to the organisation and its users, newest first',
        requestParams: { query: OrganisationHistoryQuerySchema },
        responses: {
          '200': {
            description: 'The changes',
            content: { 'application/json': { schema: OrganisationHistoryResponseSchema } },
          },
          ...adminErrors([]),
        },
      },
    },
    '/admin/users': {
      get: {
        operationId: 'listUsers',
        tags: [TAG],
        summary: 'Every user',
        responses: {
          '200': {
            description: 'The users',
            content: { 'application/json': { schema: UserListResponseSchema, example: [EXAMPLE_USER] } },
          },
          ...adminErrors([]),
        },
      },
      post: {
        operationId: 'addUser',
        tags: [TAG],
        summary: 'Add a user',
        description: 'Its groups and entities must exist; the password, when given, follows the password policy.',
        requestBody: {
          required: true,
          content: {
            'application/json': {
              schema: NewUserBodySchema,
              example: {
                login: 'jdoe',
                firstname: 'Jane',
                groups: ['AGENT'],
                entities: [{ id: 'PJS', primary: true }],
                password: 'a long passphrase',
              },
            },
          },
        },
        responses: {
          '201': {
            description: 'The user added',
            content: { 'application/json': { schema: UserSummarySchema, example: EXAMPLE_USER } },
          },
          ...adminErrors(['ORGANISATION_INVALID', 'USER_ALREADY_EXISTS', 'PASSWORD_POLICY', 'PASSWORD_MISSING'], true),
        },
      },
    },
    '/admin/users/{login}/password': {
      put: {
        operationId: 'setUserPassword',
        tags: [TAG],
        summary: "Set a user's password",
        description: 'Under the password policy; the sessions opened before (refresh tokens) end.',
        requestParams: { path: UserLoginPathSchema },
        requestBody: {
          required: true,
          content: {
            'application/json': { schema: UserPasswordBodySchema, example: { password: 'a long passphrase' } },
          },
        },
        responses: {
          '204': { description: 'The password was changed' },
          ...adminErrors(['ORGANISATION_INVALID', 'USER_NOT_FOUND', 'PASSWORD_POLICY', 'PASSWORD_MISSING'], true),
        },
      },
    },
    '/admin/users/{login}/status': {
      put: {
        operationId: 'setUserStatus',
        tags: [TAG],
        summary: 'Enable or disable a user',
        description: 'A disabled user cannot authenticate by any means, and its tokens stop working at once.',
        requestParams: { path: UserLoginPathSchema },
        requestBody: {
          required: true,
          content: { 'application/json': { schema: UserStatusBodySchema, example: { enabled: false } } },
        },
        responses: {
          '200': {
            description: 'The user',
            content: {
              'application/json': { schema: UserSummarySchema, example: { ...EXAMPLE_USER, enabled: false } },
            },
          },
          ...adminErrors(['ORGANISATION_INVALID', 'USER_NOT_FOUND'], true),
        },
      },
    },
  }
}
