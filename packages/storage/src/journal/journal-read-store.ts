import type {
  Actor,
  JournalEvent,
  JournalPageEntry,
  JournalQuery,
  JournalReadStore,
  JournalScope,
} from '@mailroom/core'
import { ARCHIVE_OBJECT_CLASS } from '@mailroom/core/internal'
import { type Kysely, type RawBuilder, type SqlBool, sql } from 'kysely'
import type { Database } from '../database/schema.js'
import { type JournalEventRow, loadSafeDirectory, rowToEvent } from './journal-rows.js'
import type { JournalWriter } from './journal-writer.js'

/** What the journal's reads need: the database, and the writer that journals each read. */
export interface JournalReadContext {
  readonly db: Kysely<Database>
  readonly journal: JournalWriter
}

/** A position in journal order; the timestamp stays in PostgreSQL's text form so microseconds survive. */
export interface OrderKey {
  readonly timestampText: string
  readonly eventId: string
}

const DIGITS = /^[0-9]+$/

/**
 * Core's journal read port over kysely. Pages are fetched by keyset on (timestamp, eventId COLLATE "C"), each
 * with one more query for the histories (eventInfo) of the archives it names: memory is bounded by a page,
 * whatever the size of the journal. PGlite has no server cursors; keyset pages work on both drivers.
 */
export class KyselyJournalReadStore implements JournalReadStore<OrderKey> {
  readonly #context: JournalReadContext

  constructor(context: JournalReadContext) {
    this.#context = context
  }

