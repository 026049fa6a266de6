import { fail } from '../errors/domain-error.js'
import { computeEventHash } from './event-hash.js'
import {
  ARCHIVE_OBJECT_CLASS,
  type ConsultationEvent,
  type DepositEvent,
  INTEGRITY_CHECK_SUCCEEDED,
  type IntegrityCheckEvent,
  JOURNAL_EVENT_ID_PATTERN,
  JOURNAL_HASH_ALGORITHM,
  JOURNAL_INSTANCE_NAME,
  type JournalEvent,
  type JournalReadEvent,
  type NewResourceEvent,
  ORGANIZATION_OBJECT_CLASS,
  SHA256_HEX_PATTERN,
  type Sha256Hex,
  type UnhashedJournalEvent,
} from './journal-event.js'

/** Where the next event of a safe goes: computed from the safe's last event by {@link chainPositionAfter}. */
export interface JournalChainPosition {
  readonly safe: string
  readonly sequence: number
  readonly previousHash: string | null
  /** Timestamp of the previous event; a new event never gets an earlier one. */
  readonly previousTimestamp: Date | null
}

/** The chain position following `last` (the safe's newest event), or the first position of an empty safe. */
export function chainPositionAfter(
  safe: string,
  last: Pick<JournalEvent, 'sequence' | 'hash' | 'timestamp'> | null,
): JournalChainPosition {
  if (last === null) return { safe, sequence: 1, previousHash: null, previousTimestamp: null }
  return { safe, sequence: last.sequence + 1, previousHash: last.hash, previousTimestamp: last.timestamp }
}

/** Injected effects of the builders. */
export interface JournalBuilderDeps {
  readonly sha256Hex: Sha256Hex
  /** Returns a fresh `mailroom_<unique>` identifier, e.g. from {@link createJournalEventIdGenerator}. */
  readonly newEventId: () => string
}

/** Who acts: the account and the organisational unit (entity_id) it acts from. */
export interface JournalActor {
  readonly accountId: string
  readonly accountName: string
  readonly orgUnitRegNumber: string
}

/** Inputs shared by every builder. */
export interface JournalEventContext {
  readonly position: JournalChainPosition
  readonly actor: JournalActor
  /** Clock reading; raised to the previous event's timestamp if the clock went backwards. */
  readonly timestamp: Date
}

/** A stored file as the journal sees it. */
export interface JournalResource {
  /** Resource identifier written as eventInfo resId (the record's resId, as a decimal string). */
  readonly resId: string
  /** Lower-case hex SHA-256 of the stored bytes. */
  readonly hash: string
  /** Byte count of the stored file. */
  readonly size: number
}

/** Inputs of a deposit or a new resource. */
export interface DepositEventInput extends JournalEventContext {
  /** The archive identifier (objectId), generated at the first deposit of a record. */
  readonly archiveId: string
  readonly resource: JournalResource
  /** entity_id of the record's destination. */
  readonly originatorOrgRegNumber: string
  /** entity_id the file was deposited from ('' when unknown: the interface allows it empty). */
  readonly depositorOrgRegNumber: string
  /** entity_id of the top-level entity that keeps the safe. */
  readonly archiverOrgRegNumber: string
  /** The record's own identifier. */
  readonly originatorArchiveId: string
  /** Where the file came from when it did not come through a create (an import): said in the description. */
  readonly provenance?: string
}

/** Inputs of a consultation. */
export interface ConsultationEventInput extends JournalEventContext {
  readonly archiveId: string
  readonly resource: JournalResource
  readonly originatorArchiveId: string
}

/** Inputs of an integrity check; `resource` carries the stored (expected) fingerprint and size. */
export interface IntegrityCheckEventInput extends JournalEventContext {
  readonly archiveId: string
  readonly resource: JournalResource
  readonly originatorArchiveId: string
  /** entity_id of the requester's unit. */
  readonly requesterOrgRegNumber: string
  /** Outcome: on failure `info` says what went wrong (e.g. the fingerprint mismatch). */
  readonly result: { readonly ok: true } | { readonly ok: false; readonly info: string }
}

/** Inputs of a journal read, journalled on the organisation that was read. */
export interface JournalReadEventInput extends JournalEventContext {
  /** originatorOrgRegNumber of the query when given, else the safe identifier. */
  readonly organizationRegNumber: string
  readonly orgName: string
  readonly ownerOrgId: string
}

