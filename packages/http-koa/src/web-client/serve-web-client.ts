import { createReadStream } from 'node:fs'
import { stat } from 'node:fs/promises'
import { extname } from 'node:path'
import type { Context, Next } from 'koa'
import { fileInside } from './file-inside.js'

/**
 * Where Maarch 20.10's web client is served: `/dist`, the path it has in 20.10 (`…/dist/index.html#/login`), so
 * clerks' bookmarks keep working; one folder deep, as the client calls `../rest/…`.
 */
export const WEB_CLIENT_PATH = '/dist'

/** A build's file named by a content hash (`main-es2015.3b8c1e009e75a85ed677.js`): it never changes. */
const HASHED = /\.[0-9a-f]{16,}\.[a-z0-9]+$/

/**
 * Serves an operator's build of 20.10's web client from its folder under /dist: GET and HEAD only, /dist
 * redirects to /dist/ and /dist/ serves index.html, hashed files are cached for a year and the others revalidated.
 * A path that leaves the folder (`..`, encoded or not, or a symbolic link pointing out) is not served: it goes
 * on, like a missing file, to the other routes (a 404). The pages' Content-Security-Policy is set with every
 * other security header by `securityHeaders`.
 */
export function serveWebClient(dir: string) {
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== WEB_CLIENT_PATH && !ctx.path.startsWith(`${WEB_CLIENT_PATH}/`)) return next()
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next()
    // The request context drops a trailing slash from ctx.path: only the original URL tells /dist from /dist/.
    if (ctx.originalUrl.split('?')[0] === WEB_CLIENT_PATH) {
      ctx.status = 301
      ctx.redirect(`${WEB_CLIENT_PATH}/${ctx.querystring ? `?${ctx.querystring}` : ''}`)
      return
    }
    let name: string
    try {
      name = decodeURIComponent(ctx.path.slice(WEB_CLIENT_PATH.length + 1)) || 'index.html'
    } catch {
      return next()
    }
    const file = await fileInside(dir, name)
    if (!file) return next()
    // The real path inside the folder that fileInside checked is what is read: nothing can leave the folder.
    const { size, mtime } = await stat(file)
    ctx.set('Cache-Control', HASHED.test(name) ? 'public, max-age=31536000, immutable' : 'no-cache')
    ctx.set('Last-Modified', mtime.toUTCString())
    ctx.status = 200
    ctx.type = extname(file)
    ctx.length = size
    if (ctx.method === 'GET') ctx.body = createReadStream(file)
  }
}
