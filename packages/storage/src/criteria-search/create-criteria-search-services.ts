import type { CriteriaSearchServices, FullTextIndex, FullTextLanguage } from '@mailroom/core'
import { createCriteriaSearchUseCases } from '@mailroom/core/internal'
import type { StorageContext } from '../storage-context.js'
import { createCriteriaSearchStore } from './criteria-search-store.js'

/** How the searches read the full-text index (createMailroom's `fulltext` options). */
export interface FullTextSearchSettings {
  /** The language the full-text index is built in (MAILROOM_FULLTEXT_LANGUAGE); its words are read the same way. */
  readonly fullTextLanguage?: FullTextLanguage
  /** An external index (a search engine); absent, the database's own index answers inside the search's SQL. */
  readonly fullTextIndex?: FullTextIndex | null
  /** The most candidates an external index gives per words (createMailroom's `fulltext.candidates`, 10,000 by default). */
  readonly fullTextCandidates?: number
}

/** The default of FullTextSearchSettings.fullTextCandidates. */
export const DEFAULT_FULLTEXT_CANDIDATES = 10_000

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
