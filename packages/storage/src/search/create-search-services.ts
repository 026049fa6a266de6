import type {
  Actor,
  JsonValue,
  SearchFile,
  SearchHit,
  SearchHits,
  SearchQuery,
  SearchRecord,
  SearchServices,
} from '@mailroom/core'
import {
  checkSearchLimit,
  FILE_CONTENT_KEY,
  parseSearchRequest,
  readSearchFile,
  refuseTooManyResults,
  SVE_START_DATE,
  toJsonValue,
} from '@mailroom/core/internal'
import { type Expression, type SqlBool, sql } from 'kysely'
import {
  DEFAULT_FULLTEXT_CANDIDATES,
  type FullTextSearchSettings,
} from '../criteria-search/create-criteria-search-services.js'
import type { StorageContext } from '../storage-context.js'
import {
  compileSearch,
  databaseFullText,
  FULLTEXT_EXCERPT_COLUMN,
  type FullTextSql,
  fullTextConfigOf,
  isNarrowedByWords,
  type SearchRow,
} from './compile-clause.js'
import { candidateFullText, findCandidates, wordsOfSearch } from './full-text-candidates.js'
import { jsonIndexHints } from './json-index-hints.js'
import { originalFilesOf, searchFileAt } from './original-files.js'
import { runSearch } from './run-search.js'
import { CURSOR_BATCH_ROWS, cursorBatches } from './search-cursor.js'

/** Search settings an operator may set, and the full-text index the searches read. */
export interface SearchSettings extends FullTextSearchSettings {
  /** Most records one search may return (MAILROOM_SEARCH_MAX_RESULTS); null: no ceiling (the default). */
  readonly maxResults: number | null
}

/**
 * One result record: exactly the requested columns in the caller's order, JSON-native values, then
 * `sve_start_date` as null when named (Mailroom has no acknowledgement receipts to take it from).
 */
function toRecord(row: SearchRow, query: SearchQuery): SearchRecord {
  const record: Record<string, JsonValue> = {}
  for (const column of query.columns) record[column] = toJsonValue(row[column])
  if (query.sveStartDate) record[SVE_START_DATE] = null
  if (query.fulltextExcerpt) record[FULLTEXT_EXCERPT_COLUMN] = toJsonValue(row[FULLTEXT_EXCERPT_COLUMN] ?? null)
  return record
}

/**
 * What compileSearch ANDs before the caller's clause: the perimeter (null for root users) and the index
 * hints implied by the clause (which change no result).
 */
function withHints(
  perimeter: Expression<SqlBool> | null,
  hints: Expression<SqlBool> | null,
): Expression<SqlBool> | null {
  if (perimeter === null) return hints
  return hints === null ? perimeter : sql<SqlBool>`${perimeter} and ${hints}`
}

/**
 * Wires the search use cases over kysely and the document storage. A non-root actor always has a
 * perimeter (records they typed and records whose diffusion list names them, runtime contract), so the
 * reference's `User has no groups` refusal never applies: a user without groups searches that perimeter.
 */
