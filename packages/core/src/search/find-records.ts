import type { Actor } from '../actors/actor.js'
import type { RecordSearchStore, SearchMatch, SearchMatches } from './ports.js'
import {
  checkSearchLimit,
  FULLTEXT_EXCERPT,
  parseSearchRequest,
  refuseTooManyResults,
  type SearchQuery,
  SVE_START_DATE,
} from './search-request.js'
import {
  FILE_CONTENT_KEY,
  type JsonValue,
  readSearchFile,
  type SearchHit,
  type SearchHits,
  type SearchRecord,
  type SearchResult,
  toJsonValue,
} from './search-result.js'
import type { SearchServices } from './search-services.js'

/** What the search use cases need from the outside. */
export interface SearchDependencies {
  readonly records: RecordSearchStore
  /** Most records one search may return (MAILROOM_SEARCH_MAX_RESULTS); null: no ceiling. */
  readonly maxResults: number | null
}

/**
 * One result record: exactly the requested columns in the caller's order, JSON-native values, then
 * `sve_start_date` as null when named (Mailroom has no acknowledgement receipts to take it from).
 */
function toRecord(row: SearchMatch['row'], query: SearchQuery): SearchRecord {
  const record: Record<string, JsonValue> = {}
  for (const column of query.columns) record[column] = toJsonValue(row[column])
  if (query.sveStartDate) record[SVE_START_DATE] = null
  if (query.fulltextExcerpt) record[FULLTEXT_EXCERPT] = toJsonValue(row[FULLTEXT_EXCERPT] ?? null)
  return record
}

function toHit(match: SearchMatch, query: SearchQuery): SearchHit {
  const record = toRecord(match.row, query)
  return query.withFile && match.file !== undefined ? { record, file: match.file } : { record }
}

async function* streamedHits(matches: AsyncIterable<SearchMatch>, query: SearchQuery): AsyncGenerator<SearchHit> {
  // Leaving this loop early (a client gone) returns the store's iterator, which releases its cursor.
  for await (const match of matches) yield toHit(match, query)
}

function hitsOf(matches: SearchMatches, query: SearchQuery): SearchHits['hits'] {
  if (Symbol.asyncIterator in matches) return streamedHits(matches, query)
  return (matches as readonly SearchMatch[]).map((match) => toHit(match, query))
}

/**
 * `POST /rest/res/list` in the reference's order (§3): the request's fields and clause, the limit against the
 * operator's ceiling, then the search inside the perimeter; more matches than the ceiling (no limit given) is
 * refused rather than cut.
 */
export async function findRecords(deps: SearchDependencies, actor: Actor, body: unknown): Promise<SearchHits> {
  const query = parseSearchRequest(body)
  checkSearchLimit(query, deps.maxResults)
  const matches = await deps.records.search(actor, query, deps.maxResults)
  if (matches === 'too-many') return refuseTooManyResults(deps.maxResults ?? 0)
  return { withFile: query.withFile, hits: hitsOf(matches, query) }
}

/** The whole answer, each file read and base64-encoded in memory. */
export async function listRecords(deps: SearchDependencies, actor: Actor, body: unknown): Promise<SearchResult> {
  const result = await findRecords(deps, actor, body)
  const resources: SearchRecord[] = []
  for await (const hit of result.hits) {
    resources.push(result.withFile ? { ...hit.record, [FILE_CONTENT_KEY]: await readSearchFile(hit.file) } : hit.record)
  }
  return { resources, count: resources.length }
}

/** The search use cases over their port (storage implements it, the composition root wires it). */
export function createSearchUseCases(deps: SearchDependencies): SearchServices {
  return {
    find: (actor, body) => findRecords(deps, actor, body),
    list: (actor, body) => listRecords(deps, actor, body),
  }
}
