import { Readable } from 'node:stream'
import type Router from '@koa/router'
import type { ContentResult, MailroomServices, ServedFile } from '@mailroom/core'
import { contentDisposition } from '@mailroom/core/internal'
import type { Context } from 'koa'
import type { AppState } from '../app-state.js'
import { actorOf } from '../middleware/authenticate.js'

/** A query parameter as one string (the first when repeated), undefined when absent. */
function queryValue(ctx: Context, name: string): string | undefined {
  const value = ctx.query[name]
  return Array.isArray(value) ? value[0] : value
}

/**
 * Sends a file: real MIME type, RFC 6266 Content-Disposition, Content-Length. A streamed body that fails
 * (fingerprint wrong at its end, read error) makes Koa's pipeline destroy the socket, so the client sees a
 * transfer shorter than Content-Length instead of a complete one.
 */
function sendFile(ctx: Context, file: ServedFile): void {
  ctx.set('Content-Disposition', contentDisposition(file.disposition, file.filename))
  ctx.set('X-Content-Type-Options', 'nosniff')
  if (file.body instanceof Uint8Array) {
    ctx.body = Buffer.from(file.body.buffer, file.body.byteOffset, file.body.byteLength)
  } else {
    const stream = file.body instanceof Readable ? file.body : Readable.from(file.body)
    ctx.body = stream
    stream.once('error', (error) => ctx.state.log?.warn({ err: error }, 'content stream aborted'))
  }
  // After the body: assigning a stream drops Content-Length and the type.
  ctx.type = file.mimeType
  ctx.length = file.size
}

function send<J>(ctx: Context, result: ContentResult<J>): void {
  if (result.kind === 'json') ctx.body = result.body
  else sendFile(ctx, result.file)
}

/**
 * GET /rest/resources/{resId}/content, /originalContent and /content/{version} (interface endpoints 3–5), and
 * PUT /rest/resources/{resId} with a file (new version, or a signed / annotated PDF of the current one).
 * Parameters are passed as received: the use cases validate them in the reference's order.
 */
export function registerContentRoutes(router: Router<AppState>, services: MailroomServices): void {
  router.get('/rest/resources/:resId/content', async (ctx) => {
    const result = await services.content.readContent(
      actorOf(ctx),
      ctx.params.resId,
      { mode: queryValue(ctx, 'mode'), watermark: queryValue(ctx, 'watermark') },
      { remoteIp: ctx.ip },
    )
    send(ctx, result)
  })

  router.get('/rest/resources/:resId/originalContent', async (ctx) => {
    const result = await services.content.readOriginalContent(
      actorOf(ctx),
      ctx.params.resId,
      { mode: queryValue(ctx, 'mode'), signedVersion: queryValue(ctx, 'signedVersion') },
      { remoteIp: ctx.ip },
    )
    send(ctx, result)
  })

  // New version of the file (issue #5): `{ encodedFile, format }`, or `{ encodedFile, format: 'pdf', type: 'SIGN' | 'NOTE' }`.
  router.put('/rest/resources/:resId', async (ctx) => {
    ctx.body = await services.content.createVersion(actorOf(ctx), ctx.params.resId, ctx.state.body, {
      remoteIp: ctx.ip,
    })
  })

  router.get('/rest/resources/:resId/content/:version', async (ctx) => {
    ctx.body = await services.content.readVersionContent(actorOf(ctx), ctx.params.resId, ctx.params.version, {
      type: queryValue(ctx, 'type'),
    })
  })
}
