import type { Actor } from '../actors/actor.js'
import type { CriteriaTerm, CustomFieldType, FacetName, SearchCriteria, SearchPaging } from './criteria.js'

/** One facet value among the matches: the facet, the value's id and label, and how many matches hold it. */
export interface FacetRow {
  facet: FacetName
  id: string | null
  label: string | null
  count: number
}

/** What 20.10's result list shows of a record, as the database reads it (ResourceListController's columns). */
export interface ResourceRow {
  res_id: number
  alt_identifier: string | null
  barcode: string | null
  subject: string | null
  confidentiality: string | null
  label_status: string | null
  img_filename: string | null
  priority_label: string | null
  priority_color: string | null
  closing_date: Date | string | null
  creation_date: Date | string
  process_limit_date: Date | string | null
  has_document: boolean
  followed: boolean
  in_shipping: boolean
  in_signature_book: boolean
  retention_frozen: boolean
  binding: boolean | null
  type_label: string | null
  entity_label: string | null
  dest_user_name: string | null
  count_notes: number
  count_attachments: number
  in_attachments: boolean
  /** Senders and recipients in their order, as `{mode, label}`. */
  correspondents: { mode: string; label: string | null }[] | string
}

/** A criteria search's matches: every id in order, the page's records, and the facets' rows (null: skipped). */
export interface CriteriaMatches {
  readonly ids: readonly number[]
  readonly page: readonly ResourceRow[]
  readonly facets: readonly FacetRow[] | null
}

/** Storage side of `POST /rest/search`. */
export interface CriteriaSearchStore {
  /** The custom fields' types by id (the values a custom-field criterion takes depend on it). */
  customFieldTypes(): Promise<Map<number, CustomFieldType>>
  /**
   * Runs the terms, compiled to parameterised SQL and ANDed with the actor's perimeter and the searchable
   * statuses. First each of `preChecked` is looked for among the records of the perimeter: null when one finds
   * none (or can find none here). A statement the database refuses fails with SEARCH_REQUEST_INVALID.
   */
  search(
    actor: Actor,
    criteria: SearchCriteria,
    paging: SearchPaging,
    preChecked: readonly CriteriaTerm[],
  ): Promise<CriteriaMatches | null>
}
