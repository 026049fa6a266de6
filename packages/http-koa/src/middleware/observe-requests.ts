import type Router from '@koa/router'
import type { HttpObserver } from '@mailroom/core'
import type { Context, Next } from 'koa'

/** The route label of requests no route matches: raw paths never become labels (their number is unbounded). */
export const UNMATCHED_ROUTE = 'unmatched'

/**
 * The template of the route a request is for (`/rest/resources/:resId`), asked of the routers rather than
 * read from the one that ran: a request refused before its route runs (401, 413) still counts under it.
 */
export function routeTemplate(routers: readonly Router<any>[], path: string, method: string): string {
  for (const router of routers) {
    const layers = router.match(path, method).pathAndMethod
    const layer = layers.findLast((candidate) => candidate.methods.length > 0)
    if (layer && typeof layer.path === 'string') return layer.path
  }
  return UNMATCHED_ROUTE
}

/** Tells the observer of every answered request: route template, method, final status and duration. */
export function observeRequests(observer: HttpObserver, routers: readonly Router<any>[]) {
  return async (ctx: Context, next: Next) => {
    const started = process.hrtime.bigint()
    try {
      await next()
    } finally {
      const seconds = Number(process.hrtime.bigint() - started) / 1e9
      // A method outside the standard few is one more unbounded label: fold it like an unmatched route.
      const method = KNOWN_METHODS.has(ctx.method) ? ctx.method : 'OTHER'
      observer.requestFinished({
        route: routeTemplate(routers, ctx.path, ctx.method),
        method,
        status: ctx.status,
        seconds,
      })
    }
  }
}

const KNOWN_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])
