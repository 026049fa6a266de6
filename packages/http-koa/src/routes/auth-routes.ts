import {
  type AuthenticateBody,
  AuthenticateBodySchema,
  AuthenticateResponseHeadersSchema,
  fail,
  RefreshTokenParamsSchema,
  type RefreshTokenResponse,
  RefreshTokenResponseSchema,
} from '@mailroom/core'
import { PASSWORD_GUESSING } from '../openapi/document-info.js'
import { REST_AUTH_ERRORS } from '../openapi/error-examples.js'
import { json, type RouteDeclaration } from './route-declaration.js'

/** POST /rest/authenticate and GET /rest/authenticate/token (runtime-contract.md "Authentication"). */
export const authRoutes: readonly RouteDeclaration[] = [
  {
    method: 'post',
    path: '/rest/authenticate',
    operationId: 'authenticate',
    tag: 'auth',
    summary: 'Exchange credentials for tokens',
    description: `Answers 204 with the response headers Token (bearer token, 30 minutes) and Refresh-Token (7 days). ${PASSWORD_GUESSING}`,
    security: 'public',
    request: {
      body: {
        schema: AuthenticateBodySchema,
        example: { login: 'bbain', password: 'maarch' } satisfies AuthenticateBody,
      },
    },
    responses: {
      '204': {
        description: 'Authenticated: the tokens are in the response headers',
        headers: AuthenticateResponseHeadersSchema,
      },
    },
    // No credentials are asked before the route, but the password it checks meets the same throttle.
    errors: ['AUTHENTICATE_BAD_REQUEST', ...REST_AUTH_ERRORS],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.state.authScheme = 'token'
        const body = ctx.state.body as { login?: unknown; password?: unknown } | undefined
        const login = body?.login
        const password = body?.password
        if (typeof login !== 'string' || typeof password !== 'string' || !login || !password)
          fail('AUTHENTICATE_BAD_REQUEST')
        const tokens = await services.auth.login(login, password, ctx.ip)
        ctx.set('Token', tokens.token)
        ctx.set('Refresh-Token', tokens.refreshToken)
        ctx.status = 204
      },
  },
  {
    method: 'get',
    path: '/rest/authenticate/token',
    operationId: 'refreshToken',
    tag: 'auth',
    summary: 'A new bearer token from a refresh token',
    security: 'public',
    request: { query: RefreshTokenParamsSchema },
    responses: {
      '200': {
        description: 'A new bearer token',
        content: json(RefreshTokenResponseSchema, { token: 'eyJhbGciOiJIUzI1NiJ9...' } satisfies RefreshTokenResponse),
      },
    },
    errors: ['REFRESH_TOKEN_EMPTY', 'AUTHENTICATION_FAILED'],
    serve:
      ({ services }) =>
      async (ctx) => {
        ctx.state.authScheme = 'token'
        const refreshToken = ctx.query.refreshToken
        const token = await services.auth.refresh(typeof refreshToken === 'string' ? refreshToken : undefined)
        ctx.body = { token }
      },
  },
]
