import { fail } from '@mailroom/core'
import { scanJsonText } from '@mailroom/core/internal'
import type { Context, Next } from 'koa'
import type { AppState } from '../app-state.js'
import { withDeadline } from './deadline.js'

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/**
 * The next chunk of a body, or a BODY_TIMEOUT failure when none comes within `idleMs`. The pending read is
 * left to end with the connection, which the caller closes.
 */
function nextChunk(chunks: AsyncIterator<unknown>, idleMs: number): Promise<IteratorResult<unknown>> {
  return idleMs <= 0 ? chunks.next() : withDeadline(chunks.next(), idleMs, 'BODY_TIMEOUT')
}

/**
 * Reads a JSON body into ctx.state.body within a byte limit: refused up front from Content-Length,
 * or as soon as the stream passes the limit, so memory stays bounded by the limit. A body that stops
 * arriving for `idleMs` (0: no bound) is answered 408 and its connection closed, so a stalled client
 * holds neither a socket nor memory for long.
 */
export function jsonBody(limitBytes: number, idleMs = 0) {
  return async (ctx: Context & { state: AppState }, next: Next) => {
    // PostgreSQL cannot store U+0000: refusing it in the URL here keeps every route from failing on it later.
    if (ctx.url.includes('%00')) fail('NUL_CHARACTER')
    if (ctx.method === 'GET' || ctx.method === 'HEAD' || ctx.method === 'DELETE' || ctx.method === 'OPTIONS')
      return next()
    const declared = Number(ctx.get('content-length') || 'NaN')
    if (Number.isFinite(declared) && declared > limitBytes) fail('PAYLOAD_TOO_LARGE')
    const chunks: Buffer[] = []
    let size = 0
    const reader = ctx.req[Symbol.asyncIterator]()
    for (;;) {
      let read: IteratorResult<unknown>
      try {
        read = await nextChunk(reader, idleMs)
      } catch (error) {
        // The rest of the body may still come: the answer must close the connection, not wait for it.
        ctx.set('Connection', 'close')
        throw error
      }
      if (read.done) break
      const chunk = read.value
      size += (chunk as Buffer).length
      if (size > limitBytes) {
        ctx.req.resume()
        await reader.return?.()
        fail('PAYLOAD_TOO_LARGE')
      }
      chunks.push(chunk as Buffer)
    }
    if (size > 0) {
      let text: string
      try {
        // Fatal decoding: replacing bad bytes with U+FFFD would silently change what the caller sent.
        text = UTF8.decode(Buffer.concat(chunks, size))
      } catch {
        fail('MALFORMED_UTF8')
      }
      if (text.trim() !== '') {
        // One pass over the text before any parsing: what nests too deep is never built, and the NUL check
        // cannot overflow the stack however deep the value.
        const scan = scanJsonText(text)
        if (scan.tooDeep) fail('JSON_TOO_DEEP')
        try {
          ctx.state.body = JSON.parse(text)
        } catch {
          fail('MALFORMED_JSON')
        }
        // PostgreSQL cannot store U+0000, in a JSON column or a text one.
        if (scan.hasNul) fail('NUL_CHARACTER')
      }
    }
    return next()
  }
}
