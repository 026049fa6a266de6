/**
 * The typed form of a `POST /rest/search` body (Maarch 20.10's structured search): each criterion the caller
 * sent, checked and turned into one of these terms. Storage compiles the terms to parameterised SQL; no term
 * carries SQL text, only values.
 */

/** Record columns a list criterion or a facet filter narrows (names of res_view_letterbox). */
export type ListColumn = 'type_id' | 'category_id' | 'priority' | 'status' | 'destination'

/** Timestamp columns of a date range criterion. */
export type DateColumn =
  | 'creation_date'
  | 'doc_date'
  | 'admission_date'
  | 'departure_date'
  | 'process_limit_date'
  | 'closing_date'

/** Flag columns of a true/false/null criterion. */
export type FlagColumn = 'confidentiality' | 'binding' | 'retention_frozen'

/** A correspondent as the criteria name them (`resource_contacts.item_id` and `type`). */
export interface Correspondent {
  readonly id: number
  readonly type: 'contact' | 'user' | 'entity'
}

/** An item of a diffusion-list role criterion (`role_dest`, …): a user (by serial id) or an entity (by serial id). */
export interface RoleItem {
  readonly id: number
  readonly type: 'user' | 'entity'
}

/** Types of custom fields as the search reads them (custom_fields.type). */
export type CustomFieldType =
  | 'string'
  | 'integer'
  | 'select'
  | 'date'
  | 'radio'
  | 'checkbox'
  | 'banAutocomplete'
  | 'contact'

/** What an `indexingCustomField_<id>` criterion asks of the field's value (by the field's type, as 20.10). */
export type CustomFieldMatch =
  /** string: every word (2 characters or more) a substring, case and accents ignored; or the exact value. */
  | { readonly kind: 'text'; readonly text: string; readonly exact: boolean }
  /** integer: an inclusive range (either end may be open). */
  | { readonly kind: 'numberRange'; readonly start: number | null; readonly end: number | null }
  /** date: from the start of `start` to the end of `end` (ISO days). */
  | { readonly kind: 'dayRange'; readonly start: string | null; readonly end: string | null }
  /** select, radio: the value is one of these (or the field is empty when `orNull`). */
  | { readonly kind: 'oneOf'; readonly values: readonly string[]; readonly orNull: boolean }
  /** checkbox: the ticked values hold one of these. */
  | { readonly kind: 'holdsAny'; readonly values: readonly string[] }
  /** banAutocomplete: the address's id is one of these. */
  | { readonly kind: 'addressIds'; readonly ids: readonly string[] }
  /** contact: the field names one of these correspondents. */
  | { readonly kind: 'correspondents'; readonly correspondents: readonly Correspondent[] }
  /** contact as text: the field names a contact whose company holds every word. */
  | { readonly kind: 'company'; readonly text: string }

