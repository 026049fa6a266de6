import { Readable } from 'node:stream'
import {
  type SearchBody,
  SearchBodySchema,
  type SearchHit,
  type SearchResponse,
  SearchResponseSchema,
} from '@mailroom/core'
import { streamSearchResult } from '@mailroom/core/internal'
import { actorOf } from '../middleware/authenticate.js'
import { json, type RouteDeclaration } from './route-declaration.js'

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
export const searchRoute: RouteDeclaration = {
  method: 'post',
  path: '/rest/res/list',
  operationId: 'searchRecords',
  tag: 'search',
  summary: 'Search mail records',
  description:
    'select and clause name columns of the view res_view_letterbox; the clause is parsed (a safe subset of PostgreSQL ' +
    'expressions with the perimeter macros), parenthesised and ANDed with the caller perimeter. With withFile each record ' +
    'carries fileBase64Content.',
  security: 'user',
  request: {
    body: {
      schema: SearchBodySchema,
      example: {
        select: 'res_id, alt_identifier, subject, status, destination, creation_date',
        clause: "status = 'NEW' and destination = 'PJS'",
        orderBy: ['creation_date DESC'],
        limit: 10,
      } satisfies SearchBody,
    },
  },
  responses: {
    '200': {
      description: 'The records found',
      content: json(SearchResponseSchema, {
        resources: [
          {
            res_id: 100,
            alt_identifier: 'MAARCH/2024A/1',
            subject: 'Demande de subvention du club de basket',
            status: 'NEW',
            destination: 'PJS',
            creation_date: '2024-03-04T09:31:12.345Z',
          },
        ],
        count: 1,
      } satisfies SearchResponse),
    },
  },
  errors: [
    'SEARCH_SELECT_INVALID',
    'SEARCH_CLAUSE_INVALID',
    'SEARCH_WITH_FILE_INVALID',
    'SEARCH_ORDER_BY_INVALID',
    'SEARCH_LIMIT_INVALID',
    'SEARCH_OFFSET_INVALID',
    'SEARCH_SELECT_SYNTAX',
    'SEARCH_CLAUSE_SYNTAX',
    'SEARCH_ORDER_BY_SYNTAX',
    'SEARCH_REQUEST_INVALID',
    'SEARCH_USER_HAS_NO_GROUPS',
  ],
  serve:
    ({ services }) =>
    async (ctx) => {
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
    },
}
