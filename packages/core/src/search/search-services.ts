import type { Actor } from '../actors/actor.js'
import type { SearchHits, SearchResult } from './search-result.js'

/**
 * Use cases of the search capability (`POST /rest/res/list`), as adapters call them. `body` is the request
 * as the adapter merged it (JSON body fields over query-string parameters); it is checked by
 * parseSearchRequest (reference §3 messages). The caller's clause is ANDed, parenthesised, with the actor's
 * perimeter (none for root users). A query the database refuses (type mismatch, bad date text, time-out)
 * fails with SEARCH_REQUEST_INVALID, never as an internal error.
 */
export interface SearchServices {
  /** The whole answer, files read and base64-encoded in memory: for small results and embedders. */
  list(actor: Actor, body: unknown): Promise<SearchResult>
  /** The same search with files left unread, for adapters that stream the answer (streamSearchResult). */
  find(actor: Actor, body: unknown): Promise<SearchHits>
}
