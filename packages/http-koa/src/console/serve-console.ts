import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Context, Next } from 'koa'
import send from 'koa-send'

/** Where the console is served. */
export const CONSOLE_PATH = '/console'

/**
 * Serves the built console (a folder with index.html and assets/) under /console: GET and HEAD only,
 * /console redirects to /console/ so the page's relative asset URLs resolve, hashed assets are cached for
 * a year, index.html never. Any other path goes on to the REST routes untouched. The pages' policy
 * (Content-Security-Policy) is set with every other security header by `securityHeaders`.
 */
export function serveConsole(dir: string) {
  const index = join(dir, 'index.html')
  return async (ctx: Context, next: Next) => {
    if (ctx.path !== CONSOLE_PATH && !ctx.path.startsWith(`${CONSOLE_PATH}/`)) return next()
    if (ctx.method !== 'GET' && ctx.method !== 'HEAD') return next()
    // The request context drops a trailing slash from ctx.path: only the original URL tells /console from /console/.
    if (ctx.originalUrl.split('?')[0] === CONSOLE_PATH) {
      ctx.status = 301
      ctx.redirect(`${CONSOLE_PATH}/${ctx.querystring ? `?${ctx.querystring}` : ''}`)
      return
    }
    const file = ctx.path.slice(CONSOLE_PATH.length + 1) || 'index.html'
    if (!existsSync(index)) return next()
    const served = await send(ctx, file, {
      root: dir,
      immutable: file.startsWith('assets/'),
      maxage: file.startsWith('assets/') ? 365 * 24 * 3600 * 1000 : 0,
      setHeaders: (res) => {
        if (!file.startsWith('assets/')) res.setHeader('Cache-Control', 'no-cache')
      },
    }).catch((error: { status?: number }) => {
      // koa-send answers 404 for a missing file and 400/403 for a path that leaves the folder.
      if (error.status === 404 || error.status === 400 || error.status === 403) return undefined
      throw error
    })
    if (!served) return next()
  }
}
