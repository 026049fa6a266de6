import type { SearchDependencies } from '@mailroom/core'
import type { FullTextSearchSettings } from '../criteria-search/criteria-search-store.js'
import type { StorageContext } from '../storage-context.js'
import { createRecordSearchStore } from './record-search-store.js'

/** Search settings an operator may set, and the full-text index the searches read. */
export interface SearchSettings extends FullTextSearchSettings {
  /** Most records one search may return (MAILROOM_SEARCH_MAX_RESULTS); null: no ceiling (the default). */
  readonly maxResults: number | null
}

/**
 * The ports of core's search use case (`POST /rest/res/list`) over kysely: the store runs the compiled,
 * perimeter-bound search; core parses the request and checks the ceiling.
 */
export function searchPorts(context: StorageContext, settings: Partial<SearchSettings> = {}): SearchDependencies {
  return { records: createRecordSearchStore(context, settings), maxResults: settings.maxResults ?? null }
}
