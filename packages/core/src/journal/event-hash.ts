import { type CanonicalValue, canonicalJson } from './canonical-json.js'
import type { JournalEvent, Sha256Hex, UnhashedJournalEvent } from './journal-event.js'

/**
 * The canonical form of an event: {@link canonicalJson} of an object holding exactly the event's stored
 * fields except `hash` (eventId, safe, sequence, eventType, timestamp, instanceName, orgRegNumber,
 * orgUnitRegNumber, accountId, accountName, objectClass, objectId, operationResult, description, info,
 * previousHash). Fields are picked by name, so extra properties on a database row never change it.
 */
export function canonicalEventForm(event: UnhashedJournalEvent | JournalEvent): string {
  return canonicalJson({
    eventId: event.eventId,
    safe: event.safe,
    sequence: event.sequence,
    eventType: event.eventType,
    timestamp: event.timestamp,
    instanceName: event.instanceName,
    orgRegNumber: event.orgRegNumber,
    orgUnitRegNumber: event.orgUnitRegNumber,
    accountId: event.accountId,
    accountName: event.accountName,
    objectClass: event.objectClass,
    objectId: event.objectId,
    operationResult: event.operationResult,
    description: event.description,
    // Cast, not copy: whatever a tampered row holds in info must reach the hash unchanged.
    info: event.info as unknown as CanonicalValue,
    previousHash: event.previousHash,
  })
}

/**
 * The text whose SHA-256 is an event's hash:
 * `(previousHash ?? '') + '\n' + canonicalEventForm(event)`, i.e. the previous event's hash (64 lower-case hex
 * digits, or nothing for the first event of a safe), one line feed (U+000A), then the canonical form.
 * The previous hash also sits inside the canonical form; the prefix keeps the link readable in the input.
 */
export function eventHashInput(event: UnhashedJournalEvent | JournalEvent): string {
  return `${event.previousHash ?? ''}\n${canonicalEventForm(event)}`
}

/** An event's hash: `sha256Hex(eventHashInput(event))`, lower-case hex, over the UTF-8 bytes of the input. */
export function computeEventHash(event: UnhashedJournalEvent | JournalEvent, sha256Hex: Sha256Hex): string {
  return sha256Hex(eventHashInput(event))
}
