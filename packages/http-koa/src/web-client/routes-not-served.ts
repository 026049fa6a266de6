import { fail } from '@mailroom/core'
import type { Context, Next } from 'koa'
import { MAARCH_20_10_ROUTES } from './maarch-routes.js'

/** A 20.10 route split for matching: its method, its path's segments (`null` for a `{parameter}`), its name. */
interface MaarchRoute {
  readonly method: string
  readonly segments: readonly (string | null)[]
  readonly name: string
}

// Routes without a parameter first, then the others in 20.10's order: where two fit one path
// (`/resources/search` and `/resources/{resId}`), 20.10's router (FastRoute) picks the same one.
const ROUTES: readonly MaarchRoute[] = MAARCH_20_10_ROUTES.map((route) => {
  const [method, path] = route.split(' ') as [string, string]
  const segments = path
    .split('/')
    .slice(1)
    .map((segment) => (/^\{\w+\}$/.test(segment) ? null : segment))
  return { method, segments, name: `${method} /rest${path}` }
}).sort((a, b) => Number(a.segments.includes(null)) - Number(b.segments.includes(null)))

/**
 * The 20.10 route a request asks for, named as 20.10 declares it (`GET /rest/resources/{resId}/items`), or
 * undefined when the path is none of 20.10's. A parameter matches any one non-empty segment, as in 20.10's router.
 */
export function maarchRouteOf(method: string, path: string): string | undefined {
  if (!path.startsWith('/rest/')) return undefined
  const asked = method === 'HEAD' ? 'GET' : method
  const segments = path.slice('/rest'.length).split('/').slice(1)
  return ROUTES.find(
    (route) =>
      route.method === asked &&
      route.segments.length === segments.length &&
      route.segments.every((segment, i) => (segment === null ? segments[i] !== '' : segment === segments[i])),
  )?.name
}

/**
 * The last stage under `/rest`, reached only when no Mailroom route answered: a route of 20.10's interface is
 * answered 501 naming it (`ROUTE_NOT_SERVED_YET`), so a call of 20.10's web client that Mailroom does not serve
 * yet says so; any other path falls through to the 404 (or 405) it had. It sits after authentication, as every
 * non-public route: an anonymous caller is refused 401 for any such path, as before, and learns nothing of which
 * routes are served.
 */
export function answerMaarchRoutesNotServed() {
  return async (ctx: Context, next: Next) => {
    const route = maarchRouteOf(ctx.method, ctx.path)
    if (route !== undefined) fail('ROUTE_NOT_SERVED_YET', { route })
    await next()
  }
}
