import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { Context, Next } from 'koa'
import send from 'koa-send'

/** Where the console is served. */
export const CONSOLE_PATH = '/console'

/**
 * What the console's pages may load: only this origin, plus blob: and data: images (the PDF is drawn from a
 * Blob) and pdf.js's worker and WebAssembly decoders. Nothing inline runs, so an injected string cannot.
 */
const CONTENT_SECURITY_POLICY = [
  "default-src 'self'",
  "script-src 'self' 'wasm-unsafe-eval'",
  "worker-src 'self' blob:",
  "img-src 'self' blob: data:",
  "style-src 'self' 'unsafe-inline'",
  "connect-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join('; ')

/**
 * Serves the built console (a folder with index.html and assets/) under /console: GET and HEAD only,
 * /console redirects to /console/ so the page's relative asset URLs resolve, hashed assets are cached for
 * a year, index.html never. Any other path goes on to the REST routes untouched.
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
    ctx.set('Content-Security-Policy', CONTENT_SECURITY_POLICY)
    ctx.set('X-Content-Type-Options', 'nosniff')
    ctx.set('Referrer-Policy', 'no-referrer')
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
