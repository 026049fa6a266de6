import type { SearchServices } from '@mailroom/core'
import { createSearchUseCases } from '@mailroom/core/internal'
import type { FullTextSearchSettings } from '../criteria-search/criteria-search-store.js'
import type { StorageContext } from '../storage-context.js'
import { createRecordSearchStore } from './record-search-store.js'

/** Search settings an operator may set, and the full-text index the searches read. */
export interface SearchSettings extends FullTextSearchSettings {
  /** Most records one search may return (MAILROOM_SEARCH_MAX_RESULTS); null: no ceiling (the default). */
  readonly maxResults: number | null
}

/**
 * Wires core's search use case (`POST /rest/res/list`) over kysely: core parses the request and checks the
 * ceiling, the store runs the compiled, perimeter-bound search.
 */
export function createSearchServices(context: StorageContext, settings: Partial<SearchSettings> = {}): SearchServices {
  return createSearchUseCases({
    records: createRecordSearchStore(context, settings),
    maxResults: settings.maxResults ?? null,
  })
}
