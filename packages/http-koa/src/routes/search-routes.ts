import { Readable } from 'node:stream'
import type Router from '@koa/router'
import type { MailroomServices, SearchHit } from '@mailroom/core'
import { streamSearchResult } from '@mailroom/core/internal'
import type { AppState } from '../app-state.js'
import { actorOf } from '../middleware/authenticate.js'

/**
 * The parameters of a search as the reference reads them (`$request->getParams()`): query-string
 * parameters, overridden field by field by the JSON body. `name[]=a&name[]=b` is the array PHP would build.
 * A body that is not a JSON object contributes nothing, so the checks then report the missing select.
 */
export function mergeSearchParameters(
  query: Record<string, string | string[] | undefined>,
  body: unknown,
): Record<string, unknown> {
  // No prototype: a `__proto__` key from the body or the query string stays a plain (ignored) field.
  const merged: Record<string, unknown> = Object.create(null)
  for (const [key, value] of Object.entries(query)) {
    if (value === undefined) continue
    if (key.endsWith('[]')) merged[key.slice(0, -2)] = Array.isArray(value) ? value : [value]
    else merged[key] = Array.isArray(value) ? value[value.length - 1] : value
  }
  if (typeof body === 'object' && body !== null && !Array.isArray(body)) Object.assign(merged, body)
  return merged
}

/**
 * POST /rest/res/list. A small answer without files is one JSON object; a large one (every match when no
 * limit is given) and every answer with `withFile` is streamed record by record, rows coming from a database
 * cursor batch by batch and each file read and base64-encoded in bounded chunks, so memory stays flat
 * whatever the number of records or the weight of the files. Every check and the first batch run before
 * the first byte, so their errors keep their status.
 */
export function registerSearchRoutes(router: Router<AppState>, services: MailroomServices): void {
  router.post('/rest/res/list', async (ctx) => {
    const parameters = mergeSearchParameters(ctx.query, ctx.state.body)
    const result = await services.search.find(actorOf(ctx), parameters)
    ctx.status = 200
    const { hits } = result
    if (!result.withFile && Array.isArray(hits)) {
      ctx.body = { resources: hits.map((hit: SearchHit) => hit.record), count: hits.length }
      return
    }
    ctx.type = 'application/json; charset=utf-8'
    ctx.body = Readable.from(streamSearchResult(result), { objectMode: false })
  })
}
