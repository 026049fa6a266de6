/** A contact, user or entity linked to a record as sender or recipient. */
export interface RecordContact {
  readonly id: number
  readonly type: 'contact' | 'user' | 'entity'
}

/** One element of a record's diffusion list (listinstance row). */
export interface DiffusionItem {
  readonly id: number
  readonly type: 'user' | 'entity'
  /** `dest`, `cc`, … (free text, at most 50 characters). */
  readonly mode: string
}

/** The file of a new record, already decoded and checked against its sniffed type. */
export interface NewRecordFile {
  /** Normalised extension (lower case, from the allowed formats table): also the stored file's suffix. */
  readonly format: string
  readonly bytes: Uint8Array
}

/** res_letterbox.integrations: whether the record goes to the signature book and to shipping. */
export interface RecordIntegrations {
  readonly inSignatureBook: boolean
  readonly inShipping: boolean
}

/**
 * A record ready to store: every value validated, every reference resolved. Entities are entity_id codes
 * (the columns hold codes); dates are instants.
 */
export interface NewRecord {
  readonly modelId: number
  readonly category: string
  readonly doctype: number | null
  readonly subject: string | null
  readonly chrono: boolean
  readonly typist: number
  readonly status: string
  readonly destination: string | null
  readonly initiator: string | null
  readonly confidentiality: boolean
  readonly documentDate: Date | null
  readonly arrivalDate: Date | null
  readonly departureDate: Date | null
  readonly processLimitDate: Date | null
  readonly priority: string | null
  readonly barcode: string | null
  readonly externalId: Readonly<Record<string, unknown>>
  readonly customFields: Readonly<Record<string, unknown>>
  readonly senders: readonly RecordContact[]
  readonly recipients: readonly RecordContact[]
  readonly diffusionList: readonly DiffusionItem[]
  /** The user of the diffusion list's `dest` item (res_letterbox.dest_user). */
  readonly destUser: number | null
  readonly folders: readonly number[]
  readonly tags: readonly number[]
  readonly file: NewRecordFile | null
  /** The acting user follows the new record (a users_followed_resources row). */
  readonly followed: boolean
  /** Null leaves the column's default: integrations count only with a file, and only when sent. */
  readonly integrations: RecordIntegrations | null
}