export function createSearchServices(context: StorageContext, settings: Partial<SearchSettings> = {}): SearchServices {
  const ceiling = settings.maxResults ?? null
  const language = settings.fullTextLanguage ?? 'fr'
  const databaseSql = databaseFullText(fullTextConfigOf(language))
  const index = settings.fullTextIndex ?? null
  const candidates = settings.fullTextCandidates ?? DEFAULT_FULLTEXT_CANDIDATES

  /** The full-text matching of a search: the database's own index, or the external index's candidates. */
  async function fullTextOf(query: SearchQuery): Promise<FullTextSql> {
    if (index === null || wordsOfSearch(query).length === 0) return databaseSql
    return candidateFullText(await findCandidates(index, query, language, candidates))
  }

  function hitsOf(rows: SearchRow[], query: SearchQuery, files: Map<number, SearchFile> | null): SearchHit[] {
    if (files === null) return rows.map((row) => ({ record: toRecord(row, query) }))
    return rows.map((row) => ({
      record: toRecord(row, query),
      file: files.get(Number(row.res_id)) ?? searchFileAt(null),
    }))
  }

  function filesOf(
    db: StorageContext['db'],
    rows: SearchRow[],
    query: SearchQuery,
  ): Promise<Map<number, SearchFile> | null> {
    if (!query.withFile) return Promise.resolve(null)
    return originalFilesOf(
      db,
      context.docservers,
      rows.map((row) => Number(row.res_id)),
    )
  }

  /** The hits of a large answer, batch by batch from a cursor; the first batch is read before returning. */
  async function streamedHits(
    query: SearchQuery,
    restriction: Expression<SqlBool> | null,
    fullText: FullTextSql,
  ): Promise<AsyncIterable<SearchHit>> {
    const batches = cursorBatches(
      context.db,
      compileSearch(context.db, query, restriction, fullText),
      (db, rows: SearchRow[]) => filesOf(db, rows, query),
    )
    // Errors of the caller's clause surface at the first FETCH: read it now, so they still answer 400.
    const first = await runSearch(context, async () => [await batches.next()]).then(([step]) => step)
    async function* rest(): AsyncGenerator<SearchHit, void, undefined> {
      try {
        if (first === undefined || first.done) return
        yield* hitsOf(first.value.rows, query, first.value.extra)
        for await (const batch of batches) yield* hitsOf(batch.rows, query, batch.extra)
      } finally {
        // A consumer that stops early (a client gone) must release the cursor's connection.
        await batches.return(undefined)
      }
    }
    return rest()
  }

  async function find(actor: Actor, body: unknown): Promise<SearchHits> {
    const query = parseSearchRequest(body)
    checkSearchLimit(query, ceiling)
    const fullText = await fullTextOf(query)
    // Narrowed by the database's words index, the perimeter is written for index scans beside the words.
    const shape = fullText === databaseSql && isNarrowedByWords(query.clause) ? 'index' : 'filter'
    const restriction = withHints(
      await context.perimeter.condition(context.db, actor, shape),
      jsonIndexHints(query.clause),
    )
    // Most answers are small: one statement reads them whole, with one row more than a batch to tell.
    const probe = Math.min(
      query.limit ?? Number.POSITIVE_INFINITY,
      CURSOR_BATCH_ROWS + 1,
      ceiling === null ? Number.POSITIVE_INFINITY : ceiling + 1,
    )
    const rows = await runSearch(context, (db) =>
      compileSearch(db, { ...query, limit: probe }, restriction, fullText).execute(),
    )
    if (ceiling !== null && query.limit === null && rows.length > ceiling) refuseTooManyResults(ceiling)
    if (rows.length < probe || probe === query.limit) {
      return { withFile: query.withFile, hits: hitsOf(rows, query, await filesOf(context.db, rows, query)) }
    }
    // More rows than a batch: read again through a cursor, so every row comes from one snapshot.
    if (
      ceiling !== null &&
      query.limit === null &&
      (await countUpTo(query, restriction, fullText, ceiling + 1)) > ceiling
    )
      refuseTooManyResults(ceiling)
    return { withFile: query.withFile, hits: await streamedHits(query, restriction, fullText) }
  }

  /** How many rows the search matches, counting no further than `most`. */
  async function countUpTo(
    query: SearchQuery,
    restriction: Expression<SqlBool> | null,
    fullText: FullTextSql,
    most: number,
  ): Promise<number> {
    const bounded = compileSearch(context.db, { ...query, limit: most }, restriction, fullText)
    const [row] = await runSearch(context, (db) =>
      db.selectFrom(bounded.as('matches')).select(sql<number>`count(*)::int`.as('n')).execute(),
    )
    return Number(row?.n ?? 0)
  }

  return {
    find,
    async list(actor, body) {
      const result = await find(actor, body)
      const resources: SearchRecord[] = []
      for await (const hit of result.hits) {
        resources.push(
          result.withFile ? { ...hit.record, [FILE_CONTENT_KEY]: await readSearchFile(hit.file) } : hit.record,
        )
      }
      return { resources, count: resources.length }
    },
  }
}
