import type { CriteriaSearchDependencies } from '@mailroom/core'
import type { StorageContext } from '../storage-context.js'
import { createCriteriaSearchStore, type FullTextSearchSettings } from './criteria-search-store.js'

/**
 * The ports of core's criteria search (`POST /rest/search`, `GET /rest/search/configuration`) over kysely: the
 * store runs the compiled, perimeter-bound statements; core parses the criteria and the paging, says which
 * terms 20.10 pre-checks and shapes the answer.
 */
export function criteriaSearchPorts(
  context: StorageContext,
  settings: FullTextSearchSettings = {},
): CriteriaSearchDependencies {
  return { records: createCriteriaSearchStore(context, settings) }
}
