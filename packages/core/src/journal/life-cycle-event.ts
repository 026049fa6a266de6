import { isArchiveEvent, type JournalEvent } from './journal-event.js'

/** Event info element, in the interface's field order. */
export interface EventInfoItem {
  readonly eventId: string
  readonly eventType: string
  readonly timestamp: string
  readonly orgRegNumber: string
  readonly orgUnitRegNumber: string
  readonly accountId: string
  readonly objectId: string
  readonly resId: string
  readonly hashAlgorithm: string
  readonly hash: string
  readonly originatorOrgRegNumber: string
  readonly depositorOrgRegNumber: string
  readonly archiverOrgRegNumber: string
  readonly size: number
}

/** Life-cycle event of the `/events` response, in the interface's field order. */
export interface LifeCycleEvent {
  readonly eventId: string
  readonly eventType: string
  readonly instanceName: string
  readonly timestamp: string
  readonly orgRegNumber: string
  readonly orgUnitRegNumber: string
  readonly accountId: string
  readonly objectClass: string
  readonly objectId: string
  readonly operationResult: boolean
  readonly description: string
  readonly eventInfo: readonly EventInfoItem[]
  readonly accountName: string
}

/**
 * ISO 8601 with offset and whole seconds, as PHP's `DateTime::format('c')` writes it upstream
 * (`2019-12-11T10:11:39+00:00`): always UTC, milliseconds dropped (truncated, not rounded).
 */
export function formatJournalTimestamp(date: Date): string {
  return `${date.toISOString().slice(0, 19)}+00:00`
}

function infoString(info: object, key: string): string {
  const value = (info as Record<string, unknown>)[key]
  return typeof value === 'string' ? value : ''
}

/**
 * An event as an eventInfo element. Fields an event type does not carry are `""` (strings) or `0` (size):
 * consultations and integrity checks have resId, hashAlgorithm, hash and size but no organisation numbers.
 */
export function toEventInfoItem(event: JournalEvent): EventInfoItem {
  const info = event.info
  const size = 'size' in info && Number.isSafeInteger(info.size) ? info.size : 0
  return {
    eventId: event.eventId,
    eventType: event.eventType,
    timestamp: formatJournalTimestamp(event.timestamp),
    orgRegNumber: event.orgRegNumber,
    orgUnitRegNumber: event.orgUnitRegNumber,
    accountId: event.accountId,
    objectId: event.objectId,
    resId: infoString(info, 'resId'),
    hashAlgorithm: infoString(info, 'hashAlgorithm'),
    hash: infoString(info, 'hash'),
    originatorOrgRegNumber: infoString(info, 'originatorOrgRegNumber'),
    depositorOrgRegNumber: infoString(info, 'depositorOrgRegNumber'),
    archiverOrgRegNumber: infoString(info, 'archiverOrgRegNumber'),
    size,
  }
}

/** Oldest first: timestamp, then chain sequence (the safe's append order). */
function compareHistory(a: JournalEvent, b: JournalEvent): number {
  const byTime = a.timestamp.getTime() - b.timestamp.getTime()
  return byTime !== 0 ? Math.sign(byTime) : a.sequence - b.sequence
}

/**
 * The life-cycle event of `/events`. `archiveEvents` are the events of the same archive (extra events of other
 * objects or safes are ignored); eventInfo lists them all, whoever produced them, oldest first, as upstream's
 * getObjectEvents does. accountName is the caller's, as upstream sets it.
 */
export function toLifeCycleEvent(
  event: JournalEvent,
  archiveEvents: Iterable<JournalEvent>,
  callerAccountName: string,
): LifeCycleEvent {
  const history = [...archiveEvents]
    .filter(
      (other) =>
        isArchiveEvent(other) &&
        other.objectClass === event.objectClass &&
        other.objectId === event.objectId &&
        other.safe === event.safe,
    )
    .sort(compareHistory)
  return {
    eventId: event.eventId,
    eventType: event.eventType,
    instanceName: event.instanceName,
    timestamp: formatJournalTimestamp(event.timestamp),
    orgRegNumber: event.orgRegNumber,
    orgUnitRegNumber: event.orgUnitRegNumber,
    accountId: event.accountId,
    objectClass: event.objectClass,
    objectId: event.objectId,
    operationResult: event.operationResult,
    description: event.description,
    eventInfo: history.map(toEventInfoItem),
    accountName: callerAccountName,
  }
}