/** English descriptions, modelled on upstream's eventFormat messages (default.sql). */
export const JOURNAL_DESCRIPTIONS = {
  deposit: (archiveId: string) => `Deposit of archive ${archiveId}`,
  newResource: (archiveId: string) => `Deposit of a resource in archive ${archiveId}`,
  consultation: (resId: string) => `Consultation of resource ${resId}`,
  integrityCheck: (resId: string) => `Integrity check of resource ${resId}`,
  journalRead: (organization: string) => `Reading of the journal of organization ${organization}`,
} as const

/** Two lower-case hex digits of every byte value: every journalled create or read makes an id. */
const HEX_BYTES: readonly string[] = Array.from({ length: 256 }, (_, byte) => byte.toString(16).padStart(2, '0'))

/**
 * Returns an event id generator: `mailroom_<time base36>-<random hex>`. The time prefix keeps ids roughly in
 * creation order; `randomBytes` must be cryptographically random (node:crypto randomBytes in the adapter).
 */
export function createJournalEventIdGenerator(deps: {
  readonly now: () => number
  readonly randomBytes: (length: number) => Uint8Array
}): () => string {
  return () => {
    let random = ''
    for (const byte of deps.randomBytes(10)) random += HEX_BYTES[byte]
    return `${JOURNAL_INSTANCE_NAME}_${Math.max(0, Math.trunc(deps.now())).toString(36)}-${random}`
  }
}

function checkEventId(eventId: string): string {
  if (!JOURNAL_EVENT_ID_PATTERN.test(eventId) || !eventId.startsWith(`${JOURNAL_INSTANCE_NAME}_`))
    fail('JOURNAL_EVENT_MALFORMED', { field: 'eventId' })
  return eventId
}

function checkContext(context: JournalEventContext): Date {
  const { position, timestamp } = context
  if (!Number.isSafeInteger(position.sequence) || position.sequence < 1)
    fail('JOURNAL_EVENT_MALFORMED', { field: 'sequence' })
  if ((position.sequence === 1) !== (position.previousHash === null))
    fail('JOURNAL_EVENT_MALFORMED', { field: 'previousHash' })
  if (position.previousHash !== null && !SHA256_HEX_PATTERN.test(position.previousHash))
    fail('JOURNAL_EVENT_MALFORMED', { field: 'previousHash' })
  if (position.safe === '') fail('JOURNAL_EVENT_MALFORMED', { field: 'safe' })
  if (Number.isNaN(timestamp.getTime())) fail('JOURNAL_EVENT_MALFORMED', { field: 'timestamp' })
  const previous = position.previousTimestamp
  return previous !== null && previous.getTime() > timestamp.getTime()
    ? new Date(previous.getTime())
    : new Date(timestamp.getTime())
}

function checkResource(resource: JournalResource): void {
  if (!SHA256_HEX_PATTERN.test(resource.hash)) fail('JOURNAL_EVENT_MALFORMED', { field: 'hash' })
  if (!Number.isSafeInteger(resource.size) || resource.size < 0) fail('JOURNAL_EVENT_MALFORMED', { field: 'size' })
}

function common(deps: Pick<JournalBuilderDeps, 'newEventId'>, context: JournalEventContext) {
  const timestamp = checkContext(context)
  return {
    eventId: checkEventId(deps.newEventId()),
    safe: context.position.safe,
    sequence: context.position.sequence,
    timestamp,
    instanceName: JOURNAL_INSTANCE_NAME,
    orgRegNumber: context.position.safe,
    orgUnitRegNumber: context.actor.orgUnitRegNumber,
    accountId: context.actor.accountId,
    accountName: context.actor.accountName,
    previousHash: context.position.previousHash,
  }
}

function seal<E extends JournalEvent>(deps: JournalBuilderDeps, unhashed: Omit<E, 'hash'>): E {
  return { ...unhashed, hash: computeEventHash(unhashed as UnhashedJournalEvent, deps.sha256Hex) } as E
}

function depositInfo(input: DepositEventInput) {
  checkResource(input.resource)
  return {
    resId: input.resource.resId,
    hashAlgorithm: JOURNAL_HASH_ALGORITHM,
    hash: input.resource.hash,
    originatorOrgRegNumber: input.originatorOrgRegNumber,
    depositorOrgRegNumber: input.depositorOrgRegNumber,
    archiverOrgRegNumber: input.archiverOrgRegNumber,
    size: input.resource.size,
    originatorArchiveId: input.originatorArchiveId,
  } as const
}

