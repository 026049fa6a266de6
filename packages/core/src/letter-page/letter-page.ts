import type { Actor } from '../actors/actor.js'

/** A correspondent of a record as 20.10's `GET /rest/resources/{resId}` lists it. */
export interface ResourceCorrespondent {
  readonly id: number
  /** `contact`, `user` or `entity`. */
  readonly type: string
}

/**
 * Body of `GET /rest/resources/{resId}` (20.10's `ResController::getById`). The fields after `integrations` are
 * those of the record's indexing model only, as 20.10 leaves out the others; `light=true` reads fewer of them
 * and adds `followed` and the registered mail's three fields.
 */
export interface ResourceDetail {
  readonly resId: number
  readonly modelId: number | null
  readonly categoryId: string
  readonly chrono: string | null
  readonly status: string | null
  readonly closingDate: string | null
  readonly creationDate: string
  readonly modificationDate: string | null
  readonly retentionFrozen: boolean
  readonly binding: boolean | null
  readonly integrations: Readonly<Record<string, unknown>> | readonly never[]
  readonly subject?: string | null
  readonly processLimitDate?: string | null
  readonly priority?: string | null
  readonly doctype?: number | null
  readonly typist?: number | null
  /** The entity's serial id (20.10 answers `entities.id`, not `entity_id`). */
  readonly destination?: number | null
  readonly initiator?: number | null
  readonly confidentiality?: boolean
  readonly documentDate?: string | null
  readonly arrivalDate?: string | null
  readonly departureDate?: string | null
  readonly barcode?: string | null
  readonly destinationLabel?: string | null
  readonly initiatorLabel?: string | null
  readonly statusLabel?: string | null
  readonly statusAlterable?: boolean
  readonly priorityLabel?: string | null
  readonly priorityColor?: string | null
  readonly senders?: readonly ResourceCorrespondent[]
  readonly recipients?: readonly ResourceCorrespondent[]
  /** Full answer only: custom field values by id (`[]` when none, as 20.10's PHP prints an empty map). */
  readonly customFields?: Readonly<Record<string, unknown>> | readonly never[]
  /** Full answer only: the record's folders the actor may see. */
  readonly folders?: readonly number[]
  readonly tags?: readonly number[]
  /** Light answer only. */
  readonly followed?: boolean
  readonly registeredMail_returnDate?: null
  readonly registeredMail_returnReason?: null
  readonly registeredMail_deposit_id?: null
}

/** Body of `GET /rest/resources/{resId}/items`: the counts the processing page's tabs show. */
export interface ResourceItems {
  readonly linkedResources: number
  readonly attachments: number
  readonly diffusionList: number
  readonly visaCircuit: number
  readonly opinionCircuit: number
  readonly notes: number
  readonly emails: number
}

/** Body of `GET /rest/resources/{resId}/fields/{fieldId}`. */
export interface ResourceField {
  readonly field: string | number | null | Readonly<Record<string, unknown>> | readonly never[]
}

/** Body of `GET /rest/resources/{resId}/fileInformation`: two fields, or the technical ones with `view_technical_infos`. */
export interface ResourceFileInformation {
  readonly information: {
    readonly canConvert: boolean
    readonly format: string | null
    readonly fingerprint?: string | null
    readonly filesize?: number | null
    readonly fulltext_result?: string | null
    readonly filename?: string | null
    readonly docserver_id?: string | null
    readonly path?: string | null
    readonly typist?: number | null
    readonly typistLabel?: string
    readonly creationDate?: string
  }
}

/** Body of `GET /rest/resources/{resId}/versionsInformations`: the versions of each kind of file; `convert` when the record has a file. */
export interface ResourceVersions {
  readonly DOC: readonly number[]
  readonly PDF: readonly number[]
  readonly SIGN: readonly number[]
  readonly NOTE: readonly number[]
  readonly convert?: boolean
}

/** One allowed file kind of `GET /rest/indexing/fileInformations` (an extension may come with several MIME types). */
export interface AllowedFile {
  readonly extension: string
  readonly mimeType: string
  readonly canConvert: boolean
}

/** Body of `GET /rest/indexing/fileInformations`. */
export interface IndexingFileInformations {
  readonly informations: {
    readonly maximumSize: number
    readonly maximumSizeLabel: string
    readonly allowedFiles: readonly AllowedFile[]
  }
}

/** Use cases of a letter's page. Path and query values are passed as received. */
export interface LetterPageServices {
  /** `GET /rest/resources/{resId}`: the record in 20.10's shape; `light` (any non-empty value) reads fewer fields. */
  resource(actor: Actor, resId: string | undefined, light?: string): Promise<ResourceDetail>
  /** `GET /rest/resources/{resId}/items`. */
  items(actor: Actor, resId: string | undefined): Promise<ResourceItems>
  /** `GET /rest/resources/{resId}/fields/{fieldId}`: `destination` (`alt` for its serial id), `status` or `externalId`. */
  field(actor: Actor, resId: string | undefined, fieldId: string | undefined, alt?: string): Promise<ResourceField>
  /** `GET /rest/resources/{resId}/fileInformation`. */
  fileInformation(actor: Actor, resId: string | undefined): Promise<ResourceFileInformation>
  /** `GET /rest/resources/{resId}/versionsInformations`. */
  versions(actor: Actor, resId: string | undefined): Promise<ResourceVersions>
  /**
   * `GET /rest/indexing/fileInformations`: the formats a file may have and the largest file a request body of
   * `bodyLimitBytes` (the server's setting, which the adapter knows) carries in base64.
   */
  fileInformations(actor: Actor, bodyLimitBytes: number): Promise<IndexingFileInformations>
}
