import { isDomainError } from '@mailroom/core'
import type { Context } from 'koa'
import type { RouteDeclaration } from './route-declaration.js'

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
 * The console's sign-in through the OpenID Connect provider (docs/directory-sign-in.md). Served only when
 * Mailroom has a provider with a redirect URL; the session reaches the console in the URL fragment of its
 * page, which the console removes from the address bar and history at once.
 */
export const oidcSignInRoutes: readonly RouteDeclaration[] = [
  {
    method: 'get',
    path: '/rest/authenticate/oidc',
    undocumented: 'the console asks it whether to offer the provider; it is not part of the REST interface',
    security: 'public',
    serve: ({ services }) => {
      const signIn = services.consoleSignIn
      if (!signIn) return undefined
      return async (ctx) => {
        ctx.body = { providerName: signIn.providerName, signInPath: `${COOKIE_PATH}/sign-in` }
      }
    },
  },
  {
    method: 'get',
    path: '/rest/authenticate/oidc/sign-in',
    undocumented: "a browser's redirect to the provider, for the console",
    security: 'public',
    serve: ({ services }) => {
      const signIn = services.consoleSignIn
      if (!signIn) return undefined
      return async (ctx) => {
        try {
          const { authorizationUrl, sealedChecks } = await signIn.begin()
          ctx.cookies.set(CHECKS_COOKIE, sealedChecks, cookieOptions(ctx, 10 * 60 * 1000))
          ctx.redirect(authorizationUrl)
        } catch (error) {
          backToConsoleWithError(ctx, error)
        }
      }
    },
  },
  {
    method: 'get',
    path: '/rest/authenticate/oidc/callback',
    undocumented: "the provider's redirect back with the code, for the console",
    security: 'public',
    serve: ({ services }) => {
      const signIn = services.consoleSignIn
      if (!signIn) return undefined
      return async (ctx) => {
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
      }
    },
  },
]

/** A sign-in that failed goes back to the console's sign-in page, which shows the catalogue's message. */
function backToConsoleWithError(ctx: Context, error: unknown): void {
  if (!isDomainError(error)) throw error
  ctx.state.log?.warn({ reason: error.details?.identityProvider ?? error.code }, 'OpenID Connect sign-in refused')
  ctx.redirect(`${CONSOLE_PATH}#sign-in-error=${encodeURIComponent(error.message)}`)
}
