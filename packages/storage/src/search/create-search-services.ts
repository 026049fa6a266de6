import {
  type Actor,
  FILE_CONTENT_KEY,
  type JsonValue,
  parseSearchRequest,
  readSearchFile,
  SVE_START_DATE,
  type SearchHits,
  type SearchQuery,
  type SearchRecord,
  type SearchServices,
  toJsonValue,
} from '@mailroom/core'
import { type Expression, type SqlBool, sql } from 'kysely'
import type { StorageContext } from '../storage-context.js'
import { compileSearch, type SearchRow } from './compile-clause.js'
import { jsonIndexHints } from './json-index-hints.js'
import { originalFilesOf, searchFileAt } from './original-files.js'
import { runSearch } from './run-search.js'

/**
 * One result record: exactly the requested columns in the caller's order, JSON-native values, then
 * `sve_start_date` as null when named (Mailroom has no acknowledgement receipts to take it from).
 */
function toRecord(row: SearchRow, query: SearchQuery): SearchRecord {
  const record: Record<string, JsonValue> = {}
  for (const column of query.columns) record[column] = toJsonValue(row[column])
  if (query.sveStartDate) record[SVE_START_DATE] = null
  return record
}

/**
 * What compileSearch ANDs before the caller's clause: the perimeter (null for root users) and the index
 * hints implied by the clause (which change no result).
 */
function withHints(perimeter: Expression<SqlBool> | null, hints: Expression<SqlBool> | null): Expression<SqlBool> | null {
  if (perimeter === null) return hints
  return hints === null ? perimeter : sql<SqlBool>`${perimeter} and ${hints}`
}

/**
 * Wires the search use cases over kysely and the document storage. A non-root actor always has a
 * perimeter (records they typed and records whose diffusion list names them, runtime contract), so the
 * reference's `User has no groups` refusal never applies: a user without groups searches that perimeter.
 */
export function createSearchServices(context: StorageContext): SearchServices {
  async function find(actor: Actor, body: unknown): Promise<SearchHits> {
    const query = parseSearchRequest(body)
    const restriction = withHints(await context.perimeter.condition(context.db, actor), jsonIndexHints(query.clause))
    const rows = await runSearch(context, (db) => compileSearch(db, query, restriction))
    if (!query.withFile) return { withFile: false, hits: rows.map((row) => ({ record: toRecord(row, query) })) }
    const files = await originalFilesOf(
      context.db,
      context.docservers.path,
      rows.map((row) => Number(row.res_id)),
    )
    return {
      withFile: true,
      hits: rows.map((row) => ({ record: toRecord(row, query), file: files.get(Number(row.res_id)) ?? searchFileAt(null) })),
    }
  }

  return {
    find,
    async list(actor, body) {
      const result = await find(actor, body)
      const resources: SearchRecord[] = []
      for (const hit of result.hits) {
        resources.push(result.withFile ? { ...hit.record, [FILE_CONTENT_KEY]: await readSearchFile(hit.file) } : hit.record)
      }
      return { resources, count: resources.length }
    },
  }
}
