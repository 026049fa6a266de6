import {
  type ConsoleSignInService,
  fail,
  type IdentityProviderOffer,
  IdentityProviderOfferSchema,
  isDomainError,
  type MailroomServices,
} from '@mailroom/core'
import type { Context } from 'koa'
import { json, type RouteDeclaration } from './route-declaration.js'

/** The cookie that carries a sign-in's sealed checks from its start to its callback. */
const CHECKS_COOKIE = 'mailroom-oidc'
const COOKIE_PATH = '/rest/authenticate/oidc'
/** Where the console takes the session or the error (its URL fragment, which browsers never send). */
const CONSOLE_PATH = '/console/'

const cookieOptions = (ctx: Context, maxAge: number) => ({
  httpOnly: true,
  // The provider sends the browser back by a top-level GET: Lax lets the cookie come with it.
  sameSite: 'lax' as const,
  secure: ctx.protocol === 'https',
  path: COOKIE_PATH,
  maxAge,
  overwrite: true,
})

/**
 * The console's sign-in through the OpenID Connect provider (docs/directory-sign-in.md), 404 unless Mailroom
 * has a provider with a redirect URL; the session reaches the console in the URL fragment of its
 * page, which the console removes from the address bar and history at once.
 */
export const oidcSignInRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/authenticate/oidc',
    operationId: 'getIdentityProviderSignIn',
    tag: 'auth',
    summary: 'The identity provider the console offers for signing in (Mailroom extension)',
    security: 'public',
    responses: {
      '200': {
        description: "The provider's name and where the browser goes to sign in there",
        content: json(IdentityProviderOfferSchema, {
          providerName: 'Keycloak',
          signInPath: '/rest/authenticate/oidc/sign-in',
        } satisfies IdentityProviderOffer),
      },
    },
    errors: ['IDENTITY_PROVIDER_NOT_CONFIGURED'],
    serve:
      ({ services }) =>
      async (ctx) => {
        const signIn = consoleSignInOf(services)
        ctx.body = { providerName: signIn.providerName, signInPath: `${COOKIE_PATH}/sign-in` }
      },
  },
  {
    method: 'get',
    path: '/rest/authenticate/oidc/sign-in',
    operationId: 'beginIdentityProviderSignIn',
    tag: 'auth',
    summary: "Send the browser to the identity provider's sign-in (Mailroom extension, for the console)",
    security: 'public',
    responses: { '302': { description: "To the provider's authorization endpoint (code flow with PKCE)" } },
    errors: ['IDENTITY_PROVIDER_NOT_CONFIGURED'],
    serve:
      ({ services }) =>
      async (ctx) => {
        const signIn = consoleSignInOf(services)
        try {
          const { authorizationUrl, sealedChecks } = await signIn.begin()
          ctx.cookies.set(CHECKS_COOKIE, sealedChecks, cookieOptions(ctx, 10 * 60 * 1000))
          ctx.redirect(authorizationUrl)
        } catch (error) {
          backToConsoleWithError(ctx, error)
        }
      },
  },
  {
    method: 'get',
    path: '/rest/authenticate/oidc/callback',
    operationId: 'completeIdentityProviderSignIn',
    tag: 'auth',
    summary: 'Where the identity provider sends the browser back (Mailroom extension, for the console)',
    security: 'public',
    responses: {
      '302': {
        description:
          "To the console: its session in the page's fragment (`#signed-in&login=…&token=…&refreshToken=…`), or the reason of a refusal (`#sign-in-error=…`)",
      },
    },
    errors: ['IDENTITY_PROVIDER_NOT_CONFIGURED'],
    serve:
      ({ services }) =>
      async (ctx) => {
        const signIn = consoleSignInOf(services)
        ctx.state.authScheme = 'token'
        const sealed = ctx.cookies.get(CHECKS_COOKIE)
        ctx.cookies.set(CHECKS_COOKIE, null, cookieOptions(ctx, 0))
        try {
          const session = await signIn.complete(ctx.querystring, sealed)
          const fragment = new URLSearchParams({
            login: session.login,
            token: session.token,
            refreshToken: session.refreshToken,
          })
          ctx.set('Cache-Control', 'no-store')
          ctx.redirect(`${CONSOLE_PATH}#signed-in&${fragment}`)
        } catch (error) {
          backToConsoleWithError(ctx, error)
        }
      },
  },
]

function consoleSignInOf(services: MailroomServices): ConsoleSignInService {
  return services.consoleSignIn ?? fail('IDENTITY_PROVIDER_NOT_CONFIGURED')
}

/** A sign-in that failed goes back to the console's sign-in page, which shows the catalogue's message. */
function backToConsoleWithError(ctx: Context, error: unknown): void {
  if (!isDomainError(error)) throw error
  ctx.state.log?.warn({ reason: error.details?.identityProvider ?? error.code }, 'OpenID Connect sign-in refused')
  ctx.redirect(`${CONSOLE_PATH}#sign-in-error=${encodeURIComponent(error.message)}`)
}
