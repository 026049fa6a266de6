import { createHash } from 'node:crypto'
import type { JournalEvent, SafeDirectory } from '@mailroom/core'
import { buildSafeDirectory, type PendingJournalEvent } from '@mailroom/core/internal'
import type { Kysely, Selectable } from 'kysely'
import type { Database, JournalEventsTable } from '../database/schema.js'

/** A journal_events row as selected. */
export type JournalEventRow = Selectable<JournalEventsTable>

/** Lower-case hex SHA-256 of a string's UTF-8 bytes: the hash function of the journal chain. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex')
}

/**
 * A stored row as core's event. No validation: verification must see exactly what is stored, and a
 * tampered row simply fails its hash.
 */
export function rowToEvent(row: JournalEventRow): JournalEvent {
  return {
    eventId: row.event_id,
    safe: row.safe,
    sequence: row.sequence,
    eventType: row.event_type,
    timestamp: row.timestamp instanceof Date ? row.timestamp : new Date(row.timestamp),
    instanceName: row.instance_name,
    orgRegNumber: row.org_reg_number,
    orgUnitRegNumber: row.org_unit_reg_number,
    accountId: row.account_id,
    accountName: row.account_name,
    objectClass: row.object_class,
    objectId: row.object_id,
    operationResult: row.operation_result,
    description: row.description,
    info: row.info,
    previousHash: row.previous_hash,
    hash: row.hash,
  } as unknown as JournalEvent
}

/**
 * SQL types of journal_events' columns, in the order of {@link eventToRow} (journal_pending shares the
 * content ones), for the statements whose parameters PostgreSQL cannot type from their context alone.
 */
export const JOURNAL_COLUMN_TYPES = {
  safe: 'text',
  sequence: 'bigint',
  event_id: 'text',
  event_type: 'text',
  timestamp: 'timestamptz',
  instance_name: 'text',
  org_reg_number: 'text',
  org_unit_reg_number: 'text',
  account_id: 'text',
  account_name: 'text',
  object_class: 'text',
  object_id: 'text',
  operation_result: 'boolean',
  description: 'text',
  info: 'jsonb',
  previous_hash: 'text',
  hash: 'text',
} as const satisfies Record<keyof ReturnType<typeof eventToRow>, string>

/** Core's event as an insertable row. */
export function eventToRow(event: JournalEvent) {
  return { ...pendingEventToRow(event), sequence: event.sequence, previous_hash: event.previousHash, hash: event.hash }
}

/** A pending event's columns: all but its chain position and hash, which its seal gives it. */
export function pendingEventToRow(event: PendingJournalEvent) {
  return {
    safe: event.safe,
    event_id: event.eventId,
    event_type: event.eventType,
    timestamp: event.timestamp,
    instance_name: event.instanceName,
    org_reg_number: event.orgRegNumber,
    org_unit_reg_number: event.orgUnitRegNumber,
    account_id: event.accountId,
    account_name: event.accountName,
    object_class: event.objectClass,
    object_id: event.objectId,
    operation_result: event.operationResult,
    description: event.description,
    info: JSON.stringify(event.info),
  }
}

/** The safe look-ups over the current entity tree (small: read whole, in the caller's transaction if any). */
export async function loadSafeDirectory(db: Kysely<Database>): Promise<SafeDirectory> {
  const rows = await db.selectFrom('entities').select(['entity_id', 'parent_entity_id', 'business_id']).execute()
  return buildSafeDirectory(
    rows.map((row) => ({ entityId: row.entity_id, parentEntityId: row.parent_entity_id, businessId: row.business_id })),
  )
}
