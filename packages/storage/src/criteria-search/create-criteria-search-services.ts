import type { CriteriaSearchServices } from '@mailroom/core'
import { createCriteriaSearchUseCases } from '@mailroom/core/internal'
import type { StorageContext } from '../storage-context.js'
import { createCriteriaSearchStore, type FullTextSearchSettings } from './criteria-search-store.js'

export { DEFAULT_FULLTEXT_CANDIDATES, type FullTextSearchSettings } from './criteria-search-store.js'

/**
 * Wires core's criteria search (`POST /rest/search`, `GET /rest/search/configuration`) over kysely: core parses
 * the criteria and the paging, says which terms 20.10 pre-checks and shapes the answer; the store runs the
 * compiled, perimeter-bound statements.
 */
export function createCriteriaSearchServices(
  context: StorageContext,
  settings: FullTextSearchSettings = {},
): CriteriaSearchServices {
  return createCriteriaSearchUseCases({ records: createCriteriaSearchStore(context, settings) })
}
