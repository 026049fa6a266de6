/**
 * The digital-safe journal event as Mailroom stores it: one append-only row per life-cycle event, chained
 * per safe (clients-and-digital-safe.md A3/A4, plus the hash chain of issue #7).
 */

/** Computes the lower-case hexadecimal SHA-256 of the UTF-8 encoding of a string (injected: core has no I/O). */
export type Sha256Hex = (text: string) => string

/** The instance name written in every event (upstream writes its own instance name, e.g. `maarchRM`). */
export const JOURNAL_INSTANCE_NAME = 'mailroom'

/** The only hash algorithm Mailroom writes; upstream spells it this way. */
export const JOURNAL_HASH_ALGORITHM = 'SHA256'

/** Event types Mailroom writes. */
export const JOURNAL_EVENT_TYPES = [
  'recordsManagement/deposit',
  'recordsManagement/depositNewResource',
  'recordsManagement/consultation',
  'recordsManagement/integrityCheck',
  'organization/journal',
] as const

/** One of the event types Mailroom writes. */
export type JournalEventType = (typeof JOURNAL_EVENT_TYPES)[number]

/** Object class of archive events: the only class `/events` returns. */
export const ARCHIVE_OBJECT_CLASS = 'recordsManagement/archive'

/** Object class of organisation events (journal reads), never returned by `/events`. */
export const ORGANIZATION_OBJECT_CLASS = 'organization/organization'

/** Object class of a journal event. */
export type JournalObjectClass = typeof ARCHIVE_OBJECT_CLASS | typeof ORGANIZATION_OBJECT_CLASS

/** `info` text of a successful integrity check (upstream wording). */
export const INTEGRITY_CHECK_SUCCEEDED = 'Checking succeeded'

/** Shape of an event identifier: upstream ids must match it, so that they are usable as path segments. */
export const JOURNAL_EVENT_ID_PATTERN = /^[A-Za-z0-9_-]+$/

/** Lower-case hexadecimal SHA-256 digest. */
export const SHA256_HEX_PATTERN = /^[0-9a-f]{64}$/

/** eventInfo of a deposit or of a new resource: upstream's deposit format minus `address` and `format`. */
export interface DepositInfo {
  readonly resId: string
  readonly hashAlgorithm: typeof JOURNAL_HASH_ALGORITHM
  readonly hash: string
  readonly originatorOrgRegNumber: string
  readonly depositorOrgRegNumber: string
  readonly archiverOrgRegNumber: string
  readonly size: number
  readonly originatorArchiveId: string
}

/** eventInfo of a consultation (a resource's content was served). */
export interface ConsultationInfo {
  readonly resId: string
  readonly hashAlgorithm: typeof JOURNAL_HASH_ALGORITHM
  readonly hash: string
  readonly size: number
  readonly originatorArchiveId: string
}

/**
 * eventInfo of an integrity check. `hash`/`size` are the stored (expected) fingerprint and size;
 * `info` is `Checking succeeded` or the failure text.
 */
export interface IntegrityCheckInfo {
  readonly resId: string
  readonly hashAlgorithm: typeof JOURNAL_HASH_ALGORITHM
  readonly hash: string
  readonly size: number
  readonly requesterOrgRegNumber: string
  readonly info: string
  readonly originatorArchiveId: string
}

/** eventInfo of a journal read (`organization/journal`, upstream format `orgName ownerOrgId`). */
export interface OrganizationJournalInfo {
  readonly orgName: string
  readonly ownerOrgId: string
}

/** Fields every journal event has. */
export interface JournalEventBase {
  /** `mailroom_<unique>`, matching {@link JOURNAL_EVENT_ID_PATTERN}. */
  readonly eventId: string
  /** The safe (originatorOwnerOrgRegNumber) whose chain holds the event. */
  readonly safe: string
  /** Position in the safe's chain, 1-based and contiguous. */
  readonly sequence: number
  readonly timestamp: Date
  readonly instanceName: string
  /** Owner organisation of the actor's position: the safe identifier. */
  readonly orgRegNumber: string
  /** The actor's organisational unit (an entity_id). */
  readonly orgUnitRegNumber: string
  readonly accountId: string
  readonly accountName: string
  readonly objectId: string
  readonly operationResult: boolean
  readonly description: string
  /** Hash of the previous event of the same safe, null for its first event. */
  readonly previousHash: string | null
  /** See {@link computeEventHash}. */
  readonly hash: string
}

/** A deposit event. */
export interface DepositEvent extends JournalEventBase {
  readonly eventType: 'recordsManagement/deposit'
  readonly objectClass: typeof ARCHIVE_OBJECT_CLASS
  readonly info: DepositInfo
}

/** A new resource (new file version) deposited in an existing archive. */
export interface NewResourceEvent extends JournalEventBase {
  readonly eventType: 'recordsManagement/depositNewResource'
  readonly objectClass: typeof ARCHIVE_OBJECT_CLASS
  readonly info: DepositInfo
}

/** A consultation of an archive's resource. */
export interface ConsultationEvent extends JournalEventBase {
  readonly eventType: 'recordsManagement/consultation'
  readonly objectClass: typeof ARCHIVE_OBJECT_CLASS
  readonly info: ConsultationInfo
}

/** An integrity check of an archive's resource. */
export interface IntegrityCheckEvent extends JournalEventBase {
  readonly eventType: 'recordsManagement/integrityCheck'
  readonly objectClass: typeof ARCHIVE_OBJECT_CLASS
  readonly info: IntegrityCheckInfo
}

/** A read of the journal, journalled on the organisation. */
export interface JournalReadEvent extends JournalEventBase {
  readonly eventType: 'organization/journal'
  readonly objectClass: typeof ORGANIZATION_OBJECT_CLASS
  readonly info: OrganizationJournalInfo
}

/** Any journal event, discriminated by `eventType`. */
export type JournalEvent = DepositEvent | NewResourceEvent | ConsultationEvent | IntegrityCheckEvent | JournalReadEvent

/** Any archive event (the ones `/events` can return). */
export type ArchiveJournalEvent = Exclude<JournalEvent, JournalReadEvent>

/** A journal event before its hash is computed. */
export type UnhashedJournalEvent = JournalEvent extends infer E
  ? E extends JournalEvent
    ? Omit<E, 'hash'>
    : never
  : never

/** True for events of class `recordsManagement/archive`. */
export function isArchiveEvent(event: JournalEvent): event is ArchiveJournalEvent {
  return event.objectClass === ARCHIVE_OBJECT_CLASS
}
