import type { JournalEvent } from '@mailroom/core'
import { linkJournalEvent, type PendingJournalEvent } from '@mailroom/core/internal'
import { CompiledQuery, type Kysely, type Selectable } from 'kysely'
import type { Database, JournalPendingTable } from '../database/schema.js'
import { eventToRow, JOURNAL_COLUMN_TYPES, pendingEventToRow, rowToEvent, sha256Hex } from './journal-rows.js'

/** Pending rows linked per transaction by default: bounds a seal's memory and its transaction's length. */
export const SEAL_BATCH_SIZE = 1000

/** A journal_pending row as selected. */
export type JournalPendingRow = Selectable<JournalPendingTable>

/** A safe's chain end, read under the lock of its journal_heads row (sequence 0: an empty chain). */
export interface LockedHead {
  readonly safe: string
  readonly sequence: number
  readonly hash: string
  /** Timestamp of the event at `sequence` (null for an empty chain, or when that row is gone). */
  readonly timestamp: Date | null
}

/** Options of {@link sealJournal}. */
export interface SealJournalOptions {
  /** Seal this safe only (default: every safe with pending events). */
  readonly safe?: string
  /** Pending rows linked per transaction (default {@link SEAL_BATCH_SIZE}). */
  readonly batchSize?: number
}

/**
 * Links the committed pending events of one safe, or of every safe, into their hash chains: per safe, short
 * transactions that each lock the head row, take up to `batchSize` pending rows in id order, insert them as
 * chained events, delete them and move the head, until none is left. Returns how many events were sealed.
 *
 * Concurrent sealers (other servers, a CLI) are safe without locking pending rows: a pending row is only
 * ever deleted by a transaction holding its safe's head lock, and each statement after that lock is taken
 * sees what the previous holder committed (READ COMMITTED), so no row is linked twice and none is skipped.
 * Rows of transactions still in flight are invisible and wait for a later seal.
 */
export async function sealJournal(db: Kysely<Database>, options: SealJournalOptions = {}): Promise<number> {
  const batchSize = Math.max(1, Math.trunc(options.batchSize ?? SEAL_BATCH_SIZE))
  const safes =
    options.safe !== undefined
      ? [options.safe]
      : (await db.selectFrom('journal_pending').select('safe').distinct().execute()).map((row) => row.safe)
  let sealed = 0
  for (const safe of safes) {
    // Without anything pending, no transaction, no lock, and no head row created for a safe that has no events.
    const any = await db.selectFrom('journal_pending').select('id').where('safe', '=', safe).limit(1).executeTakeFirst()
    if (any === undefined) continue
    for (;;) {
      const count = await db
        .transaction()
        .execute(async (trx) => (await linkPending(trx, await lockHead(trx, safe), batchSize)).count)
      sealed += count
      if (count < batchSize) break
    }
  }
  return sealed
}

/** Locks a safe's head row until the end of `trx`, creating it empty (sequence 0) the first time. */
export async function lockHead(trx: Kysely<Database>, safe: string): Promise<LockedHead> {
  // The head and its last event's timestamp in one round trip; only the head row is locked.
  const select = () =>
    trx
      .selectFrom('journal_heads as h')
      .leftJoin('journal_events as e', (join) =>
        join.onRef('e.safe', '=', 'h.safe').onRef('e.sequence', '=', 'h.last_sequence'),
      )
      .select(['h.last_sequence', 'h.last_hash', 'e.timestamp'])
      .where('h.safe', '=', safe)
      .forUpdate('h')
      .executeTakeFirst()
  // The head row exists but for a safe's first seal: look for it first, a round trip less per seal.
  let head = await select()
  if (head === undefined) {
    await trx
      .insertInto('journal_heads')
      .values({ safe, last_sequence: 0, last_hash: '' })
      .onConflict((oc) => oc.column('safe').doNothing())
      .execute()
    head = await select()
    if (head === undefined) throw new Error(`journal head of ${safe} could not be created`)
  }
  if (head.last_sequence === 0) return { safe, sequence: 0, hash: '', timestamp: null }
  return {
    safe,
    sequence: head.last_sequence,
    hash: head.last_hash,
    timestamp: head.timestamp === null ? null : new Date(head.timestamp),
  }
}

