import Router from '@koa/router'
import type { AppState } from '../app-state.js'
import type { RouteDeclaration, RouteDependencies } from './route-declaration.js'

/** The routers of an application, mounted on each side of the credentials check. */
export interface Routers {
  /** Routes that take no credentials or check their own (`public`, `serviceCookie`): mounted before the check. */
  readonly publicRouter: Router<AppState>
  /** Routes behind HTTP Basic or a bearer token (`user`): mounted after the check. */
  readonly restRouter: Router<AppState>
}

/**
 * The routers serving the declared routes, each on the router its security puts it on, in the declarations'
 * order; a route whose `serve` gives no handler (its dependency absent) is not served.
 */
export function createRouters(routes: readonly RouteDeclaration[], dependencies: RouteDependencies): Routers {
  const publicRouter = new Router<AppState>()
  const restRouter = new Router<AppState>()
  for (const route of routes) {
    const handler = route.serve(dependencies)
    if (handler === undefined) continue
    const router = route.security === 'user' ? restRouter : publicRouter
    router[route.method](route.path, handler)
  }
  return { publicRouter, restRouter }
}
