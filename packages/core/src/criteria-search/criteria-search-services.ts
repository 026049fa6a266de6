import type { Actor } from '../actors/actor.js'
import type { CriteriaSearchResponse, SearchConfigurationResponse } from '../api/criteria-search-schemas.js'

/**
 * Use cases of the structured search (`POST /rest/search`, Maarch 20.10's SearchController). `body` and `query`
 * are passed as received; they are checked by parseSearchCriteria and parseSearchPaging. Every search is
 * limited to the caller's perimeter (the one of `POST /rest/res/list`) and to searchable statuses.
 */
export interface CriteriaSearchServices {
  search(
    actor: Actor,
    body: unknown,
    query: Readonly<Record<string, string | string[] | undefined>>,
  ): Promise<CriteriaSearchResponse>
  /** `GET /rest/search/configuration`. */
  configuration(actor: Actor): Promise<SearchConfigurationResponse>
}
