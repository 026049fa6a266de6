import type { FullTextCandidate, FullTextIndex, FullTextLanguage, OrderItem, SearchQuery } from '@mailroom/core'
import { fullTextQueries, SEARCH_VIEW_NAME } from '@mailroom/core/internal'
import { type RawBuilder, sql } from 'kysely'
import type { FullTextSql } from './compile-clause.js'

/** The candidates an external index proposed, per words of the clause. */
export type FoundCandidates = ReadonlyMap<string, readonly FullTextCandidate[]>

/**
 * Every words a search's SQL will look up: its `fulltext(…)` and `fulltext_rank(…)` conditions, in the clause
 * and in its orderings, and the words of a search ordered by rank (its matches joined by `or`).
 */
export function wordsOfSearch(query: SearchQuery): string[] {
  const found = new Set(fullTextQueries(query.clause, 'all'))
  for (const item of query.orderBy as readonly OrderItem[])
    for (const words of fullTextQueries(item.expr, 'all')) found.add(words)
  const matches = fullTextQueries(query.clause)
  if (query.orderBy.length === 0 && matches.length > 1) found.add(matches.join(' or '))
  return [...found]
}

/** Asks the index for the candidates of every words of the search, at most `limit` each. */
export async function findCandidates(
  index: FullTextIndex,
  query: SearchQuery,
  language: FullTextLanguage,
  limit: number,
): Promise<FoundCandidates> {
  const words = wordsOfSearch(query)
  const answers = await Promise.all(words.map((w) => index.search({ words: w, language, limit })))
  return new Map(words.map((w, i) => [w, answers[i] ?? []]))
}

/**
 * The full-text conditions over an external index's candidates, bound as arrays: a candidate counts only
 * while its file still has a kept text in `fulltext_texts` (a deleted record, a superseded attachment drop
 * out however late the engine hears of it); the perimeter and the clause apply to them as to any record.
 */
export function candidateFullText(found: FoundCandidates): FullTextSql {
  const viewResId = sql.id(SEARCH_VIEW_NAME, 'res_id')
  const hits = (words: string): RawBuilder<unknown> => {
    const candidates = found.get(words) ?? []
    const column = <T>(pick: (c: FullTextCandidate) => T) => sql.val(candidates.map(pick))
    return sql`(select c.res_id as fulltext_res_id, c.rank as fulltext_rank, c.excerpt as fulltext_excerpt
      from unnest(${column((c) => c.resId)}::bigint[], ${column((c) => c.fileKind)}::text[], ${column((c) => c.fileId)}::bigint[],
        ${column((c) => c.rank)}::float8[], ${column((c) => c.excerpt)}::text[]) as c(res_id, file_kind, file_id, rank, excerpt)
      where exists (select from fulltext_texts as ft where ft.file_kind = c.file_kind and ft.file_id = c.file_id and ft.res_id = c.res_id))`
  }
  return {
    match: (words) => sql`${viewResId} in (select h.fulltext_res_id from ${hits(words)} as h)`,
    rank: (words) =>
      sql`coalesce((select max(h.fulltext_rank) from ${hits(words)} as h where h.fulltext_res_id = ${viewResId}), 0)`,
    excerpt(words) {
      if (words.length === 0) return sql<null>`null::text`
      const all = sql.join(
        words.map((w) => sql`select * from ${hits(w)} as h`),
        sql` union all `,
      )
      return sql<string | null>`(select h.fulltext_excerpt from (${all}) as h
        where h.fulltext_res_id = ${viewResId} and h.fulltext_excerpt is not null order by h.fulltext_rank desc limit 1)`
    },
    // The candidates as an array computed once, then read by primary key: written as the correlated `in`,
    // PostgreSQL may probe the candidates for every record of the perimeter.
    filter: (words) => sql`${viewResId} = any(array(select h.fulltext_res_id from ${hits(words)} as h))`,
  }
}
