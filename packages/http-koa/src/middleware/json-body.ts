import { fail } from '@mailroom/core'
import type { Context, Next } from 'koa'
import type { AppState } from '../app-state.js'

/**
 * Reads a JSON body into ctx.state.body within a byte limit: refused up front from Content-Length,
 * or as soon as the stream passes the limit, so memory stays bounded by the limit.
 */
export function jsonBody(limitBytes: number) {
  return async (ctx: Context & { state: AppState }, next: Next) => {
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'DELETE' || ctx.method === 'OPTIONS') return next()
    const declared = Number(ctx.get('content-length') || 'NaN')
    if (Number.isFinite(declared) && declared > limitBytes) fail('PAYLOAD_TOO_LARGE')
    const chunks: Buffer[] = []
    let size = 0
    for await (const chunk of ctx.req) {
      size += (chunk as Buffer).length
      if (size > limitBytes) {
        ctx.req.resume()
        fail('PAYLOAD_TOO_LARGE')
      }
      chunks.push(chunk as Buffer)
    }
    if (size > 0) {
      const text = Buffer.concat(chunks, size).toString('utf8')
      if (text.trim() !== '') {
        try {
          ctx.state.body = JSON.parse(text)
        } catch {
          fail('MALFORMED_JSON')
        }
      }
    }
    return next()
  }
}
