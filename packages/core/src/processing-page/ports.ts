import type { Actor } from '../actors/actor.js'
import type {
  ContactsCustomFields,
  DestinationChanging,
  ExternalSummary,
  HistoryLine,
  HistoryPage,
  IndexingModelEntities,
  ProcessingData,
} from '../api/processing-page-schemas.js'
import type { BasketListPath } from '../baskets/ports.js'

/** A record's status as the processing page asks it: its code, and whether that status lets the record change. */
export interface RecordStatusOf {
  /** `res_letterbox.status`; null or '' when the record has none. */
  readonly status: string | null
  /** `status.can_be_modified = 'Y'` (false when the status names no row). */
  readonly canBeModified: boolean
}

/** The columns a history page may be ordered by (20.10's list; `userLabel` orders by user_id). */
export type HistoryOrderColumn = 'event_date' | 'user_id' | 'info' | 'remote_ip'

/** Which history lines a page shows, checked by core: storage turns it into bound SQL. */
export interface HistoryPageQuery {
  /** One record's lines (table res_letterbox or res_view_letterbox), or every line. */
  readonly resId: number | null
  /** Only `ACTION#…` lines. */
  readonly onlyActions: boolean
  /** Lines of these users: serial ids, or logins looked up; null: any user. */
  readonly users: { readonly ids: readonly number[]; readonly logins: readonly string[] } | null
  readonly after: Date | null
  readonly before: Date | null
  /** Lines whose event_type is one of these; null: any. */
  readonly eventTypes: readonly string[] | null
  /** ILIKE patterns (wildcards of the caller's words escaped) each matched by the line's info or remote_ip. */
  readonly searchPatterns: readonly string[]
  readonly order: { readonly column: HistoryOrderColumn; readonly direction: 'asc' | 'desc' }
  readonly limit: number
  readonly offset: number
}

/** Storage side of the letter's page. */
export interface ProcessingPageStore {
  /** The record's status, or null when there is no such record. */
  recordStatus(resId: number): Promise<RecordStatusOf | null>
  /** The department codes of the user (`users_entities`), or null when there is no such user. */
  userEntityCodes(userId: number): Promise<readonly string[] | null>
  /** The record's department code (`res_letterbox.destination`), null when it has none or does not exist. */
  recordDestination(resId: number): Promise<string | null>
  /** A page of history lines and how many the query selects in all. */
  historyPage(query: HistoryPageQuery): Promise<{ readonly lines: HistoryLine[]; readonly count: number }>
}

/** The reads of 20.10's processing page that no other capability answers. */
export interface ProcessingPageServices {
  processingData(actor: Actor, resId: string | undefined, basket: BasketListPath): Promise<ProcessingData>
  isDestinationChanging(
    actor: Actor,
    resId: string | undefined,
    userId: string | undefined,
  ): Promise<DestinationChanging>
  externalSummary(actor: Actor, resId: string | undefined, limit: unknown): Promise<ExternalSummary>
  history(actor: Actor, query: Readonly<Record<string, unknown>>): Promise<HistoryPage>
  indexingModelEntities(actor: Actor): Promise<IndexingModelEntities>
  contactsCustomFields(actor: Actor): Promise<ContactsCustomFields>
}