/** One checked criterion. */
export type CriteriaTerm =
  /** `meta`: the quick search. `exact` (the text between double quotes) or a substring of subject, chrono, barcode. */
  | { readonly kind: 'quick'; readonly text: string; readonly exact: boolean }
  /** `subject`: every word (2 characters or more) a substring, case and accents ignored; or the exact subject. */
  | { readonly kind: 'subject'; readonly text: string; readonly exact: boolean }
  /** `fulltext`: the words in the text of one of the record's files (full-text search: stems, accents folded). */
  | { readonly kind: 'fulltext'; readonly text: string }
  /** `chrono`: a substring of the chrono with its spaces removed, case ignored (20.10's `ilike '%v%'`). */
  | { readonly kind: 'chrono'; readonly text: string }
  /** `barcode`: a substring of the barcode, case ignored. */
  | { readonly kind: 'barcode'; readonly text: string }
  /** `resId`: an inclusive range of record ids (either end may be open). */
  | { readonly kind: 'resIdRange'; readonly start: number | null; readonly end: number | null }
  /** `doctype`, `category`, `priority`: the column is one of the values (or null when `orNull`). */
  | {
      readonly kind: 'inList'
      readonly column: 'type_id' | 'category_id' | 'priority'
      readonly values: readonly (string | number)[]
      readonly orNull: boolean
    }
  /** `status`: statuses by their integer `identifier`. */
  | { readonly kind: 'statusIdentifiers'; readonly identifiers: readonly number[]; readonly orNull: boolean }
  /** `destination`, `initiator`: entities by their integer `id`. */
  | {
      readonly kind: 'entityIds'
      readonly column: 'destination' | 'initiator'
      readonly ids: readonly number[]
      readonly orNull: boolean
    }
  /** `confidentiality`, `binding`, `retentionFrozen`: true, false and/or null. */
  | { readonly kind: 'flags'; readonly column: FlagColumn; readonly values: readonly (boolean | null)[] }
  /** Date ranges: `start` from the start of its day, `end` to the end of its day (ISO `YYYY-MM-DD`). */
  | {
      readonly kind: 'dateRange'
      readonly column: DateColumn
      readonly start: string | null
      readonly end: string | null
    }
  /** `senders`, `recipients` as `{id, type}` items. */
  | {
      readonly kind: 'correspondents'
      readonly mode: 'sender' | 'recipient'
      readonly correspondents: readonly Correspondent[]
    }
  /** `senders`, `recipients` as text: contacts whose company holds every word. */
  | { readonly kind: 'correspondentCompany'; readonly mode: 'sender' | 'recipient'; readonly text: string }
  /** `tags`, `folders`: records holding one of the ids; `orNone`: or records holding none. */
  | {
      readonly kind: 'linkedIds'
      readonly link: 'tags' | 'folders'
      readonly ids: readonly number[]
      readonly orNone: boolean
    }
  /** `notes`: a note of the record, visible to the caller, holds the text (case ignored). */
  | { readonly kind: 'notes'; readonly text: string }
  /** `attachment_type`: the record has an attachment of one of these types (sent, signed or frozen). */
  | { readonly kind: 'attachmentTypes'; readonly types: readonly string[] }
  /** `attachment_creationDate`: the record has an attachment created in the range. */
  | { readonly kind: 'attachmentDateRange'; readonly start: string | null; readonly end: string | null }
  /**
   * `role_<role>`: an entry of the record's diffusion list in that role (`dest`, `cc`, `avis`, …; `sign`: a
   * signatory, `visa`: a visa of the visa circuit) names one of the users (or has them as delegate) or entities;
   * `orNone`: or the list has no entry in that role.
   */
  | { readonly kind: 'role'; readonly role: string; readonly items: readonly RoleItem[]; readonly orNone: boolean }
  /** `senderDepartment`: a contact sender's postcode starts with one of the departments; `orNone`: or has none. */
  | { readonly kind: 'senderDepartment'; readonly departments: readonly string[]; readonly orNone: boolean }
  /**
   * `groupSign`: a signatory of the record's diffusion list (or their delegate) is a member of one of the groups
   * (serial ids); `orNone`: or a signatory is in no group.
   */
  | { readonly kind: 'groupSign'; readonly groupIds: readonly number[]; readonly orNone: boolean }
  /** `registeredMail_*`: Mailroom keeps no registered mail, so no record matches (20.10 with none). */
  | { readonly kind: 'registeredMail'; readonly criterion: string }
  /** `indexingCustomField_<id>`: the record's value of that custom field. */
  | { readonly kind: 'customField'; readonly fieldId: number; readonly match: CustomFieldMatch }

/** The facets of an answer's `filters`, in 20.10's order. */
export const FACET_NAMES = ['priorities', 'categories', 'statuses', 'doctypes', 'entities', 'folders'] as const
/** A facet of an answer's `filters`. */
export type FacetName = (typeof FACET_NAMES)[number]

/** The ids a caller selected in each facet of `filters` (only facets with a selection). */
export type FacetSelection = Partial<Record<FacetName, readonly (string | number | null)[]>>

/** What the `expand` flag of each facet was, to be echoed back. */
export type FacetExpansion = Partial<Record<FacetName, boolean>>

/** A checked search body: every criterion ANDed, then the facet selection. */
export interface SearchCriteria {
  readonly terms: readonly CriteriaTerm[]
  readonly selection: FacetSelection
  readonly expansion: FacetExpansion
}

/** The orders 20.10 accepts (`order` query parameter). */
export const SEARCH_ORDERS = [
  'chrono',
  'typeLabel',
  'creationDate',
  'category',
  'destUser',
  'processLimitDate',
  'entityLabel',
  'status',
  'subject',
  'priority',
] as const
/** A sort key of `POST /rest/search` (`order`). */
export type SearchOrder = (typeof SEARCH_ORDERS)[number]

/** The checked query parameters of `POST /rest/search`. */
export interface SearchPaging {
  readonly limit: number
  readonly offset: number
  /** null: 20.10's default, creation date ascending. */
  readonly order: SearchOrder | null
  readonly direction: 'ASC' | 'DESC' | null
  /** `filters` given in the query: the answer's facets are not computed (20.10). */
  readonly skipFacets: boolean
}
