import type { Actor } from '../actors/actor.js'
import type { ResourceCorrespondent, ResourceDetail } from './letter-page.js'

/** An entity a record names by its `entity_id`, as 20.10 answers it: its serial id and label. */
export interface NamedEntity {
  readonly id: number
  readonly label: string | null
}

/**
 * A record's columns and what they name, as `GET /rest/resources/{resId}` needs them (dates as 20.10 prints
 * them: `YYYY-MM-DD HH:MM:SS[.ffffff]`, UTC). Core decides which of them the answer holds.
 */
export interface StoredResource
  extends Pick<
    ResourceDetail,
    | 'resId'
    | 'modelId'
    | 'categoryId'
    | 'chrono'
    | 'status'
    | 'closingDate'
    | 'creationDate'
    | 'modificationDate'
    | 'retentionFrozen'
    | 'binding'
  > {
  readonly integrations: unknown
  readonly subject: string | null
  readonly processLimitDate: string | null
  readonly priority: string | null
  readonly doctype: number | null
  readonly typist: number | null
  readonly confidentiality: string | null
  readonly documentDate: string | null
  readonly arrivalDate: string | null
  readonly departureDate: string | null
  readonly barcode: string | null
  readonly customFields: unknown
  /** `res_letterbox.destination` and `initiator` with their entity (null: the column is empty; entity null: gone). */
  readonly destination: { readonly entityId: string; readonly entity: NamedEntity | null } | null
  readonly initiator: { readonly entityId: string; readonly entity: NamedEntity | null } | null
  /** The status's label and whether it may be changed (null: an unknown status). */
  readonly statusInfo: { readonly label: string | null; readonly alterable: boolean } | null
  readonly priorityInfo: { readonly label: string | null; readonly color: string | null } | null
  /** The identifiers of the record's indexing model's fields (`subject`, `senders`, `doctype`, …). */
  readonly modelFields: readonly string[]
  readonly senders: readonly ResourceCorrespondent[]
  readonly recipients: readonly ResourceCorrespondent[]
}

/** What the full answer adds: the record's folders the actor may see, its tags; the light one, whether the actor follows it. */
export interface ResourceSurroundings {
  readonly folders: readonly number[]
  readonly tags: readonly number[]
  readonly followed: boolean
}

/** The counts of `GET /rest/resources/{resId}/items` that storage counts alone. */
export interface StoredItemCounts {
  /** Attachments whose status is TRA, A_TRA or FRZ (20.10's tab). */
  readonly attachments: number
  /** listinstance rows by `difflist_type`. */
  readonly listsByType: ReadonlyMap<string, number>
  /** Acknowledgement receipts: of 20.10's e-mails tab, what Mailroom keeps (no e-mails, exchanges or shippings). */
  readonly acknowledgementReceipts: number
}

/** The fields `GET /rest/resources/{resId}/fields/{fieldId}` reads, as stored. */
export interface StoredFields {
  readonly destination: string | null
  /** The destination's serial id (`alt=true`), null when it names no entity. */
  readonly destinationSerialId: number | null
  readonly status: string | null
  readonly externalId: unknown
}

/** A record's file as `fileInformation` describes it. */
export interface StoredFileFacts {
  readonly format: string | null
  readonly fingerprint: string | null
  readonly filesize: number | null
  readonly fulltextResult: string | null
  readonly creationDate: string
  readonly filename: string | null
  readonly docserverId: string | null
  readonly path: string | null
  readonly typist: number | null
  /** `Firstname Lastname` of the typist, empty when unknown (20.10's `getLabelledUserById`). */
  readonly typistLabel: string
}

/** The record's current version and its stored files' types and versions (`adr_letterbox`), by version. */
export interface StoredVersions {
  readonly version: number | null
  readonly filename: string | null
  readonly format: string | null
  readonly files: readonly { readonly type: string; readonly version: number; readonly filename: string | null }[]
}

/** Storage side of a letter's page. Each read answers null for a record that does not exist. */
export interface LetterPageStore {
  resource(resId: number, light: boolean): Promise<StoredResource | null>
  /** Folders visible to the actor (through its entities, its own, or shared with every entity), tags, following. */
  surroundings(actor: Actor, resId: number): Promise<ResourceSurroundings>
  itemCounts(resId: number): Promise<StoredItemCounts>
  fields(resId: number): Promise<StoredFields | null>
  fileFacts(resId: number): Promise<StoredFileFacts | null>
  versions(resId: number): Promise<StoredVersions | null>
}