/**
 * Inside `trx`, which holds the head lock: links up to `limit` committed pending rows of the safe after
 * `head`, deletes them and moves the head row. Returns the new head and how many rows were linked.
 */
export async function linkPending(
  trx: Kysely<Database>,
  head: LockedHead,
  limit: number,
): Promise<{ head: LockedHead; count: number }> {
  const rows = await trx
    .selectFrom('journal_pending')
    .selectAll()
    .where('safe', '=', head.safe)
    .orderBy('id')
    .limit(limit)
    .execute()
  if (rows.length === 0) return { head, count: 0 }
  let current = head
  const events: JournalEvent[] = []
  for (const row of rows) {
    const event = linkEvent(row, current)
    events.push(event)
    current = { safe: head.safe, sequence: event.sequence, hash: event.hash, timestamp: event.timestamp }
  }
  // The events, the pending rows' removal and the head's move in one statement (data-modifying CTEs).
  await trx.executeQuery(linkQuery(events, rows, current))
  return { head: current, count: rows.length }
}

/** journal_events' columns, each linked from an array parameter of its type. */
const EVENT_COLUMNS = Object.keys(JOURNAL_COLUMN_TYPES) as (keyof typeof JOURNAL_COLUMN_TYPES)[]
const LINKED_COUNT = EVENT_COLUMNS.length

/**
 * The link statement as one constant text, whatever the batch's size: the events travel as one array per
 * column expanded by `unnest` (a multi-row VALUES would be a new text, parsed and planned again, for each
 * batch size). $1-$17 the events' columns, $18 the linked pending ids, $19-$21 the head's new position.
 */
const LINK_SQL = `with linked as (
  insert into journal_events (${EVENT_COLUMNS.join(', ')})
  select * from unnest(${EVENT_COLUMNS.map((column, index) => `$${index + 1}::${JOURNAL_COLUMN_TYPES[column]}[]`).join(', ')})
), removed as (
  delete from journal_pending where id = any($${LINKED_COUNT + 1}::bigint[])
)
update journal_heads set last_sequence = $${LINKED_COUNT + 2}::bigint, last_hash = $${LINKED_COUNT + 3}::text where safe = $${LINKED_COUNT + 4}::text`

/** The link statement of `events` (the chained forms of the pending rows `linked`) moving the head to `head`. */
export function linkQuery(
  events: readonly JournalEvent[],
  linked: readonly JournalPendingRow[],
  head: LockedHead,
): CompiledQuery {
  const rows = events.map(eventToRow)
  const columns = EVENT_COLUMNS.map((column) =>
    column === 'timestamp' ? rows.map((row) => new Date(row.timestamp).toISOString()) : rows.map((row) => row[column]),
  )
  return CompiledQuery.raw(LINK_SQL, [...columns, linked.map((row) => row.id), head.sequence, head.hash, head.safe])
}

/** Moves the locked head row to `head` (the journal_heads trigger refuses any move backwards). */
export async function moveHead(trx: Kysely<Database>, head: LockedHead): Promise<void> {
  await trx
    .updateTable('journal_heads')
    .set({ last_sequence: head.sequence, last_hash: head.hash })
    .where('safe', '=', head.safe)
    .execute()
}

/** A pending row placed after `head` by core ({@link linkJournalEvent}: raised timestamp, position, hash). */
function linkEvent(row: JournalPendingRow, head: LockedHead): JournalEvent {
  // The stored content as an event (rowToEvent reads the timestamp as a Date); its position is core's to give.
  const {
    sequence: _sequence,
    previousHash: _previous,
    hash: _hash,
    ...content
  } = rowToEvent({
    ...row,
    sequence: 0,
    previous_hash: null,
    hash: '',
  })
  return linkJournalEvent(content as PendingJournalEvent, head, sha256Hex)
}

/** An event built by core (pending, or at any position) as a pending row: its content without position or hash. */
export function eventToPendingRow(event: PendingJournalEvent) {
  return pendingEventToRow(event)
}
