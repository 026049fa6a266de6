import koaCors from '@koa/cors'
import type { Context, Middleware } from 'koa'

/** Which other origins (browser pages served elsewhere) may call the server. Absent: none may. */
export interface CorsSettings {
  /** Exact origins (`https://portal.example.org`), or `'*'` for any origin (then without credentials). */
  readonly origins: readonly string[] | '*'
  /** Let pages send cookies and HTTP authentication with their calls (`Access-Control-Allow-Credentials`). */
  readonly credentials?: boolean
  /** How long a browser may reuse a preflight answer, seconds (default 600). */
  readonly maxAgeSeconds?: number
}

/** Response headers a browser script may read: the tokens of /rest/authenticate, file names, request ids. */
export const CORS_EXPOSED_HEADERS = ['Token', 'Refresh-Token', 'Content-Disposition', 'X-Request-Id'] as const

/**
 * The reasons a CORS setting cannot be used, or null when it can. Browsers ignore a wildcard with
 * credentials, and answering every origin with credentials would let any site act as the signed-in user.
 */
export function corsSettingsProblem(settings: CorsSettings): string | null {
  const origins = settings.origins
  if (origins === '*')
    return settings.credentials
      ? 'CORS origins "*" cannot be combined with credentials: list the allowed origins instead'
      : null
  if (origins.length === 0) return 'CORS needs at least one origin'
  for (const origin of origins) {
    if (origin === '*') return 'CORS origin "*" must be the only origin'
    if (!isOrigin(origin))
      return `CORS origin "${origin}" is not an origin: write scheme://host[:port], without path or trailing slash`
  }
  return null
}

/** True for `scheme://host[:port]` exactly as browsers send it in the Origin header. */
function isOrigin(text: string): boolean {
  try {
    const url = new URL(text)
    return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === text
  } catch {
    return false
  }
}

/**
 * Answers browsers' cross-origin checks for the listed origins: preflights end here (before
 * authentication, which a preflight never carries), other calls get the CORS headers. A call from an
 * origin not listed gets no CORS header at all, so the browser withholds the answer from the page.
 */
export function crossOrigin(settings: CorsSettings): Middleware {
  const problem = corsSettingsProblem(settings)
  if (problem) throw new Error(problem)
  const allowed = settings.origins === '*' ? null : new Set(settings.origins)
  return koaCors({
    origin: (ctx: Context) => {
      const origin = ctx.get('origin')
      if (allowed === null) return '*'
      return allowed.has(origin) ? origin : ''
    },
    credentials: settings.credentials ?? false,
    exposeHeaders: [...CORS_EXPOSED_HEADERS],
    allowMethods: ['GET', 'HEAD', 'POST', 'PUT', 'DELETE', 'PATCH'],
    maxAge: settings.maxAgeSeconds ?? 600,
    // Errors are answered by the error handler inside; its answers keep the headers set here.
    keepHeadersOnError: true,
  })
}
