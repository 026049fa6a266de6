import type Koa from 'koa'

/** A route an application serves, its path written the OpenAPI way (`/rest/entities/{id}`). */
export interface RouteEntry {
  /** Lower-case HTTP method (get, post, put…). */
  readonly method: string
  readonly path: string
}

interface RouterLike {
  readonly stack: readonly { readonly path: string | RegExp; readonly methods: readonly string[] }[]
}

/** `/rest/resources/:resId/content/:version` → `/rest/resources/{resId}/content/{version}`. */
export function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z_][A-Za-z0-9_]*)/g, '{$1}')
}

/**
 * Every method and path served by the routers mounted on a Koa application (each `router.routes()`
 * middleware carries its router). HEAD, which Koa's router adds beside GET, is left out, and so are
 * wildcard fallbacks (`/digitalSafe{/*rest}`), which shape the errors of unknown paths rather than serve an operation.
 */
export function listRoutes(app: Pick<Koa, 'middleware'>): RouteEntry[] {
  const routes = new Map<string, RouteEntry>()
  for (const middleware of app.middleware) {
    const router = (middleware as { router?: RouterLike }).router
    if (!router) continue
    for (const layer of router.stack) {
      if (typeof layer.path !== 'string' || layer.path.includes('*')) continue
      for (const method of layer.methods) {
        if (method === 'HEAD') continue
        const entry = { method: method.toLowerCase(), path: toOpenApiPath(layer.path) }
        routes.set(`${entry.method} ${entry.path}`, entry)
      }
    }
  }
  return [...routes.values()].sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
}

/** Every operation of an OpenAPI document as method and path. */
export function listDocumentedOperations(document: { paths?: Record<string, object | undefined> }): RouteEntry[] {
  const methods = new Set(['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'])
  const entries: RouteEntry[] = []
  for (const [path, item] of Object.entries(document.paths ?? {})) {
    for (const method of Object.keys(item ?? {})) if (methods.has(method)) entries.push({ method, path })
  }
  return entries.sort((a, b) => a.path.localeCompare(b.path) || a.method.localeCompare(b.method))
}