  loadSafeDirectory() {
    return loadSafeDirectory(this.#context.db)
  }

  async positionOf(safe: string, eventId: string): Promise<OrderKey | null> {
    const row = await this.#context.db
      .selectFrom('journal_events')
      .select([sql<string>`${sql.ref('timestamp')}::text`.as('timestamp_text'), 'event_id'])
      .where('safe', '=', safe)
      .where('object_class', '=', ARCHIVE_OBJECT_CLASS)
      .where('event_id', '=', eventId)
      .executeTakeFirst()
    return row ? { timestampText: row.timestamp_text, eventId: row.event_id } : null
  }

  journalRead(request: { safe: string; organizationRegNumber: string; actor: Actor }): Promise<JournalEvent> {
    const { db, journal } = this.#context
    return db.transaction().execute((trx) => journal.journalRead(trx, request))
  }

  async page(scope: JournalScope, after: OrderKey | null, size: number): Promise<JournalPageEntry<OrderKey>[]> {
    const db = this.#context.db
    const rows = await selectPage(db, scope, after, size)
    if (rows.length === 0) return []
    const histories = await loadHistories(
      db,
      scope,
      rows.map((row) => row.object_id),
    )
    return rows.map((row) => ({
      event: rowToEvent(row),
      history: histories.get(row.object_id),
      position: { timestampText: row.timestamp_text, eventId: row.event_id },
    }))
  }
}

function selectPage(
  db: Kysely<Database>,
  scope: JournalScope,
  after: OrderKey | null,
  size: number,
): Promise<(JournalEventRow & { timestamp_text: string })[]> {
  const conditions = [...archiveEventConditions(scope), ...filterConditions(scope.query)]
  if (after !== null) {
    conditions.push(
      sql<SqlBool>`(${sql.ref('timestamp')}, event_id collate "C") > (${after.timestampText}::timestamptz, ${after.eventId})`,
    )
  }
  return db
    .selectFrom('journal_events')
    .selectAll()
    .select(sql<string>`${sql.ref('timestamp')}::text`.as('timestamp_text'))
    .where(sql<SqlBool>`${sql.join(conditions, sql` and `)}`)
    .orderBy(sql.ref('timestamp'))
    .orderBy(sql`event_id collate "C"`)
    .limit(size)
    .execute()
}

/** Every archive event of the safe up to the snapshot: the scope of both pages and eventInfo. */
function archiveEventConditions(scope: JournalScope): RawBuilder<SqlBool>[] {
  return [
    sql<SqlBool>`safe = ${scope.safe}`,
    sql<SqlBool>`object_class = ${ARCHIVE_OBJECT_CLASS}`,
    sql<SqlBool>`sequence <= ${scope.snapshot}`,
  ]
}

/**
 * The query's filters in SQL, with the semantics of core's matchesJournalQuery: archiveId on objectId,
 * originatorOrgRegNumber on orgUnitRegNumber, inclusive date bounds, and the originator archive identifier
 * range of ORIGINATOR_ARCHIVE_ID_RANGE_RULE (numeric when the value and every bound are digits, else
 * COLLATE "C", i.e. code point order).
 */
export function filterConditions(query: JournalQuery): RawBuilder<SqlBool>[] {
  const conditions: RawBuilder<SqlBool>[] = []
  if (query.archiveId !== undefined) conditions.push(sql<SqlBool>`object_id = ${query.archiveId}`)
  if (query.originatorOrgRegNumber !== undefined)
    conditions.push(sql<SqlBool>`org_unit_reg_number = ${query.originatorOrgRegNumber}`)
  if (query.fromDate !== undefined)
    conditions.push(sql<SqlBool>`${sql.ref('timestamp')} >= ${query.fromDate.toISOString()}::timestamptz`)
  if (query.toDate !== undefined)
    conditions.push(sql<SqlBool>`${sql.ref('timestamp')} <= ${query.toDate.toISOString()}::timestamptz`)
  const from = query.fromOriginatorArchiveId
  const to = query.toOriginatorArchiveId
  if (from !== undefined || to !== undefined) {
    const value = sql`(info ->> 'originatorArchiveId')`
    const lexical: RawBuilder<SqlBool>[] = []
    if (from !== undefined) lexical.push(sql<SqlBool>`${value} collate "C" >= ${from}`)
    if (to !== undefined) lexical.push(sql<SqlBool>`${value} collate "C" <= ${to}`)
    const lexicalCondition = sql<SqlBool>`(${sql.join(lexical, sql` and `)})`
    conditions.push(sql<SqlBool>`${value} is not null`)
    if ([from, to].every((bound) => bound === undefined || DIGITS.test(bound))) {
      const numeric: RawBuilder<SqlBool>[] = []
      if (from !== undefined) numeric.push(sql<SqlBool>`${value}::numeric >= ${from}::numeric`)
      if (to !== undefined) numeric.push(sql<SqlBool>`${value}::numeric <= ${to}::numeric`)
      // CASE, not AND: PostgreSQL may evaluate AND operands in any order, and a non-digit value must never be cast.
      conditions.push(
        sql<SqlBool>`(case when ${value} ~ '^[0-9]+$' then (${sql.join(numeric, sql` and `)}) else ${lexicalCondition} end)`,
      )
    } else {
      conditions.push(lexicalCondition)
    }
  }
  return conditions
}

/** The histories (every archive event up to the snapshot) of a page's archives, in one query. */
async function loadHistories(
  db: Kysely<Database>,
  scope: JournalScope,
  objectIds: readonly string[],
): Promise<Map<string, JournalEvent[]>> {
  const unique = [...new Set(objectIds)]
  const rows = await db
    .selectFrom('journal_events')
    .selectAll()
    .where(sql<SqlBool>`${sql.join(archiveEventConditions(scope), sql` and `)}`)
    .where('object_id', 'in', unique)
    .orderBy('object_id')
    .orderBy(sql.ref('timestamp'))
    .orderBy('sequence')
    .execute()
  const histories = new Map<string, JournalEvent[]>()
  for (const row of rows) {
    const list = histories.get(row.object_id)
    if (list) list.push(rowToEvent(row))
    else histories.set(row.object_id, [rowToEvent(row)])
  }
  return histories
}