/** A `recordsManagement/deposit` event: a record's file entered its safe as a new archive. */
export function buildDepositEvent(deps: JournalBuilderDeps, input: DepositEventInput): DepositEvent {
  return seal<DepositEvent>(deps, buildPendingDepositEvent(deps, input))
}

/**
 * A deposit event without its hash: what a pending row holds. Its chain position is only known when it is
 * sealed, which computes the hash then; hashing it here would be work thrown away.
 */
export function buildPendingDepositEvent(
  deps: Pick<JournalBuilderDeps, 'newEventId'>,
  input: DepositEventInput,
): Omit<DepositEvent, 'hash'> {
  return {
    ...common(deps, input),
    eventType: 'recordsManagement/deposit',
    objectClass: ARCHIVE_OBJECT_CLASS,
    objectId: input.archiveId,
    operationResult: true,
    description:
      input.provenance === undefined
        ? JOURNAL_DESCRIPTIONS.deposit(input.archiveId)
        : `${JOURNAL_DESCRIPTIONS.deposit(input.archiveId)}: ${input.provenance}`,
    info: depositInfo(input),
  }
}

/** A `recordsManagement/depositNewResource` event: a new version of the file joined the record's archive. */
export function buildNewResourceEvent(deps: JournalBuilderDeps, input: DepositEventInput): NewResourceEvent {
  return seal<NewResourceEvent>(deps, {
    ...common(deps, input),
    eventType: 'recordsManagement/depositNewResource',
    objectClass: ARCHIVE_OBJECT_CLASS,
    objectId: input.archiveId,
    operationResult: true,
    description: JOURNAL_DESCRIPTIONS.newResource(input.archiveId),
    info: depositInfo(input),
  })
}

/** A `recordsManagement/consultation` event: a resource's content was served. */
export function buildConsultationEvent(deps: JournalBuilderDeps, input: ConsultationEventInput): ConsultationEvent {
  return seal<ConsultationEvent>(deps, buildPendingConsultationEvent(deps, input))
}

/** A consultation event without its hash, for a pending row (see {@link buildPendingDepositEvent}). */
export function buildPendingConsultationEvent(
  deps: Pick<JournalBuilderDeps, 'newEventId'>,
  input: ConsultationEventInput,
): Omit<ConsultationEvent, 'hash'> {
  checkResource(input.resource)
  return {
    ...common(deps, input),
    eventType: 'recordsManagement/consultation',
    objectClass: ARCHIVE_OBJECT_CLASS,
    objectId: input.archiveId,
    operationResult: true,
    description: JOURNAL_DESCRIPTIONS.consultation(input.resource.resId),
    info: {
      resId: input.resource.resId,
      hashAlgorithm: JOURNAL_HASH_ALGORITHM,
      hash: input.resource.hash,
      size: input.resource.size,
      originatorArchiveId: input.originatorArchiveId,
    },
  }
}

/** A `recordsManagement/integrityCheck` event; operationResult is false when the check failed. */
export function buildIntegrityCheckEvent(
  deps: JournalBuilderDeps,
  input: IntegrityCheckEventInput,
): IntegrityCheckEvent {
  checkResource(input.resource)
  return seal<IntegrityCheckEvent>(deps, {
    ...common(deps, input),
    eventType: 'recordsManagement/integrityCheck',
    objectClass: ARCHIVE_OBJECT_CLASS,
    objectId: input.archiveId,
    operationResult: input.result.ok,
    description: JOURNAL_DESCRIPTIONS.integrityCheck(input.resource.resId),
    info: {
      resId: input.resource.resId,
      hashAlgorithm: JOURNAL_HASH_ALGORITHM,
      hash: input.resource.hash,
      size: input.resource.size,
      requesterOrgRegNumber: input.requesterOrgRegNumber,
      info: input.result.ok ? INTEGRITY_CHECK_SUCCEEDED : input.result.info,
      originatorArchiveId: input.originatorArchiveId,
    },
  })
}

/** An `organization/journal` event: someone read the journal (never returned by `/events`). */
export function buildJournalReadEvent(deps: JournalBuilderDeps, input: JournalReadEventInput): JournalReadEvent {
  return seal<JournalReadEvent>(deps, {
    ...common(deps, input),
    eventType: 'organization/journal',
    objectClass: ORGANIZATION_OBJECT_CLASS,
    objectId: input.organizationRegNumber,
    operationResult: true,
    description: JOURNAL_DESCRIPTIONS.journalRead(input.organizationRegNumber),
    info: { orgName: input.orgName, ownerOrgId: input.ownerOrgId },
  })
}
