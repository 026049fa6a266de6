import type { Actor } from '../actors/actor.js'
import type { SearchQuery } from './search-request.js'
import type { SearchFile } from './search-result.js'

/** One record a search found: its row as the database gave it, and its original file when files were asked for. */
export interface SearchMatch {
  readonly row: Readonly<Record<string, unknown>>
  readonly file?: SearchFile
}

/** The records of a search: read whole (small answers), or batch by batch from one snapshot (large ones). */
export type SearchMatches = readonly SearchMatch[] | AsyncIterable<SearchMatch>

/** Storage side of `POST /rest/res/list`. */
export interface RecordSearchStore {
  /**
   * Runs the query's clause, compiled to parameterised SQL and ANDed with the actor's perimeter (none for root
   * users), and reads the matches' original files when the query wants them. `'too-many'` when the query has no
   * limit and more than `ceiling` records match (nothing is returned then). A statement the database refuses
   * because of the caller's clause fails with SEARCH_REQUEST_INVALID.
   */
  search(actor: Actor, query: SearchQuery, ceiling: number | null): Promise<SearchMatches | 'too-many'>
}
