import type { Actor, RecordSearchStore, SearchFile, SearchMatch, SearchMatches, SearchQuery } from '@mailroom/core'
import { type Expression, type SqlBool, sql } from 'kysely'
import { DEFAULT_FULLTEXT_CANDIDATES, type FullTextSearchSettings } from '../criteria-search/criteria-search-store.js'
import type { StorageContext } from '../storage-context.js'
import {
  compileSearch,
  databaseFullText,
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

function matchesOf(rows: SearchRow[], files: Map<number, SearchFile> | null): SearchMatch[] {
  if (files === null) return rows.map((row) => ({ row }))
  return rows.map((row) => ({ row, file: files.get(Number(row.res_id)) ?? searchFileAt(null) }))
}

/**
 * `POST /rest/res/list` over kysely and the document storage: the clause compiled with the perimeter and the
 * full-text matching, read in one statement when small, else through a cursor from one snapshot. A non-root
 * actor always has a perimeter (records they typed and records whose diffusion list names them, runtime
 * contract), so the reference's `User has no groups` refusal never applies: a user without groups searches that
 * perimeter.
 */
export function createRecordSearchStore(
  context: StorageContext,
  settings: FullTextSearchSettings = {},
): RecordSearchStore {
  const language = settings.fullTextLanguage ?? 'fr'
  const databaseSql = databaseFullText(fullTextConfigOf(language))
  const index = settings.fullTextIndex ?? null
  const candidates = settings.fullTextCandidates ?? DEFAULT_FULLTEXT_CANDIDATES

  /** The full-text matching of a search: the database's own index, or the external index's candidates. */
  async function fullTextOf(query: SearchQuery): Promise<FullTextSql> {
    if (index === null || wordsOfSearch(query).length === 0) return databaseSql
    return candidateFullText(await findCandidates(index, query, language, candidates))
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

  /** The matches of a large answer, batch by batch from a cursor; the first batch is read before returning. */
  async function streamedMatches(
    query: SearchQuery,
    restriction: Expression<SqlBool> | null,
    fullText: FullTextSql,
  ): Promise<AsyncIterable<SearchMatch>> {
    const batches = cursorBatches(
      context.db,
      compileSearch(context.db, query, restriction, fullText),
      (db, rows: SearchRow[]) => filesOf(db, rows, query),
    )
    // Errors of the caller's clause surface at the first FETCH: read it now, so they still answer 400.
    const first = await runSearch(context, async () => [await batches.next()]).then(([step]) => step)
    async function* rest(): AsyncGenerator<SearchMatch, void, undefined> {
      try {
        if (first === undefined || first.done) return
        yield* matchesOf(first.value.rows, first.value.extra)
        for await (const batch of batches) yield* matchesOf(batch.rows, batch.extra)
      } finally {
        // A consumer that stops early (a client gone) must release the cursor's connection.
        await batches.return(undefined)
      }
    }
    return rest()
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

  async function search(actor: Actor, query: SearchQuery, ceiling: number | null): Promise<SearchMatches | 'too-many'> {
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
    if (ceiling !== null && query.limit === null && rows.length > ceiling) return 'too-many'
    if (rows.length < probe || probe === query.limit) return matchesOf(rows, await filesOf(context.db, rows, query))
    // More rows than a batch: read again through a cursor, so every row comes from one snapshot.
    if (
      ceiling !== null &&
      query.limit === null &&
      (await countUpTo(query, restriction, fullText, ceiling + 1)) > ceiling
    )
      return 'too-many'
    return streamedMatches(query, restriction, fullText)
  }

  return { search }
}
